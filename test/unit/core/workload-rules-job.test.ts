/**
 * The Job rule from a table: completions and parallelism, every failure reason, suspend, and the
 * 1.31+ interim conditions (FailureTarget, SuccessCriteriaMet). Sources: docs/dev/workload-rules.md.
 */
import { describe, it } from 'node:test';
import type { V1Job, V1JobCondition, V1JobSpec, V1JobStatus } from '@kubernetes/client-node';
import { jobRule } from '../../../src/core/kinds/job.js';
import type { JobProgress } from '../../../src/core/kinds/rule.js';
import { check, type Expected } from './workload-rules-check.js';

const started = new Date('2026-01-01T00:00:00Z');
const cond = (type: string, reason?: string, message?: string, status = 'True'): V1JobCondition => ({ type, status, reason, message });

function job(spec: Partial<V1JobSpec>, status?: Partial<V1JobStatus>): V1Job {
  return { metadata: { name: 'migrate', namespace: 'ns', generation: 1 }, spec: { template: {}, ...spec }, status } as V1Job;
}

const jobRows: { name: string; obj: V1Job; want: Expected<JobProgress> }[] = [
  {
    name: 'no status yet',
    obj: job({ completions: 1, parallelism: 1 }),
    want: { state: 'progressing', reason: 'NotStarted', message: 'Waiting for job "migrate" to start...' },
  },
  {
    name: 'running, one pod',
    obj: job({ completions: 1, parallelism: 1 }, { startTime: started, active: 1 }),
    want: { state: 'progressing', reason: 'Running', message: 'Waiting for job "migrate" to complete: 0/1 succeeded, 1 running' },
  },
  {
    name: 'completions 10, parallelism 2: 7 succeeded, 2 running, 1 failed and retried',
    obj: job({ completions: 10, parallelism: 2 }, { startTime: started, succeeded: 7, active: 2, failed: 1 }),
    want: {
      state: 'progressing',
      reason: 'Running',
      message: 'Waiting for job "migrate" to complete: 7/10 succeeded, 2 running, 1 failed',
      progress: { completions: 10, parallelism: 2, succeeded: 7, active: 2, failed: 1 },
    },
  },
  {
    name: 'work queue (no completions), parallelism 3',
    obj: job({ parallelism: 3 }, { startTime: started, succeeded: 1, active: 2 }),
    want: {
      state: 'progressing',
      reason: 'Running',
      message: /: 1 succeeded, 2 running$/,
      progress: { completions: undefined, parallelism: 3 },
    },
  },
  {
    name: 'complete',
    obj: job(
      { completions: 10, parallelism: 2 },
      { startTime: started, succeeded: 10, conditions: [cond('SuccessCriteriaMet', 'CompletionsReached'), cond('Complete')] },
    ),
    want: { state: 'done', reason: 'Complete', message: 'job "migrate" complete: 10/10 succeeded, 0 running' },
  },
  {
    name: '1.31+: SuccessCriteriaMet, not Complete yet (a pod still terminating)',
    obj: job(
      { completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededCount: 1 }] } },
      { startTime: started, succeeded: 1, conditions: [cond('SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0')] },
    ),
    want: {
      state: 'progressing',
      reason: 'SuccessCriteriaMet',
      message: /met its success criteria \(SuccessPolicy\): waiting for its remaining pods to terminate/,
    },
  },
  {
    name: 'a Complete condition that is False is not done',
    obj: job({ completions: 1 }, { startTime: started, active: 1, conditions: [cond('Complete', undefined, undefined, 'False')] }),
    want: { state: 'progressing', reason: 'Running' },
  },
  {
    name: 'failed: BackoffLimitExceeded',
    obj: job(
      { completions: 1, backoffLimit: 2 },
      {
        startTime: started,
        failed: 3,
        conditions: [cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')],
      },
    ),
    want: {
      state: 'failed',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
      progress: { failed: 3 },
    },
  },
  {
    name: 'failed: DeadlineExceeded',
    obj: job(
      { activeDeadlineSeconds: 60 },
      { startTime: started, failed: 1, conditions: [cond('Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline')] },
    ),
    want: { state: 'failed', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  },
  {
    name: 'failed: PodFailurePolicy (Pulumi ignores this reason and times out)',
    obj: job(
      {},
      {
        startTime: started,
        failed: 1,
        conditions: [
          cond(
            'Failed',
            'PodFailurePolicy',
            'Container main for pod ns/migrate-x failed with exit code 42 matching FailJob rule at index 0',
          ),
        ],
      },
    ),
    want: { state: 'failed', reason: 'PodFailurePolicy', message: /exit code 42/ },
  },
  {
    name: 'failed: MaxFailedIndexesExceeded',
    obj: job(
      { completionMode: 'Indexed', completions: 5, backoffLimitPerIndex: 1, maxFailedIndexes: 1 },
      {
        startTime: started,
        failed: 4,
        conditions: [cond('Failed', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes')],
      },
    ),
    want: { state: 'failed', reason: 'MaxFailedIndexesExceeded' },
  },
  {
    name: 'failed: FailedIndexes',
    obj: job(
      { completionMode: 'Indexed', completions: 5, backoffLimitPerIndex: 1 },
      { startTime: started, succeeded: 4, failed: 2, conditions: [cond('Failed', 'FailedIndexes', 'Job has failed indexes')] },
    ),
    want: { state: 'failed', reason: 'FailedIndexes', message: 'Job has failed indexes' },
  },
  {
    name: '1.31+: FailureTarget before Failed (pods still terminating): failed already',
    obj: job(
      { backoffLimit: 0 },
      {
        startTime: started,
        failed: 1,
        active: 0,
        conditions: [cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')],
      },
    ),
    want: { state: 'failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  },
  {
    name: 'a Failed condition without reason or message',
    obj: job({ completions: 2 }, { startTime: started, failed: 1, conditions: [cond('Failed')] }),
    want: { state: 'failed', reason: 'Failed', message: 'job "migrate" failed (Failed): 0/2 succeeded, 0 running, 1 failed' },
  },
  {
    name: 'suspended at creation',
    obj: job({ suspend: true, completions: 1 }, { conditions: [cond('Suspended', 'JobSuspended', 'Job suspended')] }),
    // Waiting to be admitted (Kueue resumes it), as the provider's await waits: not blocked.
    want: {
      state: 'progressing',
      reason: 'Suspended',
      message: 'job "migrate" is suspended (spec.suspend: true): waiting for it to be admitted and resumed',
    },
  },
  {
    name: 'suspended mid-run',
    obj: job(
      { suspend: true, completions: 4 },
      { startTime: started, succeeded: 2, conditions: [cond('Suspended', 'JobSuspended', 'Job suspended')] },
    ),
    want: { state: 'progressing', reason: 'Suspended', progress: { succeeded: 2 } },
  },
  {
    name: 'resumed: the Suspended condition turns False',
    obj: job(
      { suspend: false, completions: 1 },
      { startTime: started, active: 1, conditions: [cond('Suspended', 'JobResumed', 'Job resumed', 'False')] },
    ),
    want: { state: 'progressing', reason: 'Running' },
  },
  {
    name: 'suspend set after it completed: still done',
    obj: job({ suspend: true, completions: 1 }, { startTime: started, succeeded: 1, conditions: [cond('Complete')] }),
    want: { state: 'done', reason: 'Complete' },
  },
];

describe('jobRule', () => {
  for (const row of jobRows) it(row.name, () => check(jobRule(row.obj), row.want));
});
