/**
 * Pods a StatefulSet's, DaemonSet's or Job's controller cannot create: their FailedCreate Events
 * (quota, Pod Security admission, LimitRange) are a `replica-failure` on the workload, as a
 * ReplicaSet's are for a Deployment, while the controller lacks pods and no SuccessfulCreate came
 * since. A Job's quota refusal waits: its own pods free the quota as they end.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, TrackTarget } from '../../../src/core/index.js';
import {
  daemonSetObject,
  del,
  event,
  iso,
  jobObject,
  ofType,
  pod,
  replicaSet,
  run,
  running,
  statefulSetObject,
  T0,
  tick,
  up,
  verdictOf,
  workloadPod,
} from './builders.js';
import { rollingTo2, UPDATE } from './scenario.js';

const STS: Partial<TrackTarget> = { kind: 'StatefulSet', name: 'db' };
const DS: Partial<TrackTarget> = { kind: 'DaemonSet', name: 'agent' };
const JOB: Partial<TrackTarget> = { kind: 'Job', name: 'migrate' };
const quota = (pod: string) => `pods "${pod}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1`;
const psa =
  'pods "agent-x7k2p" is forbidden: violates PodSecurity "restricted:latest": privileged (container "agent" must not set privileged=true)';

const created = (kind: string, name: string, message: string, s: number): Observation =>
  up('Event', event({ kind, name, reason: 'SuccessfulCreate', message, type: 'Normal', at: s }), s);
const failedCreate = (kind: string, name: string, message: string, s: number): Observation =>
  up('Event', event({ kind, name, reason: 'FailedCreate', message, at: s }), s);

/** StatefulSet db of 2 replicas whose db-0 runs and Ready. */
const stsWithOnePod = (): Observation[] => [
  up('StatefulSet', statefulSetObject('db', { replicas: 2 }, { readyReplicas: 1, currentRevision: 'db-1', updateRevision: 'db-1' }), 1),
  up('Pod', workloadPod('StatefulSet', 'db', { name: 'db-0', revision: 'db-1' }), 1),
  { type: 'synced', at: T0 + 1000 },
];

describe('pods a workload controller cannot create', () => {
  it('StatefulSet: the pod and the quota are named, and the rollout fails after the replica-failure window', () => {
    const refused = failedCreate('StatefulSet', 'db', `create Pod db-1 in StatefulSet db failed error: ${quota('db-1')}`, 2);
    const early = run([...stsWithOnePod(), refused, tick(5)], STS);
    const problem = ofType(early.events, 'problem').find((e) => e.problem.class === 'replica-failure');
    assert.deepEqual(problem?.problem.object, { kind: 'StatefulSet', name: 'db' });
    assert.equal(problem.problem.explanation, `pod db-1 cannot be created: ${quota('db-1')}`);
    assert.ok(problem.failsAt !== undefined, 'it has a window');
    assert.equal(verdictOf(early.events), undefined, 'not before its window');
    const v = verdictOf(run([...stsWithOnePod(), refused, tick(5), tick(13)], STS).events);
    assert.equal(v?.outcome, 'failed');
    assert.match(v.summary, /^statefulset db: pod db-1 cannot be created: pods "db-1" is forbidden: exceeded quota/);
  });

  it("StatefulSet: another workload's pod terminating (the namespace's list) makes its quota refusal wait", () => {
    const refused = failedCreate('StatefulSet', 'db', `create Pod db-1 in StatefulSet db failed error: ${quota('db-1')}`, 2);
    const list: Observation = {
      type: 'terminating-pods',
      at: T0 + 3000,
      pods: [{ name: 'cache-0', deletionTimestamp: iso(30), phase: 'Running' }],
    };
    const { events } = run([...stsWithOnePod(), refused, list, tick(60), { ...list, at: T0 + 61_000, pods: [] }], STS);
    assert.equal(ofType(events, 'problem').at(-1)?.problem.transient, true);
    assert.equal(verdictOf(events), undefined, 'not after 10 s: cache-0 frees the quota 30 s in');
  });

  it('StatefulSet: a claim it cannot create is named as a claim', () => {
    const refused = failedCreate(
      'StatefulSet',
      'db',
      'create Claim data-db-1 for Pod db-1 in StatefulSet db failed error: persistentvolumeclaims "data-db-1" is forbidden: exceeded quota: storage',
      2,
    );
    const problem = ofType(run([...stsWithOnePod(), refused], STS).events, 'problem')[0];
    assert.match(problem?.problem.explanation ?? '', /^claim data-db-1 cannot be created: persistentvolumeclaims "data-db-1" is forbidden/);
  });

  it('StatefulSet: nothing once a SuccessfulCreate came after it, or while it has all its pods', () => {
    const refused = failedCreate('StatefulSet', 'db', `create Pod db-1 in StatefulSet db failed error: ${quota('db-1')}`, 2);
    const since = run(
      [...stsWithOnePod(), refused, created('StatefulSet', 'db', 'create Pod db-1 in StatefulSet db successful', 3), tick(20)],
      STS,
    );
    assert.deepEqual(
      Object.values(since.state.problems).map((p) => p.class),
      [],
      'cleared by the SuccessfulCreate since',
    );
    assert.equal(verdictOf(since.events), undefined);
    const full = [
      ...stsWithOnePod(),
      up(
        'Pod',
        workloadPod('StatefulSet', 'db', { name: 'db-1', revision: 'db-1', ready: false, containers: [running('app', { ready: false })] }),
        2,
      ),
    ];
    const whole = run([...full, refused, tick(20)], STS);
    assert.deepEqual(ofType(whole.events, 'problem'), [], 'an older refusal while every pod exists is history');
  });

  it('DaemonSet: a Pod Security refusal fails the rollout', () => {
    const ds = daemonSetObject('agent', {
      desiredNumberScheduled: 2,
      currentNumberScheduled: 0,
      updatedNumberScheduled: 0,
      numberReady: 0,
    });
    const v = verdictOf(
      run(
        [
          up('DaemonSet', ds, 1),
          { type: 'synced', at: T0 + 1000 },
          failedCreate('DaemonSet', 'agent', `Error creating: ${psa}`, 2),
          tick(13),
        ],
        DS,
      ).events,
    );
    assert.equal(v?.outcome, 'failed');
    assert.equal(v.problems[0]?.class, 'replica-failure');
    assert.equal(v.problems[0]?.explanation, `pods cannot be created: ${psa}`);
  });

  it('DaemonSet: a refusal while its controller never wrote a status (it writes none while its creates fail)', () => {
    const ds = daemonSetObject('agent', { observedGeneration: undefined, desiredNumberScheduled: 0 });
    const running = up('Pod', workloadPod('DaemonSet', 'agent', { name: 'agent-a', revision: '1' }), 1);
    const refused = failedCreate('DaemonSet', 'agent', `Error creating: ${quota('agent-b')}`, 2);
    const v = verdictOf(run([up('DaemonSet', ds, 1), running, { type: 'synced', at: T0 + 1000 }, refused, tick(13)], DS).events);
    assert.equal(v?.outcome, 'failed');
    assert.match(v.summary, /pods cannot be created: pods "agent-b" is forbidden: exceeded quota/);
  });

  it('Job: a quota refusal is reported and waits; a Pod Security refusal fails', () => {
    const job = jobObject('migrate', { completions: 2, parallelism: 2 }, { active: 1 });
    const pod = up('Pod', workloadPod('Job', 'migrate', { name: 'migrate-a' }), 1);
    const waits = run(
      [
        up('Job', job, 1),
        pod,
        { type: 'synced', at: T0 + 1000 },
        failedCreate('Job', 'migrate', `Error creating: ${quota('migrate-b')}`, 2),
        tick(200),
      ],
      JOB,
    );
    const reported = ofType(waits.events, 'problem').find((e) => e.problem.class === 'replica-failure');
    assert.ok(reported, 'reported');
    assert.equal(reported.failsAt, undefined, 'no window: its own pods free the quota as they end');
    assert.equal(verdictOf(waits.events), undefined);
    const none = jobObject('migrate', { completions: 1, parallelism: 1 }, {});
    const refused = failedCreate('Job', 'migrate', `Error creating: ${psa.replaceAll('agent', 'migrate')}`, 2);
    const v = verdictOf(run([up('Job', none, 1), { type: 'synced', at: T0 + 1000 }, refused, tick(13)], JOB).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v.problems[0]?.class, 'replica-failure');
  });

  for (const error of ['Internal error occurred: resource quota evaluation timed out', 'pods "db-1" already exists']) {
    it(`a create the controller retries is transient, at least 120 s: ${error}`, () => {
      const refused = failedCreate('StatefulSet', 'db', `create Pod db-1 in StatefulSet db failed error: ${error}`, 2);
      const { events } = run([...stsWithOnePod(), refused, tick(60)], STS);
      const problem = ofType(events, 'problem').find((e) => e.problem.class === 'replica-failure');
      assert.equal(problem?.problem.transient, true);
      assert.match(problem.problem.explanation, /cannot be created yet \(the API server failed the request; the controller retries it\)/);
      assert.equal(verdictOf(events), undefined);
    });
  }
});

describe('a quota that pods being removed still hold', () => {
  const refusal = quota('web-2-x');
  /** Revision 2 rolling out: its ReplicaSet cannot create its surge pod, refused by the quota. */
  const refused = (s: number): Observation[] => [
    up(
      'ReplicaSet',
      replicaSet({
        name: 'web-2',
        revision: '2',
        replicas: 1,
        ready: 0,
        statusReplicas: 0,
        failure: { reason: 'FailedCreate', message: refusal },
      }),
      s,
    ),
    up('Event', event({ kind: 'ReplicaSet', name: 'web-2', reason: 'FailedCreate', message: `Error creating: ${refusal}`, at: s }), s),
  ];
  const terminating = (s: number) => up('Pod', pod({ name: 'web-1-a', rs: 'web-1', deleting: true }), s);

  it('waits at least 120 s while an old pod terminates, and still after it is gone, until the retry', () => {
    const obs = [
      ...rollingTo2(),
      terminating(1),
      ...refused(2),
      tick(15),
      del('Pod', pod({ name: 'web-1-a', rs: 'web-1', deleting: true }), 20),
      tick(60),
    ];
    const { events } = run(obs, UPDATE);
    const p = ofType(events, 'problem')
      .filter((e) => e.problem.class === 'replica-failure')
      .at(-1);
    assert.equal(p?.problem.transient, true);
    assert.equal(verdictOf(events), undefined, 'not after 10 s: the quota frees as the old pod goes');
    assert.equal(verdictOf(run([...obs, tick(125)], UPDATE).events)?.outcome, 'failed', 'still refused after 120 s');
  });

  it('a long grace period: waits until the retry after the old pod is due to be gone (retry delays double)', () => {
    // Its grace period ends 200 s in, the refusals began 2 s in: the retry is due by 200 + 198 + 30 s.
    const old = pod({ name: 'web-1-a', rs: 'web-1', deleting: 200 });
    const obs = [...rollingTo2(), up('Pod', old, 1), ...refused(2), tick(150), del('Pod', old, 205), tick(300)];
    const { events } = run(obs, UPDATE);
    const p = ofType(events, 'problem')
      .filter((e) => e.problem.class === 'replica-failure')
      .at(-1);
    assert.equal(p?.problem.retryBy, T0 + 428_000);
    assert.equal(verdictOf(events), undefined, 'not at 122 s: the old pod holds the quota for 200 s');
    assert.equal(verdictOf(run([...obs, tick(420)], UPDATE).events), undefined, 'the retry may come up to 428 s in');
    assert.equal(verdictOf(run([...obs, tick(429)], UPDATE).events)?.outcome, 'failed', 'still refused after the retry was due');
  });

  it('refusals that began before the trace: the retry is due as long after the pods go as they had lasted', () => {
    const refusedEarly: Observation[] = refused(2).map((o, i) =>
      i === 1
        ? up(
            'Event',
            event({ kind: 'ReplicaSet', name: 'web-2', reason: 'FailedCreate', message: `Error creating: ${quota('web-2-x')}`, at: -100 }),
            2,
          )
        : o,
    );
    const old = pod({ name: 'web-1-a', rs: 'web-1', deleting: 200 });
    const { events } = run([...rollingTo2(), up('Pod', old, 1), ...refusedEarly, tick(500)], UPDATE);
    const p = ofType(events, 'problem')
      .filter((e) => e.problem.class === 'replica-failure')
      .at(-1);
    assert.equal(p?.problem.retryBy, T0 + 530_000, '200 + 300 + 30 s');
    assert.equal(verdictOf(events), undefined);
  });

  /** The tracker's list of the namespace's terminating pods at `s`: name -> when due to be gone (s). */
  const listed = (s: number, pods: Record<string, number> = {}): Observation => ({
    type: 'terminating-pods',
    at: T0 + s * 1000,
    pods: Object.entries(pods).map(([name, due]) => ({ name, deletionTimestamp: iso(due), phase: 'Running' })),
  });

  it("another workload's pods terminating (the namespace's list): waits until the retry after they are gone", () => {
    // A Deployment deleted to be replaced: its pod holds the quota until 80 s in; refusals from 2 s.
    const obs = [...rollingTo2(), ...refused(2), listed(3, { 'old-web-a': 80 }), tick(15), tick(150), listed(151)];
    const { events } = run(obs, UPDATE);
    const p = ofType(events, 'problem')
      .filter((e) => e.problem.class === 'replica-failure')
      .at(-1);
    assert.equal(p?.problem.transient, true);
    assert.equal(p.problem.retryBy, T0 + 188_000, '80 + 78 + 30 s');
    assert.equal(verdictOf(events), undefined, 'not after 10 s: the quota frees as that pod goes');
    assert.equal(verdictOf(run([...obs, tick(187)], UPDATE).events), undefined, 'the retry may come up to 188 s in');
    assert.equal(verdictOf(run([...obs, tick(189)], UPDATE).events), undefined, 'no list since the retry was due');
    assert.equal(verdictOf(run([...obs, tick(189), listed(190)], UPDATE).events)?.outcome, 'failed', 'refused after the retry');
    const ended = [...rollingTo2(), ...refused(2), listed(3), tick(15)];
    assert.equal(verdictOf(run([...ended, listed(14)], UPDATE).events)?.outcome, 'failed', 'none terminating: 10 s');
  });

  it('a refusal the lists found no terminating pod for fails on a list taken after its window, or 10 s after it', () => {
    const before = [...rollingTo2(), ...refused(2), listed(3), tick(13)];
    assert.equal(verdictOf(run(before, UPDATE).events), undefined, 'its window ended at 12 s, the last list was at 3 s');
    const v = verdictOf(run([...before, listed(14)], UPDATE).events);
    assert.equal(v?.outcome, 'failed', 'a list at 14 s finds none');
    assert.equal(v.finishedAt, T0 + 14_000);
    const began = verdictOf(run([...before, listed(14, { 'api-b': 44 }), tick(30)], UPDATE).events);
    assert.equal(began, undefined, 'a pod that began terminating at 11 s frees the quota');
    assert.equal(verdictOf(run([...before, tick(21)], UPDATE).events), undefined);
    assert.equal(verdictOf(run([...before, tick(23)], UPDATE).events)?.outcome, 'failed', 'no list for 10 s: decided without it');
    const done = [...rollingTo2(), ...refused(2), listed(3, { 'job-x': 20 }), tick(13)];
    const endedPod = { ...listed(14, { 'job-x': 20 }), pods: [{ name: 'job-x', deletionTimestamp: iso(20), phase: 'Succeeded' }] };
    assert.equal(verdictOf(run([...done, endedPod], UPDATE).events), undefined, 'transient since 3 s: 120 s at least');
  });

  it('with no pod terminating (maxUnavailable 0: the old pods wait for the new one), fails after 10 s', () => {
    const v = verdictOf(run([...rollingTo2(), ...refused(2), tick(13)], UPDATE).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v.problems[0]?.transient, undefined);
  });
});
