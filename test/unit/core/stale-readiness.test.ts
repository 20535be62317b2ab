/**
 * A status that still counts a deleted pod is not a success: the pods' watch and their owner's are
 * not ordered, and a controller counts again only after it has seen the deletion (hold.ts
 * `staleReadiness`). A crash-looping pod deleted and replaced, an eviction, a StatefulSet pod
 * recreated under its name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation } from '../../../src/core/index.js';
import { del, ofType, pod, run, running, statefulSetObject, T0, tick, up, verdictOf, waiting, workloadPod } from './builders.js';
import { doneAt2, newPod, rollingTo2 } from './scenario.js';

describe("a ReplicaSet status that still counts a deleted pod is not a success (the pods' and the ReplicaSet's watches are not ordered)", () => {
  const readyPods = (s: number) => [1, 2, 3].map((i) => newPod(`web-2-r${i}`, running(), s));
  const deleted = (s: number) => del('Pod', pod({ name: 'web-2-r1', rs: 'web-2' }), s);
  const replacement = (s: number, c = waiting('ContainerCreating', undefined)) => newPod('web-2-new', c, s);

  it('a Ready pod deleted and its replacement still creating: held while the status counts 3 Ready, then succeeds once the replacement is Ready', () => {
    const before = [
      ...rollingTo2({ image: 'nginx:1.19' }),
      { type: 'synced', at: T0 } as const,
      ...readyPods(1),
      deleted(2),
      replacement(2),
    ];
    const stale = run([...before, ...doneAt2(3, { pods: false }), tick(10)]);
    assert.equal(verdictOf(stale.events), undefined, 'no success on a count that includes the deleted pod');
    const held = ofType(stale.events, 'held').at(-1);
    assert.match(held?.message ?? '', /ReplicaSet web-2 counts 3 Ready pods, but 2 of its live pods are Ready/);
    const done = run([...before, ...doneAt2(3, { pods: false }), replacement(4, running()), tick(5)]);
    assert.equal(verdictOf(done.events)?.outcome, 'succeeded');
  });

  it('every Ready pod deleted and no replacement seen yet: held', () => {
    const obs: Observation[] = [...rollingTo2({ image: 'nginx:1.19' }), { type: 'synced', at: T0 }, ...readyPods(1)];
    for (const i of [1, 2, 3]) obs.push(del('Pod', pod({ name: `web-2-r${i}`, rs: 'web-2' }), 2));
    assert.equal(verdictOf(run([...obs, ...doneAt2(3, { pods: false }), tick(10)]).events), undefined);
  });
});

describe('a StatefulSet status that still counts a deleted pod is not a success', () => {
  const STS = { kind: 'StatefulSet' as const, name: 'db' };
  const done = statefulSetObject(
    'db',
    { replicas: 1 },
    { readyReplicas: 1, currentRevision: 'db-2', updateRevision: 'db-2', updatedReplicas: 1, currentReplicas: 1 },
  );
  const db0 = (o: { creating?: boolean } = {}) =>
    workloadPod('StatefulSet', 'db', {
      name: 'db-0',
      revision: 'db-2',
      ...(o.creating ? { containers: [waiting('ContainerCreating', undefined)], ready: false } : {}),
    });

  it('db-0 deleted and recreated under its name, still creating: held; succeeds once it is Ready', () => {
    const before: Observation[] = [
      up('Pod', db0(), 1),
      { type: 'synced', at: T0 + 1000 },
      del('Pod', db0(), 2),
      up('Pod', db0({ creating: true }), 2),
    ];
    const stale = run([...before, up('StatefulSet', done, 3), tick(10)], STS);
    assert.equal(verdictOf(stale.events), undefined);
    assert.match(ofType(stale.events, 'held').at(-1)?.message ?? '', /StatefulSet db counts 1 Ready pod, but 0 of its live pods are Ready/);
    const ok = run([...before, up('StatefulSet', done, 3), up('Pod', db0(), 4)], STS);
    assert.equal(verdictOf(ok.events)?.outcome, 'succeeded');
  });
});
