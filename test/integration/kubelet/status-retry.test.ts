/**
 * The simulated kubelet's status manager: a pod-status write that falls into an apiserver outage
 * is retried until it lands (a real kubelet's status manager keeps the latest status per pod and
 * re-syncs it). The kubelet of a private node talks to the apiserver through a TCP forwarder that
 * refuses and resets connections for a while, exactly when the container starts.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { kubeConfigWith } from '../../helpers/fault-endpoint.js';
import { startPrivateNode } from '../../helpers/private-node.js';
import { TcpProxy } from '../track/tcp-proxy.js';
import { clients, createPod, report, took, waitPod, withNamespace } from './support.js';

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
  await waitPod(
    ns,
    'web',
    (p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ContainerCreating',
    'ContainerCreating written',
  );
  const t0 = Date.now();
  proxy.mode = 'refuse';
  proxy.resetAll();
  await new Promise((r) => setTimeout(r, 14_000)); // the container starts (and its status is written) inside the outage
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
