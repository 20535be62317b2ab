/**
 * Rollout scenarios from the kubespy articles, on the real control plane: first rollout, an
 * update's three phases, pod killed, pod relabeled, scale-only, rollback, superseded, deleted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import {
  assertStillRunning,
  clients,
  createDeployment,
  describeVerdict,
  editDeployment,
  eventSeen,
  namespaceFor,
  trace,
  updateDeployment,
  waitRolledOut,
} from './helpers.js';

const revisionOf = (d: { metadata?: { annotations?: Record<string, string> } }) =>
  d.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? '';

/** Replaces a pod's labels, retrying on 409 Conflict (the kubelet writes its status meanwhile). */
async function relabel(ns: string, name: string, labels: Record<string, string>): Promise<void> {
  const { core } = clients();
  for (let attempt = 0; ; attempt++) {
    const pod = await core.readNamespacedPod({ name, namespace: ns });
    pod.metadata!.labels = labels;
    try {
      await core.replaceNamespacedPod({ name, namespace: ns, body: pod });
      return;
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}

describe('rollout scenarios', { concurrency: true }, () => {
  it('first rollout: revision 1 succeeds with every pod ready', async (t) => {
    const ns = await namespaceFor(t, 'first');
    await createDeployment(ns, 'web', { replicas: 2 });
    const r = await trace(ns, 'web');
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(r.verdict.revision, '1');
    assert.equal(r.verdict.replicas.ready, 2);
    assert.equal(r.events[0]?.type, 'started');
    assert.equal(r.events.at(-1)?.type, 'verdict');
    assert.deepEqual(
      r.of('revision').map((e) => [e.revision, e.change]),
      [['1', 'initial']],
    );
    assert.ok(r.of('replicaset').some((e) => e.role === 'new' && e.revision === '1'));
    assert.ok(r.of('phase').some((e) => e.phase === 'complete'));
  });

  it('update to revision 2: new-replicaset, scaling-up, scaling-down-old, complete — in order', async (t) => {
    const ns = await namespaceFor(t, 'update');
    await createDeployment(ns, 'web', { replicas: 3 });
    const before = await waitRolledOut(ns, 'web');
    const updated = await updateDeployment(ns, 'web', { replicas: 3, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=2' } });
    const r = await trace(ns, 'web', { baselineRevision: revisionOf(before), minGeneration: updated.metadata?.generation });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(r.verdict.revision, '2');
    assert.ok(
      r.of('revision').some((e) => e.revision === '2' && e.change === 'new'),
      JSON.stringify(r.of('revision')),
    );
    const phases = r.of('phase').map((e) => e.phase);
    const order = ['new-replicaset', 'scaling-up', 'scaling-down-old', 'complete'] as const;
    const idx = order.map((p) => phases.indexOf(p));
    assert.ok(
      idx.every((i) => i >= 0),
      `all four phases in ${JSON.stringify(phases)}`,
    );
    assert.deepEqual(
      [...idx].sort((a, b) => a - b),
      idx,
      `phases in order: ${JSON.stringify(phases)}`,
    );
    assert.ok(
      r.of('replicaset').some((e) => e.role === 'old' && e.revision === '1'),
      'the old ReplicaSet is reported',
    );
  });

  it('pod killed: replaced by the ReplicaSet, no revision change', async (t) => {
    const ns = await namespaceFor(t, 'killed');
    await createDeployment(ns, 'web', { replicas: 2, behaviour: { app: 'slow-start;seconds=20' } });
    let victim = '';
    const r = await trace(ns, 'web', {}, async (events) => {
      const first = await eventSeen(events, (e) => e.type === 'pod', 'a pod event');
      victim = (first as Extract<RolloutEvent, { type: 'pod' }>).name;
      assertStillRunning(events, 'the pod was deleted');
      await clients().core.deleteNamespacedPod({ name: victim, namespace: ns, gracePeriodSeconds: 0 });
    });
    t.diagnostic(`killed ${victim}: ${describeVerdict(r)}`);
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.ok(
      r.of('pod-deleted').some((e) => e.name === victim),
      `pod-deleted for ${victim}`,
    );
    const podNames = new Set(r.of('pod').map((e) => e.name));
    assert.ok(podNames.size >= 3, `a replacement pod appeared: ${[...podNames].join(', ')}`);
    assert.deepEqual(
      r.of('revision').map((e) => e.change),
      ['initial'],
      'no revision change',
    );
    assert.equal(r.verdict.revision, '1');
  });

  it('pod relabeled: orphaned from its ReplicaSet, which replaces it', async (t) => {
    const ns = await namespaceFor(t, 'relabel');
    await createDeployment(ns, 'web', { replicas: 2, behaviour: { app: 'slow-start;seconds=20' } });
    let stray = '';
    const r = await trace(ns, 'web', {}, async (events) => {
      const first = await eventSeen(events, (e) => e.type === 'pod', 'a pod event');
      stray = (first as Extract<RolloutEvent, { type: 'pod' }>).name;
      assertStillRunning(events, 'the pod was relabeled');
      await relabel(ns, stray, { app: 'debugging' });
    });
    t.diagnostic(`relabeled ${stray}: ${describeVerdict(r)}`);
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.ok(
      r.of('pod-orphaned').some((e) => e.name === stray),
      `pod-orphaned for ${stray}: ${JSON.stringify(r.of('pod-orphaned'))}`,
    );
    assert.ok(!r.of('pod-deleted').some((e) => e.name === stray), 'an orphaned pod is not reported as deleted');
    assert.deepEqual(
      r.of('revision').map((e) => e.change),
      ['initial'],
    );
  });

  it('scale-only change: no new revision, waits for the new replicas', async (t) => {
    const ns = await namespaceFor(t, 'scale');
    await createDeployment(ns, 'web', { replicas: 1 });
    const before = await waitRolledOut(ns, 'web');
    const scaled = await editDeployment(ns, 'web', (d) => {
      d.spec!.replicas = 3;
    });
    const r = await trace(ns, 'web', { baselineRevision: revisionOf(before), minGeneration: scaled.metadata?.generation });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(r.verdict.revision, '1');
    assert.equal(r.verdict.replicas.ready, 3);
    assert.ok(!r.of('revision').some((e) => e.change === 'new'), 'no new revision');
  });

  it('rollback: restoring the old template is reported as a rollback and succeeds', async (t) => {
    const ns = await namespaceFor(t, 'rollback');
    await createDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.19' });
    await waitRolledOut(ns, 'web');
    await updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.20' });
    const rev2 = await waitRolledOut(ns, 'web');
    // `kubectl rollout undo` = put revision 1's template back.
    const undone = await updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.19' });
    const r = await trace(ns, 'web', { baselineRevision: revisionOf(rev2), minGeneration: undone.metadata?.generation });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(r.verdict.revision, '3');
    assert.ok(
      r.of('revision').some((e) => e.revision === '3' && e.change === 'rollback' && e.restores === '1'),
      JSON.stringify(r.of('revision')),
    );
  });

  it('superseded: a newer revision replaces the one being rolled out', async (t) => {
    const ns = await namespaceFor(t, 'superseded');
    await createDeployment(ns, 'web', { replicas: 2 });
    const rev1 = await waitRolledOut(ns, 'web');
    const slow = await updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=60' } });
    const r = await trace(ns, 'web', { baselineRevision: revisionOf(rev1), minGeneration: slow.metadata?.generation }, async (events) => {
      await eventSeen(events, (e) => e.type === 'revision' && e.revision === '2', 'revision 2 seen');
      await updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.21' });
    });
    t.diagnostic(describeVerdict(r));
    assert.ok(
      r.of('superseded').some((e) => e.revision === '2' && e.by === '3'),
      JSON.stringify(r.of('superseded')),
    );
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(r.verdict.revision, '3');
  });

  it('Deployment deleted mid-rollout: fails at once', async (t) => {
    const ns = await namespaceFor(t, 'deleted');
    await createDeployment(ns, 'web', { replicas: 2, behaviour: { app: 'slow-start;seconds=60' } });
    let deletedAt = 0;
    const r = await trace(ns, 'web', {}, async (events) => {
      await eventSeen(events, (e) => e.type === 'pod', 'a pod event');
      deletedAt = Date.now();
      await clients().apps.deleteNamespacedDeployment({ name: 'web', namespace: ns });
    });
    const ms = r.verdict.finishedAt - deletedAt;
    t.diagnostic(`deleted: verdict ${ms} ms after the delete (${describeVerdict(r)})`);
    assert.equal(r.verdict.outcome, 'failed');
    assert.equal(r.verdict.problems[0]?.class, 'workload-deleted');
    assert.ok(ms < 5000, `verdict ${ms} ms after the delete`);
  });
});
