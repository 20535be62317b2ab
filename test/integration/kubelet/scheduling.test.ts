/**
 * Failures that never reach the kubelet, produced by the real scheduler and admission on a
 * cluster of simulated nodes: unschedulable pods and ResourceQuota rejections.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deploymentOf } from '../../helpers/deployments.js';
import { clients, report, took, waitEvent, waitUntil, withNamespace } from './support.js';

test("a pod requesting 64 CPUs is unschedulable with the real scheduler's message", async (t) => {
  const ns = await withNamespace(t, 'kubelet-unsched');
  const { core } = clients();
  // Only the cluster's own nodes: another test registers (and deletes) a node of its own meanwhile.
  const nodes = (await core.listNode()).items.filter(
    (n) => /^sim-node-\d+$/.test(n.metadata?.name ?? '') && n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  const t0 = Date.now();
  await core.createNamespacedPod({
    namespace: ns,
    body: {
      metadata: { name: 'big' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.19', resources: { requests: { cpu: '64' } } }] },
    },
  });
  const event = await waitEvent(ns, 'big', 'FailedScheduling', /Insufficient cpu/);
  report(t, `FailedScheduling after ${took(t0)}: ${event.message}`);
  // Another test's tainted node, if present meanwhile, adds its own clause before ours.
  const m = /^0\/(\d+) nodes are available: (?:.+, )?(\d+) Insufficient cpu\.$/.exec(event.message ?? '');
  assert.ok(m, `the scheduler's message: ${JSON.stringify(event.message)}`);
  assert.ok(Number(m[1]) >= nodes.length, `counts all ${nodes.length} Ready nodes`);
  assert.ok(Number(m[2]) >= nodes.length, `each of the cluster's ${nodes.length} nodes has too little cpu`);
  const pod = await core.readNamespacedPod({ name: 'big', namespace: ns });
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  assert.equal(scheduled?.status, 'False');
  assert.equal(scheduled?.reason, 'Unschedulable');
  assert.equal(pod.status?.phase, 'Pending');
  assert.equal(pod.spec?.nodeName, undefined);
});

test('a ResourceQuota makes the ReplicaSet report FailedCreate and the Deployment ReplicaFailure', async (t) => {
  const ns = await withNamespace(t, 'kubelet-quota');
  const { core, apps } = clients();
  await core.createNamespacedResourceQuota({ namespace: ns, body: { metadata: { name: 'pods' }, spec: { hard: { pods: '1' } } } });
  // The quota controller must have computed usage before admission enforces it.
  await waitUntil(async () => (await core.readNamespacedResourceQuota({ name: 'pods', namespace: ns })).status?.used, {
    what: 'quota usage computed',
    timeoutMs: 20_000,
  });
  const t0 = Date.now();
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: deploymentOf('web', { replicas: 3, image: 'nginx:1.19', podSpec: { terminationGracePeriodSeconds: 5 } }),
  });
  const d = await waitUntil(
    async () => {
      const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
      return d.status?.conditions?.find((c) => c.type === 'ReplicaFailure' && c.status === 'True') ? d : undefined;
    },
    { what: 'ReplicaFailure condition', timeoutMs: 30_000 },
  );
  report(t, `ReplicaFailure after ${took(t0)}`);
  const failure = d.status!.conditions!.find((c) => c.type === 'ReplicaFailure')!;
  assert.equal(failure.reason, 'FailedCreate');
  assert.match(failure.message ?? '', /exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1/);
  const rs = (await apps.listNamespacedReplicaSet({ namespace: ns })).items[0];
  const event = await waitEvent(ns, rs.metadata!.name!, 'FailedCreate');
  assert.match(event.message ?? '', /forbidden: exceeded quota: pods/);
  assert.equal(event.source?.component, 'replicaset-controller');
});

test('a pod whose PersistentVolumeClaim does not exist is kept Pending by the real scheduler', async (t) => {
  const ns = await withNamespace(t, 'kubelet-pvc');
  const { core } = clients();
  await core.createNamespacedPod({
    namespace: ns,
    body: {
      metadata: { name: 'db' },
      spec: {
        containers: [{ name: 'app', image: 'postgres:13', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }] }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
      },
    },
  });
  const event = await waitEvent(ns, 'db', 'FailedScheduling');
  report(t, event.message ?? '');
  assert.match(event.message ?? '', /^0\/\d+ nodes are available: \d+ persistentvolumeclaim "data" not found\.$/);
});
