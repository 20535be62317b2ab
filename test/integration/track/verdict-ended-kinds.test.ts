/**
 * Pods that ended during the rollout of a StatefulSet and of a DaemonSet, on the real control
 * plane (their own controllers delete the ended pod and create it again): each pod evicted by the
 * simulated 1.20 kubelet for node memory pressure is shown once, as a note in its own words, never
 * holds success, and the rollout succeeds once the recreated pod is Ready. A Deployment's are in
 * `verdict-ended.test.ts`; a Job counts its own failures (`verdict-job.test.ts`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { RolloutEvent } from '../../../src/core/types.js';
import { type PrivateNode, startPrivateNode } from '../../helpers/private-node.js';
import { createDaemonSet, createStatefulSet } from '../../helpers/workloads.js';
import { assertStillRunning, clients, describeVerdict, eventSeen, namespaceFor, trace, waitUntil } from './helpers.js';

const podsOf = async (ns: string): Promise<V1Pod[]> => (await clients().core.listNamespacedPod({ namespace: ns })).items;
/** What the simulated 1.20 kubelet says of a pod it evicts for memory (pod-ending.ts `evictionMessage`). */
const EVICTED = /evicted: The node was low on resource: memory\. Container app was using 301Mi, which exceeds its request of 0\.$/;
/** Ready only 8 s after its start: the rollout is still under way when the running pod is evicted. */
const slowReady = { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 8 } };

/** Evicts the first running pod of `ns` on `node` (memory pressure for `pressureSeconds`), the trace still running; returns its name. */
async function evictRunning(ns: string, node: PrivateNode, events: RolloutEvent[], pressureSeconds: number): Promise<string> {
  const running = await waitUntil(async () => (await podsOf(ns)).find((p) => p.status?.containerStatuses?.some((c) => c.state?.running)), {
    what: 'a running pod',
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  assertStillRunning(events, 'the eviction');
  const name = running.metadata!.name!;
  await node.kubelet.evict(ns, name, { pressureSeconds });
  return name;
}

describe('pods that ended, per kind', { concurrency: true }, () => {
  it('a StatefulSet pod evicted mid-rollout: a note in its own words, SUCCEEDED once the recreated pod is Ready', async (t) => {
    const ns = await namespaceFor(t, 'sts-evict');
    const node = await startPrivateNode(t);
    await createStatefulSet(ns, 'db', { replicas: 2, podSpec: node.podSpec, container: slowReady });
    let evicted = '';
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 150 }, async (events) => {
      evicted = await evictRunning(ns, node, events, 2);
      await eventSeen(events, (e) => e.type === 'note' && e.object === `Pod/${evicted}`, 'the eviction note');
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(evicted, 'db-0', 'OrderedReady: db-1 waits for db-0, so db-0 is the pod that runs');
    const notes = r.of('note').filter((n) => n.object === 'Pod/db-0');
    assert.equal(notes.length, 1, `said once: ${JSON.stringify(r.of('note'))}`);
    assert.match(notes[0]!.message, new RegExp(`^pod db-0 ${EVICTED.source}`));
    assert.deepEqual(
      r.of('held').filter((h) => h.pods.includes('db-0') && /evicted|Failed/.test(h.message)),
      [],
      'the ended pod never held success',
    );
    assert.equal(r.verdict.replicas.ready, 2, 'db-0 recreated by the StatefulSet controller, and db-1 after it');
  });

  it('a DaemonSet pod evicted mid-rollout: a note in its own words, SUCCEEDED once the recreated pod is Ready', async (t) => {
    const ns = await namespaceFor(t, 'ds-evict');
    const node = await startPrivateNode(t);
    // Only on the test's own node: one desired pod, the one evicted.
    await createDaemonSet(ns, 'agent', { podSpec: node.podSpec, container: slowReady });
    let evicted = '';
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 150 }, async (events) => {
      evicted = await evictRunning(ns, node, events, 3);
      await eventSeen(events, (e) => e.type === 'note' && e.object === `Pod/${evicted}`, 'the eviction note');
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    const notes = r.of('note').filter((n) => n.object === `Pod/${evicted}`);
    assert.equal(notes.length, 1, `said once: ${JSON.stringify(r.of('note'))}`);
    assert.match(notes[0]!.message, new RegExp(`^pod ${evicted} ${EVICTED.source}`));
    assert.ok(!r.verdict.problems.some((p) => p.class === 'pods-ended'), 'one eviction is not pods-ended');
    const ready = (await podsOf(ns)).filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    assert.equal(ready.length, 1, 'the DaemonSet controller recreated the pod, and it runs');
    assert.notEqual(ready[0]?.metadata?.name, evicted, 'a new pod, not the evicted one');
  });
});
