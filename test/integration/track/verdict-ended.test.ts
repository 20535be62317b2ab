/**
 * Pods that ended, on the real control plane (the real ReplicaSet controller replaces them):
 * - a pod evicted the way a 1.28+ kubelet writes it (Failed/Evicted, DisruptionTarget, its
 *   container `ContainerStatusUnknown` with exit code 137), on a Node with no kubelet whose pod
 *   statuses the test writes by hand, the replacement Ready: SUCCEEDED with the eviction as a note;
 * - a pod evicted by the simulated 1.20 kubelet (node memory pressure): SUCCEEDED once the
 *   replacement is Ready, with the note;
 * - replacements bound by `spec.nodeName` to a node under memory pressure, refused one after
 *   another by its eviction manager ("The node had condition: [MemoryPressure]"): SUCCEEDED once
 *   the pressure ends, never `pods-ended`, the first refusal said whole, the others counted, not listed;
 * - a rolling update of pods bound by `spec.nodeName` to a full node: the new pods are rejected
 *   (`OutOfcpu`) until an old pod has terminated: SUCCEEDED, never `pods-ended`;
 * - replacements rejected at admission one after another (`OutOfcpu`, a pod bound by
 *   `spec.nodeName` that cannot fit): FAILED `pods-ended` within seconds, where the controller
 *   would recreate them for ever;
 * - a main process that exits with code 0 under `restartPolicy: Always`: FAILED `crash-loop`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { RolloutEvent } from '../../../src/core/types.js';
import { evicted128, running129 } from '../../fixtures/modern-pods.js';
import { startBareNode } from '../../helpers/bare-node.js';
import { type PrivateNode, startPrivateNode } from '../../helpers/private-node.js';
import {
  assertStillRunning,
  clients,
  createDeployment,
  describeVerdict,
  editDeployment,
  eventSeen,
  namespaceFor,
  trace,
  waitRolledOut,
  waitUntil,
} from './helpers.js';

const podsOf = async (ns: string): Promise<V1Pod[]> => (await clients().core.listNamespacedPod({ namespace: ns })).items;
/** Evicts the first running pod of `ns` for node memory pressure lasting `pressureSeconds`, the rollout still under way. */
async function evictRunningPod(ns: string, node: PrivateNode, events: RolloutEvent[], pressureSeconds: number): Promise<void> {
  const running = await waitUntil(async () => (await podsOf(ns)).find((p) => p.status?.containerStatuses?.some((c) => c.state?.running)), {
    what: 'a running pod',
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  assertStillRunning(events, 'the eviction');
  await node.kubelet.evict(ns, running.metadata!.name!, { pressureSeconds });
}
const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('pods that ended', { concurrency: true }, () => {
  it('evicted as a 1.28 kubelet writes it, the replacement Ready: SUCCEEDED with a note, no hold', async (t) => {
    const ns = await namespaceFor(t, 'evict128');
    const node = await startBareNode(t);
    await createDeployment(ns, 'web', { replicas: 3, podSpec: node.podSpec });
    const written = new Set<string>();
    /** The bare node's "kubelet": every pod bound to it runs and is Ready, once. */
    const runBound = async (most: number) => {
      for (const p of await podsOf(ns)) {
        if (written.size >= most) return;
        const name = p.metadata?.name ?? '';
        if (p.spec?.nodeName !== node.name || written.has(name) || p.status?.phase === 'Failed') continue;
        written.add(name);
        await node.writeStatus(ns, name, running129(p, isoNow(), `10.250.0.${written.size + 1}`));
      }
    };
    const r = await trace(ns, 'web', { timeoutSeconds: 45 }, async (events) => {
      // Two of three pods run; the rollout is not complete when one of them is evicted.
      await waitUntil(async () => (await runBound(2), written.size >= 2), { what: 'two pods running', timeoutMs: 20_000 });
      const victim = (await podsOf(ns)).find((p) => written.has(p.metadata?.name ?? '')) as V1Pod;
      await node.writeStatus(ns, victim.metadata!.name!, evicted128(victim, isoNow()).status as Record<string, unknown>);
      await eventSeen(events, (e) => e.type === 'note', 'the eviction note');
      await waitUntil(async () => (await runBound(4), written.size >= 4), {
        what: 'the third pod and the replacement running',
        timeoutMs: 20_000,
      });
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    // A loaded machine may show the ReplicaSet still counting the evicted pod Ready for a moment:
    // that hold names no pod ("a pod it counted was deleted or is no longer Ready"). A hold for the
    // evicted pod itself would name it.
    const holds = r.of('held');
    assert.deepEqual(
      holds.filter((h) => h.pods.length > 0 || !/a pod it counted was deleted or is no longer Ready/.test(h.message)),
      [],
      'the evicted pod held success',
    );
    const note = r.of('note')[0];
    assert.match(note?.message ?? '', /^pod web-\S+ evicted: The node was low on resource: memory\. Threshold quantity: 100Mi/);
    assert.match(note?.message ?? '', /\(DisruptionTarget: TerminationByKubelet\)$/);
  });

  it('evicted by the simulated 1.20 kubelet for node memory pressure: SUCCEEDED once the replacement is Ready', async (t) => {
    const ns = await namespaceFor(t, 'evict120');
    const node = await startPrivateNode(t);
    // Ready 15 s after start: the rollout is under way when a running pod is evicted.
    await createDeployment(ns, 'web', {
      replicas: 2,
      podSpec: node.podSpec,
      container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 15 } },
    });
    const r = await trace(ns, 'web', { timeoutSeconds: 90 }, async (events) => {
      await evictRunningPod(ns, node, events, 2);
      await eventSeen(events, (e) => e.type === 'note', 'the eviction note');
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.match(
      r.of('note')[0]?.message ?? '',
      /^pod web-\S+ evicted: The node was low on resource: memory\. Container app was using 301Mi, which exceeds its request of 0\.$/,
    );
    const pods = await podsOf(ns);
    const evicted = pods.filter((p) => p.status?.reason === 'Evicted' && /^The node was low on resource/.test(p.status?.message ?? ''));
    assert.equal(evicted.length, 1, 'the evicted pod is kept, as a real cluster keeps it');
  });

  it('replacements refused while their node reports memory pressure: SUCCEEDED once it ends, never pods-ended', async (t) => {
    const ns = await namespaceFor(t, 'pressure');
    const node = await startPrivateNode(t);
    // Bound by nodeName, the replacements skip the scheduler (and the node's pressure taint): the
    // kubelet refuses each, and the ReplicaSet controller creates the next at once.
    await createDeployment(ns, 'web', {
      replicas: 1,
      podSpec: { nodeName: node.name, tolerations: node.podSpec.tolerations },
      container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5 } },
    });
    const r = await trace(ns, 'web', { timeoutSeconds: 90 }, async (events) => {
      await evictRunningPod(ns, node, events, 6);
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    const refused = (await podsOf(ns)).filter((p) => p.status?.message === 'Pod The node had condition: [MemoryPressure]. ');
    assert.ok(refused.length >= 3, `${refused.length} replacements refused: the edge needs more than pods-ended tolerates`);
    const notes = r.of('note').filter((n) => /while the node reported pressure \(Evicted\)/.test(n.message));
    assert.equal(notes.length, 1, 'the refusals are said once');
    const counted = r.of('note').find((n) => /more pods? (was|were) refused by the kubelet/.test(n.message));
    assert.match(counted?.message ?? '', new RegExp(`^${refused.length - 1} more pods were refused by the kubelet of node ${node.name} `));
    const rows = new Set(r.of('pod').map((e) => e.name));
    assert.ok(rows.size <= 3, `pod rows for ${[...rows].join(', ')}: the evicted pod, the first refused, the one that runs`);
    assert.match(
      notes[0]!.message,
      /^pod web-\S+ rejected by the kubelet of node t-\w+-1 while the node reported pressure \(Evicted\): Pod The node had condition: \[MemoryPressure\]\.$/,
    );
  });

  it('a rolling update of pods bound by nodeName, rejected (OutOfcpu) until an old pod has terminated: SUCCEEDED', async (t) => {
    const ns = await namespaceFor(t, 'pinned-roll');
    const node = await startPrivateNode(t);
    // Two pods of 2 CPUs fill the node's 4: each new pod fits only once an old one is gone, and the
    // kubelet counts a terminating pod's requests until then.
    await createDeployment(ns, 'web', {
      replicas: 2,
      podSpec: { nodeName: node.name, tolerations: node.podSpec.tolerations },
      container: { resources: { requests: { cpu: '2' } } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
    });
    await waitRolledOut(ns, 'web');
    const updated = await editDeployment(ns, 'web', (d) => {
      d.spec!.template.spec!.containers[0]!.image = 'nginx:1.20';
    });
    const r = await trace(ns, 'web', { timeoutSeconds: 90, minGeneration: updated.metadata?.generation ?? 0 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    const rejected = (await podsOf(ns)).filter((p) => p.status?.reason === 'OutOfcpu');
    assert.ok(rejected.length >= 2, `${rejected.length} pods rejected while the old pods terminated`);
    assert.match(
      r.of('note')[0]?.message ?? '',
      /^pod web-\S+ rejected by the kubelet of node t-\w+-1 \(OutOfcpu\) while pods of this workload there were still terminating: Pod Node didn't have enough resource: cpu/,
    );
  });

  it('replacements rejected at admission (OutOfcpu) one after another: FAILED pods-ended within seconds', async (t) => {
    const ns = await namespaceFor(t, 'outofcpu');
    const node = await startPrivateNode(t);
    await createDeployment(ns, 'web', {
      replicas: 1,
      podSpec: { nodeName: node.name, tolerations: node.podSpec.tolerations },
      container: { resources: { requests: { cpu: '100' } } },
    });
    const r = await trace(ns, 'web', { timeoutSeconds: 60 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'pods-ended');
    assert.equal(p?.reason, 'OutOfcpu');
    // How many the trace saw depends on when its first lists came: at least the pod and 2 replacements.
    const replacements = Number(
      /(\d+) of them replacements of pods that had ended: the pod does not fit where it is scheduled/.exec(p?.explanation ?? '')?.[1],
    );
    assert.ok(replacements >= 2, p?.explanation);
    assert.match(
      p?.explanation ?? '',
      /rejected by the kubelet of node t-\w+-1 \(OutOfcpu\): Pod Node didn't have enough resource: cpu, requested: 100000/,
    );
    assert.ok(r.ms < 30_000, `the verdict took ${r.ms} ms`);
  });

  it('a main process that exits with code 0 under restartPolicy Always: FAILED crash-loop, said as a normal exit', async (t) => {
    const ns = await namespaceFor(t, 'exit0');
    // A readiness probe that would pass at 3 s: the process ends at 1 s, never Ready in between.
    await createDeployment(ns, 'web', {
      replicas: 1,
      behaviour: { app: 'crash;exitCode=0;after=1' },
      container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 3 } },
    });
    const r = await trace(ns, 'web', { timeoutSeconds: 120 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
    assert.equal(r.verdict.problems[0]?.class, 'crash-loop');
    assert.equal(r.verdict.problems[0]?.exitCode, 0);
    assert.match(r.verdict.problems[0]?.explanation ?? '', /main process exited with code 0 \(it ended normally\)/);
  });
});
