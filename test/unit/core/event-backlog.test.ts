/**
 * A verdict before the Event backlog is listed (src/core/event-backlog.ts): with only the Events
 * replayed since a recent revision, a success is judged when the new ReplicaSet and each live new
 * pod are fresh (created after that revision), and nothing else is judged until the list is in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation } from '../../../src/core/index.js';
import { jobObject, pod, podEvent, run, running, statefulSetObject, T0, tick, up, verdictOf, waiting, workloadPod } from './builders.js';
import { doneAt2, newPod, rollingTo2 } from './scenario.js';

const at = (s: number) => T0 + s * 1000;
const backlog = (events: 'replayed' | 'missing' | 'listed', s: number): Observation => ({ type: 'event-backlog', at: at(s), events });
const synced = (s: number): Observation => ({ type: 'synced', at: at(s) });
const fresh = (uid: string, s: number): Observation => ({ type: 'fresh', at: at(s), uid });
const listed = (s: number) => backlog('listed', s);
/** As the source delivers a replayed snapshot: `replayed` first, the objects, then `synced`. */
const replayed = (objects: Observation[], s: number): Observation[] => [backlog('replayed', s), ...objects, synced(s)];
const PODS = ['web-2-aaa', 'web-2-bbb', 'web-2-ccc'];
const healthy = (s: number): Observation[] => [...PODS.map((n) => newPod(n, running(), s)), ...doneAt2(s, { pods: false })];
const allFresh = (s: number): Observation[] => [fresh('rs-web-2', s), ...PODS.map((n) => fresh(`pod-${n}`, s))];
const outcome = (obs: Observation[]) => verdictOf(run(obs).events)?.outcome;

describe('a success before the Event backlog is listed', () => {
  it('the new ReplicaSet and every live new pod fresh: succeeds at once', () => {
    assert.equal(outcome(replayed([...healthy(1), ...allFresh(1)], 1)), 'succeeded');
  });
  it('the proof may come after the replayed sync: succeeds when the last fresh arrives', () => {
    const before = [...replayed(healthy(1), 1), ...allFresh(2).slice(0, 3)];
    assert.equal(outcome(before), undefined);
    assert.equal(outcome([...before, fresh('pod-web-2-ccc', 2)]), 'succeeded');
  });
  it('one pod not fresh (created before the replay): waits for the list, then succeeds', () => {
    const obs = [...replayed([...healthy(1), ...allFresh(1).slice(0, 3)], 1), tick(30)];
    assert.equal(outcome(obs), undefined);
    assert.equal(outcome([...obs, listed(31)]), 'succeeded');
  });
  it('the new ReplicaSet not fresh (a rollback re-uses an old one): waits for the list', () => {
    const obs = replayed([...healthy(1), ...allFresh(1).slice(1)], 1);
    assert.equal(outcome(obs), undefined);
    assert.equal(outcome([...obs, listed(2)]), 'succeeded');
  });
  it('a backlog Liveness failure about an old pod holds the success the list brings', () => {
    const liveness = podEvent('web-2-aaa', 'Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 500', 1);
    const obs = [...replayed([...healthy(1), ...allFresh(1).slice(0, 3)], 1), liveness, listed(2)];
    const { events } = run(obs);
    assert.equal(verdictOf(events), undefined);
    assert.ok(
      events.some((e) => e.type === 'held'),
      'the success is held for the liveness failure',
    );
  });
  it('the replay broke before the list (missing): no success even with every object fresh', () => {
    const obs = [...replayed(healthy(1), 1), backlog('missing', 1.5), ...allFresh(2)];
    assert.equal(outcome(obs), undefined);
    assert.equal(outcome([...obs, listed(3)]), 'succeeded');
  });
  it('a live pod not fresh among fresh ones: waits', () => {
    const extra = newPod('web-2-ddd', running(), 1);
    assert.equal(outcome(replayed([...healthy(1), extra, ...allFresh(1)], 1)), undefined);
  });
  it('a fresh pod terminating is not needed; a live one is', () => {
    const p = pod({ name: 'web-2-ddd', rs: 'web-2', containers: [running()] });
    const terminating = up('Pod', { ...p, metadata: { ...p.metadata, deletionTimestamp: new Date(at(1)) } }, 1);
    assert.equal(outcome(replayed([...healthy(1), terminating, ...allFresh(1)], 1)), 'succeeded');
  });
});

describe('nothing but a proven success before the Event backlog is listed', () => {
  const pull = waiting('ErrImagePull', 'rpc error: code = NotFound desc = failed to resolve reference "nginx:nope": not found');
  const broken: Observation[] = replayed([...rollingTo2({ replicas: 3 }), ...PODS.map((n) => newPod(n, pull, 1)), ...allFresh(1)], 1);
  it('a failing problem past its window does not fail the rollout until the list is in', () => {
    assert.equal(outcome([...broken, tick(300)]), undefined);
    assert.equal(outcome([...broken, tick(300), listed(301)]), 'failed');
  });
  it('without a replay (a plain synced), the same problem fails as before', () => {
    const plain = [...rollingTo2({ replicas: 3 }), ...PODS.map((n) => newPod(n, pull, 1)), synced(1), tick(300)];
    assert.equal(outcome(plain), 'failed');
  });
  it('a timeout is a verdict whatever the backlog', () => {
    const obs = [...broken, { type: 'timeout', at: at(20), timeoutSeconds: 20 } as Observation];
    assert.equal(outcome(obs), 'timed-out');
  });
});

describe('the other kinds before the Event backlog is listed', () => {
  const STS = { kind: 'StatefulSet' as const, name: 'db' };
  const done = statefulSetObject(
    'db',
    { replicas: 2 },
    { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-1', updatedReplicas: 2, currentReplicas: 2 },
  );
  const stsPods = ['db-0', 'db-1'].map((name) => up('Pod', workloadPod('StatefulSet', 'db', { name, revision: 'db-1' }), 1));
  const stsOutcome = (obs: Observation[]) => verdictOf(run(obs, STS).events)?.outcome;

  it('a StatefulSet whose live pods are all fresh: succeeds at once', () => {
    const obs = replayed([...stsPods, up('StatefulSet', done, 1), fresh('pod-db-0', 1), fresh('pod-db-1', 1)], 1);
    assert.equal(stsOutcome(obs), 'succeeded');
  });
  it('a StatefulSet pod not fresh (created before the replay): waits for the list', () => {
    const obs = replayed([...stsPods, up('StatefulSet', done, 1), fresh('pod-db-1', 1)], 1);
    assert.equal(stsOutcome(obs), undefined);
    assert.equal(stsOutcome([...obs, listed(2)]), 'succeeded');
  });
  it("a StatefulSet with claim templates: waits for the list (a claim's Events are older than the change)", () => {
    const withClaims = statefulSetObject('db', { replicas: 2, volumeClaimTemplates: [{ metadata: { name: 'data' } }] }, done.status ?? {});
    const obs = replayed([...stsPods, up('StatefulSet', withClaims, 1), fresh('pod-db-0', 1), fresh('pod-db-1', 1)], 1);
    assert.equal(stsOutcome(obs), undefined);
  });

  const JOB = { kind: 'Job' as const, name: 'migrate' };
  const complete = jobObject(
    'migrate',
    { completions: 2, parallelism: 2 },
    { succeeded: 2, conditions: [{ type: 'Complete', status: 'True' }] as never },
  );
  const ended = ['migrate-a', 'migrate-b'].map((name) =>
    up('Pod', workloadPod('Job', 'migrate', { name, phase: 'Succeeded', ready: false }), 1),
  );
  const jobOutcome = (obs: Observation[]) => verdictOf(run(obs, JOB).events)?.outcome;

  it('a complete Job whose pods are all fresh: succeeds at once', () => {
    assert.equal(
      jobOutcome(replayed([...ended, up('Job', complete, 1), fresh('pod-migrate-a', 1), fresh('pod-migrate-b', 1)], 1)),
      'succeeded',
    );
  });
  it('a complete Job with an ended pod not fresh: waits for the list (its Events may say why a pod failed)', () => {
    const obs = replayed([...ended, up('Job', complete, 1), fresh('pod-migrate-a', 1)], 1);
    assert.equal(jobOutcome(obs), undefined);
    assert.equal(jobOutcome([...obs, listed(2)]), 'succeeded');
  });
});
