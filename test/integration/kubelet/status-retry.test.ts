/**
 * The simulated kubelet's status manager: a pod-status write that falls into an apiserver outage
 * is retried until it lands (a real kubelet's status manager keeps the latest status per pod and
 * re-syncs it). The kubelet of a private node talks to the apiserver through a TCP forwarder that
 * refuses and resets connections for a while, exactly when the container starts.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { kubeConfigWith } from '../../helpers/fault-endpoint.js';
import { startPrivateNode } from '../../helpers/private-node.js';
import { TcpProxy } from '../track/tcp-proxy.js';
import { clients, createPod, report, took, waitEvent, waitPod, waitUntil, withNamespace } from './support.js';

it('a pod-status write lost in an apiserver outage is retried until it lands: the pod does not stay ContainerCreating', async (t) => {
  const ns = await withNamespace(t, 'status-retry');
  const { kc } = clients();
  const server = new URL(kc.getCurrentCluster()!.server);
  const proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 443) });
  t.after(() => proxy.close());
  const node = await startPrivateNode(t, kubeConfigWith(kc, { server: `https://127.0.0.1:${proxy.port}` }));
  // Pulls for 8 s, then starts: the status with the running, ready container is written then.
  await createPod(
    ns,
    'web',
    { ...node.podSpec, containers: [{ name: 'app', image: 'nginx:1.19' }] },
    { 'sim.rollout-trace.dev/app': 'slow-start;seconds=8' },
  );
  // The outage starts once the pull has begun: the volumes are mounted by then (the kubelet reads
  // their Secret through the apiserver, which an outage would hold up: no container would start).
  await waitPod(
    ns,
    'web',
    (p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ContainerCreating',
    'ContainerCreating written',
  );
  await waitEvent(ns, 'web', 'Pulling', undefined, 30_000);
  const t0 = Date.now();
  proxy.mode = 'refuse';
  proxy.resetAll();
  // The container starts inside the outage: its log is readable (the apiserver reads it from the
  // kubelet's own server, not through the forwarder), and the kubelet tries, and fails, to write
  // the running status: a connection refused after the start.
  const started = await waitUntil(
    async () => ((await clients().core.readNamespacedPodLog({ namespace: ns, name: 'web', container: 'app' })) ? Date.now() : undefined),
    { what: 'the container started inside the outage (its log readable)', timeoutMs: 60_000, intervalMs: 250 },
  );
  await waitUntil(() => proxy.attempts.some((a) => a > started), {
    what: 'a status write refused after the container started',
    timeoutMs: 60_000,
    intervalMs: 100,
  });
  proxy.mode = 'forward';
  const t1 = Date.now();
  const pod = await waitPod(
    ns,
    'web',
    (p) => p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True') && p,
    'pod Ready after the outage',
    45_000,
  );
  report(
    t,
    `outage of ${((t1 - t0) / 1000).toFixed(1)} s (${proxy.attempts.filter((a) => a >= t0 && a < t1).length} refused connections); Ready status landed ${took(t1)} after it`,
  );
  assert.equal(pod.status?.phase, 'Running');
  assert.ok(pod.status?.containerStatuses?.[0]?.state?.running, 'running written');
});

it("a Ready condition another writer set to False (the node controller's NodeNotReady) is written back: the pod is Ready again", async (t) => {
  const ns = await withNamespace(t, 'status-reconcile');
  const { core } = clients();
  await createPod(ns, 'web', { containers: [{ name: 'app', image: 'nginx:1.19' }] });
  const ready = (p: V1Pod) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  await waitPod(ns, 'web', (p) => ready(p) === 'True', 'Ready');
  // What the node lifecycle controller does to the pods of a node that missed its heartbeats
  // (MarkPodsNotReady): Ready=False on the stored status, the kubelet's own status unchanged.
  const pod = await core.readNamespacedPod({ name: 'web', namespace: ns });
  for (const c of pod.status?.conditions ?? [])
    if (c.type === 'Ready') Object.assign(c, { status: 'False', lastTransitionTime: new Date() });
  await core.replaceNamespacedPodStatus({ name: 'web', namespace: ns, body: pod });
  const t0 = Date.now();
  await waitPod(ns, 'web', (p) => ready(p) === 'False', 'Ready=False stored');
  await waitPod(ns, 'web', (p) => ready(p) === 'True', 'Ready written back by the kubelet', 30_000);
  report(t, `Ready again after ${took(t0)}`);
});
