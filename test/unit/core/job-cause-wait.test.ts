/**
 * A Job that fails for its pods while none of their failures has been seen yet (its status and
 * its pods' come on separate watches): the failure waits for a pod's cause, at most
 * CAUSE_WAIT_MS; a Job already failed when the trace begins, or failed by its own deadline, never
 * waits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation } from '../../../src/core/index.js';
import { CAUSE_WAIT_MS } from '../../../src/core/kinds/job.js';
import { failedJobObject, failedJobPod, jobObject, ofType, run, T0, tick, up, verdictOf } from './builders.js';

const JOB = { kind: 'Job' as const, name: 'migrate' };
const running = jobObject('migrate', { backoffLimit: 0, parallelism: 3 }, { active: 3 });
const failedBy = (reason: string, message: string) => failedJobObject('migrate', { backoffLimit: 0, parallelism: 3 }, 1, reason, message);
const backoff = failedBy('BackoffLimitExceeded', 'Job has reached the specified backoff limit');
const synced = (s: number): Observation => ({ type: 'synced', at: T0 + s * 1000 });
const WAIT_S = CAUSE_WAIT_MS / 1000;
/** When the verdict came (its event's time). */
const verdictAt = (events: Parameters<typeof verdictOf>[0]) => ofType(events, 'verdict')[0]?.at;

describe("a Job's failure waits for its pods' cause", () => {
  it('seen running, failed before any pod failure is seen: no verdict until a pod says why, then the cause leads', () => {
    const before = run([up('Job', running, 1), synced(1), up('Job', backoff, 2), tick(3), tick(2 + WAIT_S - 1)], JOB);
    assert.equal(verdictOf(before.events), undefined, 'waits while no pod failure is seen');
    const { events } = run(
      [up('Job', running, 1), synced(1), up('Job', backoff, 2), tick(3), up('Pod', failedJobPod('migrate-a', 3, 'no table'), 4)],
      JOB,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(verdictAt(events), T0 + 4000, 'decided when the pod came');
    assert.deepEqual(
      v?.problems.map((p) => `${p.class} ${p.object.name}`),
      ['job-failed migrate', 'job-pod-failed migrate-a'],
    );
    assert.match(
      v?.summary ?? '',
      /^pod migrate-a container "app": container exited with code 3 \("no table"\).*; job migrate failed \(BackoffLimitExceeded\)/,
    );
  });

  it('no pod failure ever seen: fails with the Job condition alone once the wait runs out', () => {
    const { events } = run([up('Job', running, 1), synced(1), up('Job', backoff, 2), tick(2 + WAIT_S - 0.5), tick(2 + WAIT_S)], JOB);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(verdictAt(events), T0 + (2 + WAIT_S) * 1000, `${CAUSE_WAIT_MS} ms after the failure was seen, not before`);
    assert.deepEqual(
      v?.problems.map((p) => p.class),
      ['job-failed'],
    );
  });

  it('a pod failure seen before the Job failed: the verdict comes with the Job condition, at once', () => {
    const { events } = run(
      [up('Job', running, 1), synced(1), up('Pod', failedJobPod('migrate-a', 3, 'no table'), 2), up('Job', backoff, 3)],
      JOB,
    );
    assert.equal(verdictAt(events), T0 + 3000);
  });

  it('never waits for a Job failed when the trace began, nor for a Job failed by its own deadline', () => {
    const already = run([up('Job', backoff, 1), synced(1)], JOB);
    assert.equal(verdictAt(already.events), T0 + 1000, 'its pods came in the same lists');
    const deadline = failedBy('DeadlineExceeded', 'Job was active longer than specified deadline');
    const late = run([up('Job', running, 1), synced(1), up('Job', deadline, 2)], JOB);
    assert.equal(verdictAt(late.events), T0 + 2000, 'no pod failure to wait for');
  });
});

describe('a timeout during the wait for the cause', () => {
  it('gives the failure the Job condition already decided, not a timeout', () => {
    const timeout: Observation = { type: 'timeout', at: T0 + 4000, timeoutSeconds: 4 };
    const { events } = run([up('Job', running, 1), synced(1), up('Job', backoff, 2), tick(3), timeout], JOB);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(verdictAt(events), T0 + 4000);
    assert.deepEqual(
      v?.problems.map((p) => p.class),
      ['job-failed'],
    );
  });

  it('a timeout after the wait ran out, before a tick ended it: the failure too', () => {
    const timeout: Observation = { type: 'timeout', at: T0 + (2 + WAIT_S + 0.5) * 1000, timeoutSeconds: 8 };
    const { events } = run([up('Job', running, 1), synced(1), up('Job', backoff, 2), tick(3), timeout], JOB);
    assert.equal(verdictOf(events)?.outcome, 'failed');
  });

  it('a timeout before anything failed is still a timeout', () => {
    const timeout: Observation = { type: 'timeout', at: T0 + 4000, timeoutSeconds: 4 };
    const { events } = run([up('Job', running, 1), synced(1), tick(3), timeout], JOB);
    assert.equal(verdictOf(events)?.outcome, 'timed-out');
  });
});
