/**
 * The simulated kubelet ends pods the way a 1.20 kubelet does, and the real controllers react:
 * - node-pressure eviction: MemoryPressure on the Node (the node lifecycle controller taints it),
 *   the `Evicted` Event, `Killing`, the status replaced by Failed/Evicted with the 1.20 message
 *   (conditions, container statuses and IPs gone, startTime kept); while the pressure lasts a
 *   BestEffort pod bound to the node is refused (`Evicted`, "The node had condition:
 *   [MemoryPressure]. "); the pressure ends; the real ReplicaSet controller's replacement runs;
 * - admission rejection: a pod bound by `spec.nodeName` that does not fit is refused (`OutOfcpu`
 *   Event, Failed with "Pod Node didn't have enough resource: ..."), and the ReplicaSet
 *   controller replaces it again and again;
 * - a container whose main process exits with code 0: `Completed`, restarted, CrashLoopBackOff.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { createDeployment } from '../../helpers/deployments.js';
import { startPrivateNode } from '../../helpers/private-node.js';
import { clients, createPod, eventsFor, waitEvent, waitPod, waitUntil, withNamespace } from './support.js';

const podsOf = async (ns: string): Promise<V1Pod[]> => (await clients().core.listNamespacedPod({ namespace: ns })).items;
const isReady = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('pods the kubelet ends', { concurrency: true }, () => {
  it('node-pressure eviction: the status, the Events, the Node condition and taint, the replacement', async (t) => {
    const ns = await withNamespace(t, 'evict');
    const node = await startPrivateNode(t);
    await createDeployment(ns, 'web', { replicas: 1, podSpec: node.podSpec });
    const first = await waitUntil(async () => (await podsOf(ns)).find(isReady), { what: 'a Ready pod', timeoutMs: 30_000 });
    const name = first.metadata!.name!;
    // Long enough for the lifecycle controller to taint the Node and for the checks below on a loaded machine.
    await node.kubelet.evict(ns, name, { pressureSeconds: 30 });
    const evicted = await waitPod(ns, name, (p) => p.status?.phase === 'Failed' && p, 'Failed');
    assert.equal(evicted.status?.reason, 'Evicted');
    assert.equal(
      evicted.status?.message,
      'The node was low on resource: memory. Container app was using 301Mi, which exceeds its request of 0. ',
    );
    assert.equal(evicted.status?.conditions, undefined);
    assert.equal(evicted.status?.containerStatuses, undefined);
    assert.equal(evicted.status?.podIP, undefined);
    assert.ok(evicted.status?.startTime, 'startTime is kept');
    // Bound past the scheduler at once, well within the pressure: the eviction manager refuses a BestEffort pod.
    const bound = await createPod(ns, 'bound', {
      ...node.podSpec,
      nodeName: node.name,
      containers: [{ name: 'app', image: 'nginx:1.19' }],
    });
    // The kubelet records its Events asynchronously, after the status: wait for both.
    await waitUntil(
      async () => {
        const reasons = (await eventsFor(ns, name)).map((e) => `${e.type} ${e.reason}`);
        return reasons.includes('Warning Evicted') && reasons.includes('Normal Killing');
      },
      { what: 'the Evicted and Killing Events', timeoutMs: 20_000 },
    );
    const { core } = clients();
    const memoryPressure = async () =>
      (await core.readNode({ name: node.name })).status?.conditions?.find((c) => c.type === 'MemoryPressure')?.status;
    await waitUntil(
      async () => (await core.readNode({ name: node.name })).spec?.taints?.some((x) => x.key === 'node.kubernetes.io/memory-pressure'),
      { what: 'the node lifecycle controller tainting the Node', timeoutMs: 20_000 },
    );
    const refused = await waitPod(ns, bound, (p) => p.status?.phase === 'Failed' && p, 'rejected under memory pressure');
    assert.equal(refused.status?.reason, 'Evicted');
    assert.equal(refused.status?.message, 'Pod The node had condition: [MemoryPressure]. ');
    await waitEvent(ns, bound, 'Evicted', 'The node had condition: [MemoryPressure]. ');
    const replacement = await waitUntil(async () => (await podsOf(ns)).find((p) => p.metadata?.name !== name && isReady(p)), {
      what: 'the replacement Ready once the pressure ended',
      timeoutMs: 90_000,
    });
    assert.equal(replacement.spec?.nodeName, node.name);
    assert.equal(await memoryPressure(), 'False');
    // Replacements placed before the taint landed were refused the same way, never run.
    for (const p of (await podsOf(ns)).filter((x) => ![name, bound].includes(x.metadata!.name!) && x.status?.phase === 'Failed')) {
      assert.equal(p.status?.message, 'Pod The node had condition: [MemoryPressure]. ');
    }
  });

  it('admission rejection (OutOfcpu), and the ReplicaSet controller replacing the pod again and again', async (t) => {
    const ns = await withNamespace(t, 'outofcpu');
    const node = await startPrivateNode(t);
    await createDeployment(ns, 'web', {
      replicas: 1,
      podSpec: { nodeName: node.name },
      container: { resources: { requests: { cpu: '100' } } },
    });
    const rejected = await waitUntil(
      async () => {
        const failed = (await podsOf(ns)).filter((p) => p.status?.phase === 'Failed');
        return failed.length >= 3 && failed;
      },
      { what: 'three rejected pods', timeoutMs: 30_000 },
    );
    for (const p of rejected) {
      assert.equal(p.status?.reason, 'OutOfcpu');
      assert.equal(p.status?.message, "Pod Node didn't have enough resource: cpu, requested: 100000, used: 0, capacity: 4000");
      assert.equal(p.status?.containerStatuses, undefined);
      assert.ok(p.status?.startTime, 'the status manager gives a status without one a startTime');
      assert.equal(p.status?.qosClass, undefined, 'a 1.20 status manager writes the status whole');
    }
    const events = await eventsFor(ns, rejected[0]!.metadata!.name!);
    assert.ok(
      events.some(
        (e) =>
          e.reason === 'OutOfcpu' &&
          e.type === 'Warning' &&
          e.message === "Node didn't have enough resource: cpu, requested: 100000, used: 0, capacity: 4000",
      ),
      events.map((e) => `${e.reason}: ${e.message}`).join('\n'),
    );
  });

  it('a main process that exits with code 0: Completed, restarted, then CrashLoopBackOff', async (t) => {
    const ns = await withNamespace(t, 'exit0');
    await createDeployment(ns, 'web', { replicas: 1, behaviour: { app: 'crash;exitCode=0;after=1' } });
    const looping = await waitUntil(
      async () => (await podsOf(ns)).find((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff'),
      { what: 'CrashLoopBackOff', timeoutMs: 60_000, intervalMs: 200 },
    );
    const cs = looping.status?.containerStatuses?.[0];
    assert.equal(cs?.lastState?.terminated?.exitCode, 0);
    assert.equal(cs?.lastState?.terminated?.reason, 'Completed');
    assert.ok((cs?.restartCount ?? 0) >= 1);
  });
});
