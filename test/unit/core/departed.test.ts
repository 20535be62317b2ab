/**
 * The causes of pods that are gone (src/core/departed.ts): a pod deleted with its problem open, or
 * between two crashes, keeps that problem for a failed or timed-out verdict of its revision, with
 * hints that still work; a success never lists them, and another revision's are not listed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_DEPARTED } from '../../../src/core/departed.js';
import type { Observation } from '../../../src/core/index.js';
import { describeEvent } from '../../../src/report/describe-event.js';
import {
  availableTrue,
  del,
  deployment,
  event,
  iso,
  jobObject,
  ofType,
  pod,
  podEvent,
  progressing,
  replicaSet,
  run,
  running,
  runSteps,
  T0,
  terminatedLast,
  tick,
  up,
  verdictOf,
  waiting,
  workloadPod,
} from './builders.js';
import { doneAt2, newPod, rollingTo2 } from './scenario.js';

const JOB = { kind: 'Job' as const, name: 'migrate' };
const crashLoop = (restarts: number) =>
  waiting('CrashLoopBackOff', 'back-off 10s restarting failed container', {
    restarts,
    last: terminatedLast(3, 'Error', 'relation "users" does not exist'),
  });
const backoffFailed = jobObject(
  'migrate',
  { backoffLimit: 1 },
  {
    failed: 1,
    conditions: [
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
    ],
  },
);

/** A Job pod (restartPolicy OnFailure) with the container status `c`; `deleting` once the Job controller deletes it. */
function jobPod(name: string, c: ReturnType<typeof running>, at: number, deleting = false): Observation {
  return up('Pod', workloadPod('Job', 'migrate', { name, containers: [c], ready: false, deleting }), at);
}

describe('causes of pods that are gone', () => {
  it('a Job pod deleted between two crashes as the Job fails: its last exit is the cause, without a kubectl logs hint', () => {
    const { events } = run(
      [
        up('Job', jobObject('migrate', { backoffLimit: 1 }, { active: 1 }), 1),
        { type: 'synced', at: T0 + 1000 },
        jobPod('migrate-a', crashLoop(1), 2),
        jobPod(
          'migrate-a',
          running('app', { restarts: 1, ready: false, last: terminatedLast(3, 'Error', 'relation "users" does not exist') }),
          3,
        ),
        jobPod(
          'migrate-a',
          running('app', { restarts: 1, ready: false, last: terminatedLast(3, 'Error', 'relation "users" does not exist') }),
          4,
          true,
        ),
        up('Job', backoffFailed, 4),
      ],
      JOB,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.class, 'job-failed');
    const cause = v?.problems.find((p) => p.object.name === 'migrate-a');
    assert.equal(cause?.podDeleted, true);
    assert.equal(cause?.exitCode, 3);
    assert.equal(cause?.terminationMessage, 'relation "users" does not exist');
    // The cause leads; the Job's condition is its context.
    assert.match(
      v?.summary ?? '',
      /^pod migrate-a \(deleted\) container "app": .* \(Error\); job migrate failed \(BackoffLimitExceeded\): Job has reached the specified backoff limit; 0\/1 succeeded, 0 running, 1 failed, backoffLimit 1$/,
    );
    assert.ok(!v?.hints.some((h) => / logs job\//.test(h)), v?.hints.join(' | '));
    assert.deepEqual(cause?.hints, [
      'kubectl -n apps get events --field-selector involvedObject.name=migrate-a',
      'kubectl -n apps describe job migrate',
    ]);
    const cleared = ofType(events, 'problem-cleared')[0];
    assert.match(describeEvent(cleared!)?.text ?? '', /^deleted with its problem open: Pod\/migrate-a: /);
    const restarted = { ...cleared!, problem: { ...cleared!.problem, podDeleted: undefined } };
    assert.match(
      describeEvent(restarted)?.text ?? '',
      /^running again after: Pod\/migrate-a: /,
      'a crash that clears on a restart is no cure',
    );
  });

  it('a Job pod the trace never saw fail, being deleted as the Job fails: its status still gives the cause', () => {
    const { events } = run(
      [
        up('Job', backoffFailed, 1),
        jobPod('migrate-a', running('app', { restarts: 1, ready: false, last: terminatedLast(3, 'Error', 'no table') }), 1, true),
        { type: 'synced', at: T0 + 1000 },
      ],
      JOB,
    );
    const cause = verdictOf(events)?.problems.find((p) => p.object.name === 'migrate-a');
    assert.equal(cause?.podDeleted, true);
    assert.equal(cause?.exitCode, 3);
    assert.equal(cause?.restartCount, 1, 'its previous instance holds the log');
  });

  it('a Job pod first seen in the read batch that deletes it: the delete keeps its last exit for the verdict', () => {
    const again = running('app', { restarts: 1, ready: false, last: terminatedLast(3, 'Error', 'no table') });
    const gone = workloadPod('Job', 'migrate', { name: 'migrate-a', containers: [again], ready: false });
    // One read batch: the pod running again after its crash, then its delete (a trace that started late).
    const events = runSteps(
      [
        [up('Job', jobObject('migrate', { backoffLimit: 1 }, { active: 1 }), 1)],
        [jobPod('migrate-a', again, 2), del('Pod', gone, 2)],
        [up('Job', backoffFailed, 3)],
        [{ type: 'tick', at: T0 + 15_000 }],
      ],
      JOB,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    const cause = v?.problems.find((p) => p.object.name === 'migrate-a');
    assert.ok(cause, JSON.stringify(v?.problems.map((p) => p.id)));
    assert.equal(cause.podDeleted, true);
    assert.equal(cause.exitCode, 3);
  });

  it("a failed Job whose pods were all gone before the trace: each gone pod's last Warning Event names it", () => {
    const older = event({ kind: 'Pod', name: 'migrate-old', reason: 'BackOff', message: 'an earlier Job of that name', at: -60 });
    const { events } = run(
      [
        up('Job', { ...backoffFailed, metadata: { ...backoffFailed.metadata, creationTimestamp: iso(0) } }, 1),
        up('Event', older, 1),
        podEvent('migrate-a', 'Pulled', 'Container image "busybox" already present on machine', 2),
        podEvent('migrate-a', 'BackOff', 'Back-off restarting failed container', 3),
        up(
          'Event',
          event({
            kind: 'Job',
            name: 'migrate',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
            at: 4,
          }),
          4,
        ),
        { type: 'synced', at: T0 + 5000 },
      ],
      JOB,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    const causes = v?.problems.filter((p) => p.object.kind === 'Pod') ?? [];
    assert.deepEqual(
      causes.map((p) => [p.object.name, p.podDeleted, p.reason]),
      [['migrate-a', true, 'BackOff']],
      'the newest Warning of each gone pod of this Job, none of an earlier one',
    );
    assert.match(
      v!.summary,
      /^pod migrate-a \(deleted\): gone before the trace; its last Warning Event: Back-off restarting failed container \(BackOff\); job migrate failed \(BackoffLimitExceeded\)/,
    );
    assert.ok(!v!.hints.some((h) => / logs job\//.test(h)), v!.hints.join(' | '));
  });

  it("a failed Job whose pod is gone with no Warning: the Job controller's Events name it, and what was lost", () => {
    const jobEvent = (reason: string, message: string, s: number) =>
      up('Event', event({ kind: 'Job', name: 'migrate', type: 'Normal', reason, message, at: s }), s);
    const { events } = run(
      [
        up('Job', { ...backoffFailed, metadata: { ...backoffFailed.metadata, creationTimestamp: iso(0) } }, 1),
        jobEvent('SuccessfulCreate', 'Created pod: migrate-old', -30),
        jobEvent('SuccessfulCreate', 'Created pod: migrate-a', 1),
        jobEvent('SuccessfulDelete', 'Deleted pod: migrate-a', 3),
        { type: 'synced', at: T0 + 5000 },
      ],
      JOB,
    );
    const v = verdictOf(events);
    const causes = v?.problems.filter((p) => p.object.kind === 'Pod') ?? [];
    assert.deepEqual(
      causes.map((p) => [p.object.name, p.podDeleted]),
      [['migrate-a', true]],
    );
    assert.match(
      v!.summary,
      /^pod migrate-a \(deleted\): gone before the trace \(deleted as the Job failed\): its exit code and log are lost with it/,
    );
  });

  it('a failed Job with a pod cause known: no Event stands in for it', () => {
    const { events } = run(
      [
        up('Job', backoffFailed, 1),
        jobPod('migrate-a', running('app', { restarts: 1, ready: false, last: terminatedLast(3, 'Error', 'no table') }), 1, true),
        podEvent('migrate-b', 'BackOff', 'Back-off restarting failed container', 1),
        { type: 'synced', at: T0 + 1000 },
      ],
      JOB,
    );
    const names = verdictOf(events)
      ?.problems.filter((p) => p.object.kind === 'Pod')
      .map((p) => p.object.name);
    assert.deepEqual(names, ['migrate-a']);
  });

  it('a failed Job listed before its pods: no verdict until the lists are in, so the pods say why', () => {
    const failedPod = workloadPod('Job', 'migrate', { name: 'migrate-a', phase: 'Failed', ready: false });
    failedPod.status!.containerStatuses = [
      { ...running('app', { ready: false }), state: { terminated: { exitCode: 3, reason: 'Error' } } },
    ];
    const { events } = run([up('Job', backoffFailed, 1), up('Pod', failedPod, 1), { type: 'synced', at: T0 + 1000 }], JOB);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems.find((p) => p.object.name === 'migrate-a')?.exitCode, 3, JSON.stringify(v?.problems.map((p) => p.id)));
  });

  it("another revision's gone pods are not this verdict's causes", () => {
    const { events } = run([
      ...rollingTo2({ image: 'nginx:1.19' }),
      { type: 'synced', at: T0 },
      newPod('web-2-a', crashLoop(1), 2),
      del('Pod', pod({ name: 'web-2-a', rs: 'web-2', containers: [crashLoop(1)] }), 3),
      up('ReplicaSet', replicaSet({ name: 'web-3', revision: '3', replicas: 1, ready: 0 }), 4),
      up(
        'Deployment',
        deployment({ revision: '3', generation: 3, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-3')] }),
        4,
      ),
      { type: 'timeout', at: T0 + 10_000, timeoutSeconds: 10 },
    ]);
    const v = verdictOf(events);
    assert.equal(v?.revision, '3');
    assert.deepEqual(
      v?.problems.filter((p) => p.podDeleted),
      [],
    );
  });

  it('a Deployment pod deleted with its crash loop open: said so live, kept for the timed-out verdict', () => {
    const { events } = run(
      [
        ...rollingTo2({ image: 'nginx:1.19' }),
        { type: 'synced', at: T0 },
        newPod('web-2-a', crashLoop(1), 2),
        del('Pod', pod({ name: 'web-2-a', rs: 'web-2', containers: [crashLoop(1)] }), 3),
        tick(4),
        { type: 'timeout', at: T0 + 5000, timeoutSeconds: 5 },
      ],
      {},
    );
    const gone = ofType(events, 'problem-cleared').find((e) => e.problem.object.name === 'web-2-a');
    assert.equal(gone?.problem.podDeleted, true);
    assert.match(describeEvent(gone!)?.text ?? '', /^deleted with its problem open: Pod\/web-2-a: /);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'timed-out');
    const kept = v?.problems.find((p) => p.object.name === 'web-2-a');
    assert.equal(kept?.podDeleted, true);
    assert.equal(kept?.class, 'crash-loop');
    assert.equal(kept?.exitCode, 3);
  });

  it('a success lists no cause of a pod that is gone', () => {
    const { events } = run([
      ...rollingTo2({ image: 'nginx:1.19' }),
      { type: 'synced', at: T0 },
      newPod('web-2-a', crashLoop(1), 2),
      del('Pod', pod({ name: 'web-2-a', rs: 'web-2', containers: [crashLoop(1)] }), 3),
      newPod('web-2-b', running(), 4),
      newPod('web-2-c', running(), 4),
      newPod('web-2-d', running(), 4),
      ...doneAt2(5),
      tick(20),
    ]);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'succeeded');
    assert.deepEqual(v?.problems, []);
  });

  it('at most MAX_DEPARTED causes, the most recent', () => {
    const n = MAX_DEPARTED + 2;
    const obs: Observation[] = [...rollingTo2({ image: 'nginx:1.19' }), { type: 'synced', at: T0 }];
    for (let i = 0; i < n; i++) {
      obs.push(newPod(`web-2-${i}`, crashLoop(1), 2 + i));
      obs.push(del('Pod', pod({ name: `web-2-${i}`, rs: 'web-2', containers: [crashLoop(1)] }), 2.5 + i));
    }
    obs.push({ type: 'timeout', at: T0 + 60_000, timeoutSeconds: 60 });
    const kept = (verdictOf(run(obs).events)?.problems ?? []).filter((p) => p.podDeleted).map((p) => p.object.name);
    assert.deepEqual(
      kept,
      Array.from({ length: MAX_DEPARTED }, (_, i) => `web-2-${i + 2}`),
    );
  });
});
