/**
 * The Job: its rule (its conditions), its pods (every pod: a Job's template cannot change), its
 * success counts (succeeded completions) and its words (succeeded, running, failed).
 */
import type { V1Job, V1JobCondition } from '@kubernetes/client-node';
import { departedProblems } from '../departed.js';
import { type Emit, phase, phaseEmitted } from '../emit.js';
import type { EmittedMemo, RolloutState } from '../state.js';
import { requiredOf } from '../success.js';
import type { Problem, Verdict } from '../types.js';
import { KIND_FACTS } from './facts.js';
import { deadLogHintsGone, failedJobPodFindings, succeededJobContainers, unseenJobExits } from './job-pods.js';
import type { KindModule } from './module.js';
import { emitOwnedRows, emitRuleProgress, fewerLivePods, ownedPodsFresh, ownedPodsOf } from './owned-pods.js';
import type { JobProgress, JobRuleResult, RuleReason } from './rule.js';

/** A Job condition with status True, by type. */
function trueCondition(job: V1Job, type: string): V1JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

/** `7/10 succeeded, 2 running, 1 failed` (`3 succeeded, ...` for a work-queue Job). */
export function jobCounts(p: JobProgress): string {
  const done = p.completions === undefined ? `${p.succeeded} succeeded` : `${p.succeeded}/${p.completions} succeeded`;
  return `${done}, ${p.active} running${p.failed > 0 ? `, ${p.failed} failed` : ''}`;
}

/**
 * A Job's rule. Failed when `Failed` is True, or `FailureTarget` (1.31+: the controller decided
 * the failure and adds `Failed` with the same reason once the pods have terminated), whatever the
 * reason. Done only when `Complete` is True: `SuccessCriteriaMet` alone (1.31+) is still
 * progressing, since the Job's remaining pods are terminating. A suspended Job is progressing
 * (`Suspended`): an admission system (Kueue...) resumes it, and the provider's await waits too.
 */
export function jobRule(job: V1Job): JobRuleResult {
  const s = job.status;
  const progress: JobProgress = {
    completions: job.spec?.completions ?? undefined,
    parallelism: job.spec?.parallelism ?? 1,
    succeeded: s?.succeeded ?? 0,
    failed: s?.failed ?? 0,
    active: s?.active ?? 0,
    backoffLimit: job.spec?.backoffLimit ?? 6,
  };
  const name = job.metadata?.name ?? '';
  const failed = trueCondition(job, 'Failed') ?? trueCondition(job, 'FailureTarget');
  if (failed) {
    const reason = failed.reason || 'Failed';
    return { state: 'failed', reason, message: failed.message || `job "${name}" failed (${reason}): ${jobCounts(progress)}`, progress };
  }
  const at = (state: 'progressing' | 'done' | 'blocked', reason: RuleReason, message: string): JobRuleResult => ({
    state,
    reason,
    message,
    progress,
  });
  if (trueCondition(job, 'Complete')) return at('done', 'Complete', `job "${name}" complete: ${jobCounts(progress)}`);
  if (job.spec?.suspend === true) {
    return at('progressing', 'Suspended', `job "${name}" is suspended (spec.suspend: true): waiting for it to be admitted and resumed`);
  }
  const met = trueCondition(job, 'SuccessCriteriaMet');
  if (met) {
    const why = met.reason ? ` (${met.reason})` : '';
    return at(
      'progressing',
      'SuccessCriteriaMet',
      `job "${name}" met its success criteria${why}: waiting for its remaining pods to terminate before it is Complete`,
    );
  }
  if (!s?.startTime) return at('progressing', 'NotStarted', `Waiting for job "${name}" to start...`);
  return at('progressing', 'Running', `Waiting for job "${name}" to complete: ${jobCounts(progress)}`);
}

/** A Job's counts as the verdict gives them: succeeded of completions, with the active pods counted as updated. */
function jobReplicas(p: JobProgress | undefined): Verdict['replicas'] {
  if (!p) return { desired: 0, ready: 0, updated: 0, available: 0 };
  const desired = p.completions ?? Math.max(1, p.succeeded);
  return { desired, ready: p.succeeded, updated: p.succeeded + p.active, available: p.succeeded };
}

/**
 * The policy's criterion: `full` is `Complete`; a count or a share needs that many succeeded
 * completions (of `spec.completions`, 1 for a work-queue Job), unless the Job failed.
 */
function criterionMet(s: RolloutState): boolean {
  const r = rule(s);
  if (!r || r.state === 'failed') return false;
  if (s.policy.success.mode === 'full') return r.state === 'done';
  const need = requiredOf(s.policy.success, r.progress.completions ?? 1, () => 0) ?? 0;
  return r.progress.succeeded >= need;
}

/** A Job's phases: `suspended` while it waits to be admitted, `running` once it has active pods. */
function emitPhases(s: RolloutState, memo: EmittedMemo, emit: Emit, succeeded: boolean): void {
  const job = s.workload as V1Job | undefined;
  const st = job?.status;
  if (!job || succeeded) return;
  if (job.spec?.suspend === true)
    return phase(memo, emit, 'suspended', `job ${s.target.name} is suspended: waiting to be admitted and resumed`);
  if (!(st?.active ?? 0)) return;
  const completions = job.spec?.completions;
  const of = completions === undefined || completions === null ? '' : `/${completions}`;
  phase(memo, emit, 'running', `job ${s.target.name} running: ${st?.active} active, ${st?.succeeded ?? 0}${of} succeeded`);
}

/**
 * Classes a Job retries itself: a container that exits non-zero restarts (restartPolicy
 * OnFailure) or its pod is replaced (Never), and the Job's backoffLimit decides when that is a
 * failure (its `Failed` condition). A Job pod's crash is reported, never a failure by itself: a
 * flaky migration that succeeds on its third try must not fail the trace.
 */
const RETRIED = new Set<Problem['class']>(['crash-loop', 'oom-killed', 'init-container']);

/**
 * What never fails a Job on its window: what its controller retries itself ({@link RETRIED}, and a
 * pod create its namespace's quota refuses (`exceeded quota`), which its own pods free as they end
 * (a Job of parallelism 10 under a quota of 5 pods runs 5 at a time) and a batch namespace's other
 * Jobs free as theirs do), and a readiness probe: a Job counts the pods that exit 0 and never waits
 * for one to be Ready (kubectl's and Pulumi's Job rules read only its conditions), so a pod that
 * is not Ready is reported and the Job still completes.
 */
function neverFails(p: Problem): boolean {
  return RETRIED.has(p.class) || p.class === 'readiness-probe' || (p.class === 'replica-failure' && /exceeded quota/.test(p.message));
}

/** Whether the Job has fewer live pods than its controller wants running: parallelism, or the completions left. */
function podsShort(s: RolloutState): boolean {
  const job = s.workload as V1Job;
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  const left = completions === undefined || completions === null ? parallelism : completions - (job.status?.succeeded ?? 0);
  return fewerLivePods(s, Math.min(parallelism, left));
}

const rule = (s: RolloutState): JobRuleResult | undefined => (s.workload ? jobRule(s.workload as V1Job) : undefined);

/** How long a Job's failure waits for a failure of its pods to be seen (ms). */
export const CAUSE_WAIT_MS = 5000;
/** The `Failed` reasons that pods' failures cause (not `DeadlineExceeded`: the Job's own deadline). */
const POD_CAUSED = new Set(['BackoffLimitExceeded', 'PodFailurePolicy', 'FailedIndexes', 'MaxFailedIndexesExceeded']);

/**
 * A Job seen running that fails for its pods decides after the Job controller saw them fail, but
 * its status and its pods' come on separate watches, and on a loaded machine the Job's can come
 * first: the verdict would name no container, exit code or log. It waits for a pod's cause, until
 * {@link CAUSE_WAIT_MS} after the failure was seen. A Job already failed when the trace began came
 * with its pods in the same lists: it never waits.
 */
function causeWaitUntil(s: RolloutState, failing: readonly Problem[]): number | undefined {
  const failed = failing.find((p) => p.class === 'job-failed');
  if (!failed || !POD_CAUSED.has(failed.reason) || !phaseEmitted(s.memo, 'running')) return undefined;
  for (const p of Object.values(s.problems)) if (p.object.kind === 'Pod') return undefined;
  return departedProblems(s, (known) => unseenJobExits(s, known)).length === 0 ? failed.firstSeen + CAUSE_WAIT_MS : undefined;
}

/**
 * The rule as its progress line says it: a failure names the Job, its reason and its counts (the
 * condition's own message, "Job has reached the specified backoff limit", is in its problem).
 */
function progressShown(s: RolloutState): JobRuleResult | undefined {
  const r = rule(s);
  if (r?.state !== 'failed') return r;
  return { ...r, message: `job "${s.target.name}" failed (${r.reason}): ${jobCounts(r.progress)}` };
}

/** The Job's module. */
export const jobModule: KindModule = {
  // Its template cannot change: every pod is current, and it has no revision.
  ...ownedPodsOf({ templateRevision: () => '', podRevision: () => '' }).members,
  // A Job's pods run to completion: a Ready one is running, not done.
  emitRows: (s, memo, touched, emit) => emitOwnedRows(s, memo, touched, emit, { readyIsRunning: true }),
  facts: KIND_FACTS.Job,
  emitChanges: () => {},
  emitProgress: (s, memo, emit) => emitRuleProgress(memo, emit, progressShown(s), jobReplicas(rule(s)?.progress)),
  rule,
  objectRule: (w) => jobRule(w as V1Job),
  criterionMet,
  emitPhases,
  causeWaitUntil,
  // Its succeeded pods may be gone (a TTL, a clean-up): its count is its record, not a readiness.
  staleCount: () => undefined,
  replicas: (s) => jobReplicas(rule(s)?.progress),
  verdictExtra: (s) => {
    const p = rule(s)?.progress;
    if (!p) return {};
    const { succeeded, failed, active, completions, backoffLimit } = p;
    return { job: { succeeded, failed, active, ...(completions !== undefined ? { completions } : {}), backoffLimit: backoffLimit ?? 6 } };
  },
  progressWords: (s) => {
    const p = rule(s)?.progress;
    return p ? jobCounts(p) : 'not seen yet';
  },
  completeMessage: (s) =>
    `job ${s.target.name} complete: ${jobCounts(rule(s)?.progress ?? { parallelism: 1, succeeded: 0, failed: 0, active: 0 })}`,
  podsRunOn: false,
  subject: (s) => `job ${s.target.name}`,
  stillWaitingFor: (s) => rule(s)?.message,
  podFindings: failedJobPodFindings,
  neverFails,
  podsShort,
  unseenExits: unseenJobExits,
  liveHints: deadLogHintsGone,
  successLogContainers: succeededJobContainers,
  // A failed pod's Events say why it failed, whether the Job still runs or not.
  replayCovers: (s) => ownedPodsFresh(s, { endedToo: true }),
};
