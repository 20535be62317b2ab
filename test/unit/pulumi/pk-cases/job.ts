/**
 * pk's Job cases (provider/pkg/await/checker/job/check_test.go, on the recorded states and
 * workflows under checker/internal/), in our words. The predicate tests ask one object whether the
 * Job started and whether it completed: our Job rule (`objectRule`) answers. The workflow tests
 * feed a Job's recorded states in order: our trace's verdict answers. pk's checker test only says
 * "not ready" for a Failed Job; its awaiter (await/job.go `processJobEvent`) returns an error on the
 * checker's error message at once, so pk's outcome there is `failed`.
 */
import type { V1Job, V1JobSpec, V1JobStatus } from '@kubernetes/client-node';
import { jobObject, up } from '../../core/builders.js';
import { inOrder, type ObjectCase, type PkCase, type PkOutcome } from './case.js';

const F = 'provider/pkg/await/checker/job/check_test.go';

const job = (spec: Partial<V1JobSpec>, status: Partial<V1JobStatus>): V1Job => jobObject('migrate', spec, status);
const retries = (backoffLimit: number) => ({ backoffLimit, completions: 1, parallelism: 1 });

/** Created, no status yet (`startTime` unset). */
const created = (spec = retries(4)) => job(spec, { startTime: undefined });
/** Its pod runs. */
const started = (spec = retries(4)) => job(spec, { active: 1 });
/** Complete: one pod succeeded. */
const succeeded = (spec = retries(4)) =>
  job(spec, { succeeded: 1, completionTime: new Date(), conditions: [{ type: 'Complete', status: 'True' }] });
const failedCondition = (reason: string, message: string) => [{ type: 'Failed', status: 'True', reason, message }];
/** Failed: its pods used up the backoff limit. */
const backoffExceeded = (backoffLimit: number, failed: number) =>
  job(retries(backoffLimit), {
    failed,
    conditions: failedCondition('BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
  });
const withDeadline = { ...retries(1), activeDeadlineSeconds: 1 };
/** Failed: it ran longer than `activeDeadlineSeconds`. */
const deadlineExceeded = () =>
  job(withDeadline, { failed: 1, conditions: failedCondition('DeadlineExceeded', 'Job was active longer than specified deadline') });

/** Another Job of the same name (created after the first one was deleted): its own uid. */
function recreated(j: V1Job): V1Job {
  return { ...j, metadata: { ...j.metadata, uid: 'Job-migrate-2' } };
}

function predicate(id: string, line: number, name: string, asks: ObjectCase['asks'], object: V1Job, pk: boolean): PkCase {
  return { via: 'object', id: `job-${id}`, name, source: `${F}:${line}`, kind: 'Job', object, asks, pk };
}

function workflow(id: string, line: number, name: string, pk: PkOutcome, states: V1Job[]): PkCase {
  const obs = inOrder(...states.map((s): [string, unknown] => ['Job', s]));
  return { via: 'trace', id: `job-${id}`, name, source: `${F}:${line}`, runs: [{ target: { kind: 'Job', name: 'migrate' }, pk, obs }] };
}

/** The Job predicate and workflow cases. */
export const jobCases: PkCase[] = [
  predicate('started-started', 35, 'Test_jobStarted: Job started', 'started', started(), true),
  predicate('started-initialized', 40, 'Test_jobStarted: Job initialized', 'started', created(), false),
  predicate('complete-started', 62, 'Test_jobComplete: Job started', 'done', started(), false),
  predicate('complete-initialized', 67, 'Test_jobComplete: Job initialized', 'done', created(), false),
  predicate('complete-succeeded', 72, 'Test_jobComplete: Job succeeded', 'done', succeeded(), true),
  predicate('complete-backoff', 77, 'Test_jobComplete: Job backoffLimit error', 'done', backoffExceeded(1, 2), false),
  predicate('complete-deadline', 82, 'Test_jobComplete: Job deadlineExceeded error', 'done', deadlineExceeded(), false),
  workflow('added', 116, 'Test_Job_Checker: Job added but not running', 'waiting', [created()]),
  workflow('running', 121, 'Test_Job_Checker: Job running but not ready', 'waiting', [created(), started()]),
  workflow('succeeded', 126, 'Test_Job_Checker: Job succeeded', 'succeeded', [created(), started(), succeeded()]),
  workflow('backoff-exceeded', 131, 'Test_Job_Checker: Job backoff limit exceeded', 'failed', [
    created(retries(0)),
    started(retries(0)),
    backoffExceeded(0, 1),
  ]),
  workflow('deadline-exceeded', 136, 'Test_Job_Checker: Job deadline exceeded', 'failed', [
    created(withDeadline),
    started(withDeadline),
    deadlineExceeded(),
  ]),
  {
    via: 'trace',
    id: 'job-backoff-then-new-job',
    name: 'Test_Job_Checker: Job succeeded after backoff limit reached and resolved',
    source: `${F}:141`,
    // At the recorded states' times: the Job fails 3 s after its creation, the new one is created 15 s later.
    runs: [
      {
        target: { kind: 'Job', name: 'migrate' },
        pk: 'succeeded',
        obs: [
          up('Job', created(retries(0)), 1),
          up('Job', started(retries(0)), 1),
          up('Job', backoffExceeded(0, 1), 4),
          up('Job', recreated(created(retries(0))), 19),
          up('Job', recreated(started(retries(0))), 19),
          up('Job', recreated(succeeded(retries(0))), 31),
        ],
      },
    ],
  },
];

/** Where we decide otherwise than pk's Job checker, on purpose. */
export const jobDisagreements = [
  {
    id: 'job-backoff-then-new-job',
    reason:
      "a Job's Failed condition is final: the trace fails it there and follows no other object of the name (a Job recreated after it is another update's trace); pk's checker test reads on to the new Job's states, where pk's awaiter would have failed at the Failed condition too",
  },
];
