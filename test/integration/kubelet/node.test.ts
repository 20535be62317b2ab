/**
 * The simulated kubelet's Nodes and Leases as a real 1.20 kubelet writes them, and the
 * in-process API: startKubelet() registers Ready Nodes, stop() releases everything, a restart
 * re-adopts the Node of the same name.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { startKubelet } from '../../../local-cluster/kubelet/index.js';
import { clients, report, took, waitUntil } from './support.js';

test("the cluster's simulated Nodes look like 1.20 kubelets and renew their Leases", async (t) => {
  const { core, kc } = clients();
  const nodes = (await core.listNode()).items.filter((n) => n.metadata?.name?.startsWith('sim-node-'));
  assert.ok(nodes.length >= 1, 'simulated nodes registered');
  for (const node of nodes) {
    const name = node.metadata!.name!;
    assert.deepEqual(JSON.parse(JSON.stringify(node.status?.addresses)), [{ address: '127.0.0.1', type: 'InternalIP' }]);
    assert.ok((node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0) > 0);
    assert.equal(node.status?.nodeInfo?.kubeletVersion, 'v1.20.2');
    assert.equal(node.status?.nodeInfo?.operatingSystem, 'linux');
    assert.equal(node.metadata?.labels?.['kubernetes.io/hostname'], name);
    assert.equal(node.status?.capacity?.pods, '110');
    assert.equal(node.status?.capacity?.cpu, '4');
    assert.match(node.status?.allocatable?.memory ?? '', /^\d+(Ki|Mi|Gi)$/);
    const conditions = Object.fromEntries((node.status?.conditions ?? []).map((c) => [c.type, c.status]));
    assert.deepEqual(conditions, { MemoryPressure: 'False', DiskPressure: 'False', PIDPressure: 'False', Ready: 'True' });
    assert.ok(!(node.spec?.taints ?? []).some((x) => x.key.startsWith('node.kubernetes.io/')), 'no not-ready/unreachable taint');
  }
  const leases = kc.makeApiClient(CoordinationV1Api);
  const name = nodes[0].metadata!.name!;
  const before = await leases.readNamespacedLease({ name, namespace: 'kube-node-lease' });
  assert.equal(before.spec?.holderIdentity, name);
  assert.equal(before.spec?.leaseDurationSeconds, 40);
  const t0 = Date.now();
  const renewed = await waitUntil(
    async () => {
      const l = await leases.readNamespacedLease({ name, namespace: 'kube-node-lease' });
      return String(l.spec?.renewTime) !== String(before.spec?.renewTime) ? l : undefined;
    },
    { what: `Lease ${name} renewed`, timeoutMs: 25_000, intervalMs: 500 },
  );
  report(t, `Lease renewed within ${took(t0)}`);
  assert.ok(renewed);
});

test('startKubelet() registers Ready Nodes, stop() releases them, a restart re-adopts the Node', async (t) => {
  const { core, kc } = clients();
  const prefix = `t-${randomBytes(3).toString('hex')}`;
  // A taint keeps other tests' pods off this short-lived node.
  const taints = [{ key: 'rollout-trace.dev/test-node', value: 'kubelet', effect: 'NoSchedule' }];
  const running: Array<{ stop(): Promise<void> }> = [];
  t.after(async () => {
    // Stop first: a running kubelet re-registers a deleted Node, as a real one does.
    for (const k of running) await k.stop();
    await core.deleteNode({ name: `${prefix}-1` }).catch(() => undefined);
    await kc
      .makeApiClient(CoordinationV1Api)
      .deleteNamespacedLease({ name: `${prefix}-1`, namespace: 'kube-node-lease' })
      .catch(() => undefined);
  });
  const t0 = Date.now();
  const first = await startKubelet({ kubeconfig: kc, nodes: 1, namePrefix: prefix, taints, cpu: '2', memory: '1Gi', maxPods: 20 });
  running.push(first);
  report(t, `1 node Ready in ${took(t0)}`);
  assert.deepEqual(first.nodes, [`${prefix}-1`]);
  const node = await core.readNode({ name: `${prefix}-1` });
  assert.equal(node.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  assert.equal(node.status?.capacity?.cpu, '2');
  assert.equal(node.status?.capacity?.memory, '1Gi'); // 1048576Ki, canonicalized by the apiserver
  assert.equal(node.status?.capacity?.pods, '20');
  await first.stop();

  const t1 = Date.now();
  const second = await startKubelet({ kubeconfig: kc, nodes: 1, namePrefix: prefix, taints });
  running.push(second);
  report(t, `restarted and re-adopted in ${took(t1)}`);
  const again = await core.readNode({ name: `${prefix}-1` });
  assert.equal(again.metadata?.uid, node.metadata?.uid, 'same Node object re-adopted');
  await second.stop();
});
