/**
 * The success and failure rules of StatefulSets, DaemonSets and Jobs: one pure function per kind,
 * each reading only the workload object (no pods, no clock). The rules, their sources (Pulumi's
 * await, `kubectl rollout status`, kstatus) and where they differ are in docs/dev/workload-rules.md.
 * Success is never reported before the current template is rolled out (as far as a partition lets
 * it); a rollout that cannot finish without a person acting (OnDelete, a suspended Job) is `blocked`,
 * never a silent wait.
 */
import type { V1DaemonSet, V1Job, V1JobCondition, V1StatefulSet } from '@kubernetes/client-node';

/** Why a rule is where it is, for every state but `failed` (whose reason is the Job condition's). */
export type RuleReason =
  /** The controller has not observed the latest generation (or written any status) yet. */
  | 'NotObserved'
  /** Fewer pods are Ready than desired. */
  | 'PodsNotReady'
  /** A StatefulSet has more pods than desired (a scale-down is still deleting ordinals). */
  | 'ExtraPods'
  /** Fewer pods run the current template than the rule needs. */
  | 'PodsNotUpdated'
  /** A StatefulSet's pods are all updated and Ready, but `currentRevision` is not `updateRevision` yet. */
  | 'RevisionNotCurrent'
  /** A DaemonSet's updated pods are not all available (`minReadySeconds`). */
  | 'PodsNotAvailable'
  /** `blocked`: OnDelete update strategy with pods of the previous template left. */
  | 'OnDelete'
  /** `done`: every desired pod runs the current template and is Ready (and, for a DaemonSet, available). */
  | 'RolledOut'
  /** `done`: a StatefulSet whose ordinals at or above the partition run the current template, every pod Ready. */
  | 'PartitionRolledOut'
  /** A Job whose `status.startTime` is not set yet. */
  | 'NotStarted'
  /** A Job whose pods are running or being retried. */
  | 'Running'
  /** A Job that met its success criteria (`SuccessCriteriaMet`, 1.31+) and is not `Complete` yet. */
  | 'SuccessCriteriaMet'
  /** `blocked`: a Job with `spec.suspend: true`. */
  | 'Suspended'
  /** `done`: a Job with the `Complete` condition. */
  | 'Complete';

/**
 * Where a workload stands by its kind's rule, for one observed object. `progressing`: the controller
 * is working on it; `done`: the success rule holds; `failed`: it will not succeed (a Job condition
 * that cannot be undone); `blocked`: nothing will change until a person acts (deletes pods of the
 * previous template, resumes the Job). Only `failed` is final: a later object can turn `done` back to
 * `progressing` (a node joins a DaemonSet) and `blocked` to `progressing` (a pod deleted). `message`
 * is kubectl-style words for the state (kubectl's own where kubectl has them, e.g.
 * `Waiting for 1 pods to be ready...`).
 */
export type RuleResult<P> =
  | { state: 'progressing' | 'done' | 'blocked'; reason: RuleReason; message: string; progress: P }
  | {
      state: 'failed';
      /** The Job condition's reason: `BackoffLimitExceeded`, `DeadlineExceeded`, `PodFailurePolicy`, `MaxFailedIndexesExceeded`, `FailedIndexes`... */
      reason: string;
      message: string;
      progress: P;
    };

/** Pod counts of a StatefulSet or DaemonSet, from its status. */
export interface PodProgress {
  /** StatefulSet `spec.replicas` (default 1); DaemonSet `status.desiredNumberScheduled` (nodes that should run a pod). */
  desired: number;
  /** Pods Ready (`readyReplicas`, `numberReady`); a StatefulSet's may include pods of the previous template. */
  ready: number;
  /** Pods (DaemonSet: nodes whose oldest daemon pod) running the current template. */
  updated: number;
  /** Pods available (`availableReplicas`, `numberAvailable`); a StatefulSet on a server without the field (before 1.22) reports its ready count. */
  available: number;
}

/** A Job's counts, from its spec and status. */
export interface JobProgress {
  /** `spec.completions`; undefined for a work-queue Job (it completes when one pod succeeds and all have ended). */
  completions?: number;
  /** `spec.parallelism` (default 1). */
  parallelism: number;
  /** Pods that succeeded. */
  succeeded: number;
  /** Pods that failed (every retry counts). */
  failed: number;
  /** Pods pending or running, not terminating. */
  active: number;
}

/** The result of {@link statefulSetRule} and {@link daemonSetRule}. */
export type PodRuleResult = RuleResult<PodProgress>;
/** The result of {@link jobRule}. */
export type JobRuleResult = RuleResult<JobProgress>;

const DEFAULT_ORDERED = 'OrderedReady';

/**
 * True when the StatefulSet's pods are managed `OrderedReady` (the default): the controller creates
 * and replaces one ordinal at a time and waits for each to be Ready, so a pod that never becomes
 * Ready holds every later ordinal. `Parallel` does not change the success rule.
 */
export function isOrderedReady(sts: V1StatefulSet): boolean {
  return (sts.spec?.podManagementPolicy ?? DEFAULT_ORDERED) === DEFAULT_ORDERED;
}

/** Whether the controller has written a status for the latest generation (a missing or 0 observedGeneration never counts). */
function observed(meta: { generation?: number } | undefined, observedGeneration: number | undefined): boolean {
  return (observedGeneration ?? 0) > 0 && (observedGeneration ?? 0) >= (meta?.generation ?? 0);
}

/** A StatefulSet's pod counts; `updated` counts the pods at `updateRevision` (all current pods once the revisions match). */
function stsProgress(sts: V1StatefulSet): PodProgress {
  const s = sts.status;
  const ready = s?.readyReplicas ?? 0;
  const sameRevision = !!s?.currentRevision && s.currentRevision === s.updateRevision;
  const updated = sameRevision ? Math.max(s?.updatedReplicas ?? 0, s?.currentReplicas ?? 0) : (s?.updatedReplicas ?? 0);
  return { desired: sts.spec?.replicas ?? 1, ready, updated, available: s?.availableReplicas ?? ready };
}

/**
 * A StatefulSet's rule. Done when the controller observed the latest generation, every desired pod
 * is Ready and no extra pod is left, and: RollingUpdate with a partition P > 0, the `replicas - P`
 * ordinals at or above P run the current template (kubectl's rule); RollingUpdate without one, every
 * pod runs it and `currentRevision == updateRevision` (Pulumi's rule); OnDelete, every pod runs it,
 * else `blocked` (the controller replaces a pod only when it is deleted).
 */
export function statefulSetRule(sts: V1StatefulSet): PodRuleResult {
  const progress = stsProgress(sts);
  const at = (state: 'progressing' | 'done' | 'blocked', reason: RuleReason, message: string): PodRuleResult => ({
    state,
    reason,
    message,
    progress,
  });
  const s = sts.status;
  if (!observed(sts.metadata, s?.observedGeneration))
    return at('progressing', 'NotObserved', 'Waiting for statefulset spec update to be observed...');
  const { desired, ready, updated } = progress;
  if (ready < desired) return at('progressing', 'PodsNotReady', `Waiting for ${desired - ready} pods to be ready...`);
  const extra = (s?.replicas ?? 0) - desired;
  if (extra > 0)
    return at('progressing', 'ExtraPods', `Waiting for statefulset rollout to finish: ${extra} extra pods are pending termination...`);
  const strategy = sts.spec?.updateStrategy;
  if (strategy?.type === 'OnDelete') {
    if (updated >= desired)
      return at('done', 'RolledOut', `statefulset update complete: ${updated} pods run the current template (OnDelete)`);
    const old = desired - updated;
    return at(
      'blocked',
      'OnDelete',
      `OnDelete update strategy: ${old} of ${desired} pods still run the previous template, and the StatefulSet controller replaces a pod only when someone deletes it`,
    );
  }
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  if (partition > 0) {
    const target = Math.max(0, desired - partition);
    if (updated < target) {
      return at(
        'progressing',
        'PodsNotUpdated',
        `Waiting for partitioned roll out to finish: ${updated} out of ${target} new pods have been updated...`,
      );
    }
    return at('done', 'PartitionRolledOut', `partitioned roll out complete: ${updated} new pods have been updated...`);
  }
  const revision = s?.updateRevision ?? '';
  if (updated < desired)
    return at(
      'progressing',
      'PodsNotUpdated',
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${revision}...`,
    );
  if (!s?.currentRevision || s.currentRevision !== s.updateRevision) {
    return at(
      'progressing',
      'RevisionNotCurrent',
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${revision}...`,
    );
  }
  return at('done', 'RolledOut', `statefulset rolling update complete ${updated} pods at revision ${revision}...`);
}

/**
 * A DaemonSet's rule (kubectl's, plus kstatus's observedGeneration presence, which Pulumi uses):
 * done when the controller observed the latest generation and on every node that should run a pod
 * (`desiredNumberScheduled`, which moves when nodes join or leave) the pod runs the current template
 * and is available. OnDelete with nodes left on the previous template is `blocked`.
 */
export function daemonSetRule(ds: V1DaemonSet): PodRuleResult {
  const s = ds.status;
  const progress: PodProgress = {
    desired: s?.desiredNumberScheduled ?? 0,
    ready: s?.numberReady ?? 0,
    updated: s?.updatedNumberScheduled ?? 0,
    available: s?.numberAvailable ?? 0,
  };
  const at = (state: 'progressing' | 'done' | 'blocked', reason: RuleReason, message: string): PodRuleResult => ({
    state,
    reason,
    message,
    progress,
  });
  if (!observed(ds.metadata, s?.observedGeneration) || s?.desiredNumberScheduled === undefined) {
    return at('progressing', 'NotObserved', 'Waiting for daemon set spec update to be observed...');
  }
  const name = ds.metadata?.name ?? '';
  const { desired, updated, available } = progress;
  if (updated < desired) {
    if (ds.spec?.updateStrategy?.type === 'OnDelete') {
      const message = `OnDelete update strategy: ${desired - updated} of ${desired} nodes still run a pod of the previous template, and the DaemonSet controller replaces a pod only when someone deletes it`;
      return at('blocked', 'OnDelete', message);
    }
    return at(
      'progressing',
      'PodsNotUpdated',
      `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    );
  }
  if (available < desired) {
    return at(
      'progressing',
      'PodsNotAvailable',
      `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
    );
  }
  return at('done', 'RolledOut', `daemon set "${name}" successfully rolled out`);
}

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
 * progressing, since the Job's remaining pods are terminating. A suspended Job is `blocked`.
 */
export function jobRule(job: V1Job): JobRuleResult {
  const s = job.status;
  const progress: JobProgress = {
    completions: job.spec?.completions ?? undefined,
    parallelism: job.spec?.parallelism ?? 1,
    succeeded: s?.succeeded ?? 0,
    failed: s?.failed ?? 0,
    active: s?.active ?? 0,
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
    return at('blocked', 'Suspended', `job "${name}" is suspended (spec.suspend: true): it runs no pods until it is resumed`);
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
