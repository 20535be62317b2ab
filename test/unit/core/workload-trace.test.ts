/**
 * The reducer on StatefulSets, DaemonSets and Jobs: each kind's rule decides success, the current
 * template's pods are diagnosed like a Deployment's, and each kind's own problems (a blocked
 * rollout, a failed Job and its failed pods, OrderedReady waits, nodes a DaemonSet skips).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  daemonSetObject,
  event,
  failedJobObject,
  failedJobPod,
  jobObject,
  ofType,
  podEvent,
  run,
  statefulSetObject,
  T0,
  terminatedLast,
  tick,
  up,
  verdictOf,
  waiting,
  workloadPod,
} from './builders.js';

const STS = { kind: 'StatefulSet' as const, name: 'db' };
const JOB = { kind: 'Job' as const, name: 'migrate' };
const DS = { kind: 'DaemonSet' as const, name: 'agent' };

describe('Jobs', () => {
  it('a failed pod is reported while the Job retries; Failed fails with job-failed then each pod exit code', () => {
    const running = jobObject('migrate', { backoffLimit: 1 }, { active: 1, failed: 1 });
    const failed = failedJobObject('migrate', { backoffLimit: 1 }, 2);
    const early = run(
      [up('Job', running, 1), { type: 'synced', at: T0 + 1000 }, up('Pod', failedJobPod('migrate-a', 3, 'no table'), 2), tick(3)],
      JOB,
    );
    assert.equal(verdictOf(early.events), undefined, 'no verdict while the Job retries');
    const reported = ofType(early.events, 'problem').find((e) => e.problem.class === 'job-pod-failed');
    assert.equal(reported?.problem.exitCode, 3);
    assert.equal(reported?.problem.terminationMessage, 'no table');
    assert.equal(reported?.failsAt, undefined);
    assert.ok(early.events.every((e) => e.kind === 'Job'));
    const { events } = run(
      [
        up('Job', running, 1),
        { type: 'synced', at: T0 + 1000 },
        up('Pod', failedJobPod('migrate-a', 3, 'no table'), 2),
        up('Pod', failedJobPod('migrate-b', 3, 'no table'), 4),
        up('Job', failed, 5),
      ],
      JOB,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.kind, 'Job');
    assert.deepEqual(
      v?.problems.map((p) => `${p.class} ${p.object.name} ${p.exitCode ?? ''}`),
      ['job-failed migrate ', 'job-pod-failed migrate-a 3', 'job-pod-failed migrate-b 3'],
    );
    assert.equal(v?.problems[0]?.reason, 'BackoffLimitExceeded');
    assert.equal(
      ofType(events, 'progress').at(-1)?.message,
      'job "migrate" failed (BackoffLimitExceeded): 0/1 succeeded, 0 running, 2 failed',
      "the progress line names the Job's failure (not the condition's bare message)",
    );
  });

  it('a crash-looping Job pod (restartPolicy OnFailure) is reported, and never fails the trace by itself', () => {
    const running = jobObject('migrate', { backoffLimit: 6 }, { active: 1 });
    const crashing = workloadPod('Job', 'migrate', {
      name: 'migrate-a',
      ready: false,
      containers: [waiting('CrashLoopBackOff', 'back-off 40s restarting failed container', { restarts: 4, last: terminatedLast(1) })],
    });
    const { events } = run([up('Job', running, 1), { type: 'synced', at: T0 + 1000 }, up('Pod', crashing, 2), tick(30), tick(120)], JOB);
    assert.equal(verdictOf(events), undefined);
    const crash = ofType(events, 'problem').find((e) => e.problem.class === 'crash-loop');
    assert.ok(crash, 'reported');
    assert.equal(crash.failsAt, undefined);
  });

  it('Complete succeeds, with succeeded/completions progress', () => {
    const done = jobObject(
      'migrate',
      { completions: 3, parallelism: 2 },
      { succeeded: 3, conditions: [{ type: 'Complete', status: 'True' }] },
    );
    const { events } = run(
      [
        up('Job', jobObject('migrate', { completions: 3, parallelism: 2 }, { active: 2, succeeded: 1 }), 1),
        { type: 'synced', at: T0 + 1000 },
        up('Job', done, 4),
      ],
      JOB,
    );
    assert.deepEqual(
      ofType(events, 'progress').map((e) => e.message),
      ['Waiting for job "migrate" to complete: 1/3 succeeded, 2 running', 'job "migrate" complete: 3/3 succeeded, 0 running'],
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'succeeded');
    assert.equal(v?.summary, 'job migrate complete: 3/3 succeeded, 0 running in 4.0s');
    // Every event and the verdict name the workload with its kind.
    const ref = { kind: 'Job', namespace: 'apps', name: 'migrate' };
    assert.ok(events.length > 3);
    for (const e of events) assert.deepEqual(e.workload, ref, e.type);
    assert.deepEqual(v?.workload, ref);
    assert.deepEqual(v?.job, { succeeded: 3, failed: 0, active: 0, completions: 3, backoffLimit: 6 });
  });
});

describe('StatefulSets', () => {
  const ready = (revision: string) => ['db-0', 'db-1'].map((name) => workloadPod('StatefulSet', 'db', { name, revision }));

  it('succeeds only once every pod runs updateRevision and currentRevision caught up', () => {
    const rolling = statefulSetObject(
      'db',
      { replicas: 2 },
      { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 1, currentReplicas: 1 },
      2,
    );
    const done = statefulSetObject(
      'db',
      { replicas: 2 },
      { readyReplicas: 2, currentRevision: 'db-2', updateRevision: 'db-2', updatedReplicas: 2, currentReplicas: 2 },
      2,
    );
    const before = run(
      [...ready('db-1').map((p) => up('Pod', p, 1)), up('StatefulSet', rolling, 1), { type: 'synced', at: T0 + 1000 }],
      STS,
    );
    assert.equal(verdictOf(before.events), undefined);
    const { events } = run(
      [
        ...ready('db-1').map((p) => up('Pod', p, 1)),
        up('StatefulSet', rolling, 1),
        { type: 'synced', at: T0 + 1000 },
        ...ready('db-2').map((p) => up('Pod', p, 3)),
        up('StatefulSet', done, 3),
      ],
      STS,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'succeeded');
    assert.equal(v?.revision, 'db-2');
    assert.deepEqual(
      ofType(events, 'revision').map((e) => e.revision),
      ['db-2'],
    );
  });

  it('OnDelete with pods of the previous template fails at once as rollout-blocked', () => {
    const blocked = statefulSetObject(
      'db',
      { replicas: 2, updateStrategy: { type: 'OnDelete' } },
      { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 0, currentReplicas: 2 },
      2,
    );
    const v = verdictOf(run([up('StatefulSet', blocked, 1), { type: 'synced', at: T0 + 1000 }], STS).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.class, 'rollout-blocked');
    assert.equal(v?.problems[0]?.reason, 'OnDelete');
  });

  it('OrderedReady: a failing pod names the ordinals that wait for it; a pod of another revision is not diagnosed', () => {
    const sts = statefulSetObject(
      'db',
      { replicas: 3 },
      { readyReplicas: 0, currentRevision: 'db-1', updateRevision: 'db-1', currentReplicas: 1 },
    );
    const pulling = workloadPod('StatefulSet', 'db', {
      name: 'db-0',
      revision: 'db-1',
      containers: [waiting('ErrImagePull', 'rpc error: not found')],
    });
    const old = workloadPod('StatefulSet', 'db', {
      name: 'db-9',
      revision: 'db-0',
      containers: [waiting('CrashLoopBackOff', 'back-off', { restarts: 5 })],
    });
    const { events } = run(
      [
        up('StatefulSet', sts, 1),
        { type: 'synced', at: T0 + 1000 },
        up('Pod', pulling, 2),
        up('Pod', old, 2),
        podEvent('db-0', 'Failed', 'Failed to pull image "nginx:nope": rpc error: code = NotFound desc = manifest unknown', 2),
        tick(13),
      ],
      STS,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.object.name, 'db-0');
    assert.match(v?.problems[0]?.explanation ?? '', /; db-1, db-2 wait for it: podManagementPolicy OrderedReady/);
    assert.ok(!v?.problems.some((p) => p.object.name === 'db-9'), 'a pod of another revision is not the rollout');
  });

  it("OrderedReady: the scheduler's message and the ordinals that wait are one sentence after another, not '.;'", () => {
    const sts = statefulSetObject('db', { replicas: 2 }, { readyReplicas: 0, currentRevision: 'db-1', updateRevision: 'db-1' });
    const msg = '0/2 nodes are available: 2 pod has unbound immediate PersistentVolumeClaims.';
    const pending = workloadPod('StatefulSet', 'db', {
      name: 'db-0',
      revision: 'db-1',
      scheduled: { status: 'False', reason: 'Unschedulable', message: msg },
    });
    const { events } = run([up('StatefulSet', sts, 1), { type: 'synced', at: T0 + 1000 }, up('Pod', pending, 2), tick(3)], STS);
    const problem = ofType(events, 'problem').find((e) => e.problem.object.name === 'db-0')?.problem;
    assert.match(problem?.explanation ?? '', /PersistentVolumeClaims; db-1 waits for it: podManagementPolicy OrderedReady/);
  });

  it('a volumeClaimTemplates claim that does not bind is pvc-pending, naming the StorageClass and the provisioner Warning', () => {
    const sts = statefulSetObject(
      'db',
      { replicas: 1, volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
      { readyReplicas: 0, currentRevision: 'db-1', updateRevision: 'db-1' },
    );
    const claim = {
      metadata: { name: 'data-db-0', namespace: 'apps', uid: 'c' },
      spec: { storageClassName: 'fast' },
      status: { phase: 'Pending' },
    };
    const { events } = run(
      [
        up('StatefulSet', sts, 1),
        { type: 'synced', at: T0 + 1000 },
        up('PersistentVolumeClaim', claim, 2),
        up(
          'Event',
          event({ kind: 'PersistentVolumeClaim', name: 'data-db-0', reason: 'ProvisioningFailed', message: 'no capacity', at: 2 }),
          2,
        ),
        up(
          'Event',
          event({
            kind: 'PersistentVolumeClaim',
            name: 'data-db-0',
            reason: 'ExternalProvisioning',
            message: 'waiting',
            type: 'Normal',
            at: 3,
          }),
          3,
        ),
        tick(63),
      ],
      STS,
    );
    const v = verdictOf(events);
    assert.equal(v?.problems[0]?.class, 'pvc-pending');
    assert.equal(v?.problems[0]?.explanation, 'PersistentVolumeClaim "data-db-0" (StorageClass "fast") is Pending: no capacity');
  });

  it('a claim whose StorageClass does not exist is storage-class-not-found and fails after 10 s; another provisioning failure is pvc-pending', () => {
    const sts = statefulSetObject(
      'db',
      { replicas: 1, volumeClaimTemplates: [{ metadata: { name: 'data' } }] },
      { readyReplicas: 0, currentRevision: 'db-1', updateRevision: 'db-1' },
    );
    const claim = {
      metadata: { name: 'data-db-0', namespace: 'apps', uid: 'c' },
      spec: { storageClassName: 'fast' },
      status: { phase: 'Pending' },
    };
    const failing = (message: string, at: number) => [
      up('StatefulSet', sts, 1),
      { type: 'synced', at: T0 + 1000 } as const,
      up('PersistentVolumeClaim', claim, 2),
      up('Event', event({ kind: 'PersistentVolumeClaim', name: 'data-db-0', reason: 'ProvisioningFailed', message, at: 2 }), 2),
      tick(at),
    ];
    const missing = 'storageclass.storage.k8s.io "fast" not found';
    assert.equal(verdictOf(run(failing(missing, 11), STS).events)?.outcome, undefined, 'not before 10 s');
    const v = verdictOf(run(failing(missing, 12.1), STS).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.class, 'storage-class-not-found');
    assert.match(v?.problems[0]?.explanation ?? '', /asks for StorageClass "fast", which does not exist/);
    // Another class's absence, or another failure, is not this one.
    const other = run(failing('storageclass.storage.k8s.io "slow" not found', 12.1), STS);
    assert.equal(verdictOf(other.events)?.outcome, undefined);
    assert.equal(Object.values(other.state.problems)[0]?.class, 'pvc-pending');
  });

  it('a missing StatefulSet is waited for in its own words; a Deployment of the same name is not it', () => {
    const { events } = run([up('Deployment', { metadata: { name: 'db', namespace: 'apps' } }, 1), { type: 'synced', at: T0 + 1000 }], STS);
    assert.deepEqual(
      ofType(events, 'waiting').map((e) => e.message),
      ['StatefulSet apps/db not found'],
    );
  });
});

describe('DaemonSets', () => {
  const node = (name: string, taints: Array<{ key: string; value?: string; effect: string }> = []) => ({
    metadata: { name, labels: {} },
    spec: { taints },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });

  it('names once each node whose taint the pods do not tolerate; a tolerated taint is no note', () => {
    const ds = daemonSetObject(
      'agent',
      { desiredNumberScheduled: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberReady: 1 },
      {
        tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      },
    );
    const p = workloadPod('DaemonSet', 'agent', { name: 'agent-x', revision: '1', node: 'n-1' });
    const { events } = run(
      [
        up('Node', node('n-1'), 0),
        up('Node', node('n-2', [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]), 0),
        up('Node', node('n-3', [{ key: 'gpu', effect: 'NoSchedule' }]), 0),
        up('Pod', p, 1),
        up('DaemonSet', ds, 1),
        { type: 'synced', at: T0 + 1000 },
      ],
      DS,
    );
    assert.deepEqual(
      ofType(events, 'note').map((e) => `${e.object}: ${e.message}`),
      ["Node/n-2: DaemonSet agent runs no pod on node n-2: its pods do not tolerate the node's taint dedicated=db:NoSchedule"],
    );
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
    assert.equal(verdictOf(events)?.revision, '1');
  });
});

describe('an earlier object of the same name', () => {
  it("a replaced Job's Events (another uid) are not the new Job's: no k8s-event, no problem", () => {
    const done = jobObject(
      'migrate',
      {},
      { succeeded: 1, conditions: [{ type: 'Complete', status: 'True', reason: 'Completed', message: '' }] },
    );
    const old = event({
      kind: 'Job',
      name: 'migrate',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
      objectUid: 'Job-migrate-before',
      at: 1,
    });
    const current = event({ kind: 'Job', name: 'migrate', reason: 'Completed', type: 'Normal', message: 'Job completed', at: 2 });
    const r = run([up('Event', old, 1), up('Event', current, 1), up('Job', done, 2), { type: 'synced', at: T0 + 2000 }], JOB);
    const shown = ofType(r.events, 'k8s-event').map((e) => e.event.reason);
    assert.ok(!shown.includes('BackoffLimitExceeded'), shown.join(', '));
    assert.equal(verdictOf(r.events)?.outcome, 'succeeded');
    // The same Event about the traced uid is shown: the filter is by uid, not by reason.
    const same = event({
      kind: 'Job',
      name: 'migrate',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
      at: 1,
    });
    const r2 = run([up('Event', same, 1), up('Job', done, 2), { type: 'synced', at: T0 + 2000 }], JOB);
    assert.ok(ofType(r2.events, 'k8s-event').some((e) => e.event.reason === 'BackoffLimitExceeded'));
  });
});

describe('a workload being deleted', () => {
  // A foreground delete (the kubernetes provider replacing an object) sets deletionTimestamp and
  // bumps the generation first; the object stays listed until its dependents are gone.
  const deleting = <T extends { metadata?: object }>(o: T): T => ({
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: new Date(T0 + 2000) },
  });
  const rows = [
    ['StatefulSet', STS, statefulSetObject('db', { replicas: 1 }, { replicas: 1, readyReplicas: 1 })],
    ['Job', JOB, jobObject('migrate', {}, { active: 1 })],
    ['DaemonSet', DS, daemonSetObject('agent', { desiredNumberScheduled: 1 })],
  ] as const;
  for (const [kind, target, object] of rows) {
    it(`${kind}: fails as deleted once its deletionTimestamp is set, before it is gone`, () => {
      const { events } = run([up(kind, object, 1), up(kind, deleting(object), 2)], target);
      const verdict = verdictOf(events);
      assert.equal(verdict?.outcome, 'failed');
      assert.equal(verdict?.problems[0]?.class, 'workload-deleted');
      assert.equal(verdict?.finishedAt, T0 + 2000);
    });
  }
});
