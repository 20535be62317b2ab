/**
 * What every kind's rule returns, as kstatus does: a state, a reason code, a message and counts.
 * One pure function per kind, each reading only the workload object (no pods, no clock): the
 * Deployment's in deployment.ts, the others in statefulset.ts, daemonset.ts and job.ts. The rules,
 * their sources (Pulumi's await, `kubectl rollout status`, kstatus) and where they differ are in
 * docs/dev/workload-rules.md. Success is never reported before the current template is rolled out
 * (as far as a partition lets it); a rollout that cannot finish without a person acting (OnDelete,
 * a suspended Job, a paused Deployment) is `blocked`, never a silent wait.
 */

/** Why a rule is where it is, for every state but `failed` (whose reason is the Job condition's). */
export type RuleReason =
  /** The controller has not observed the latest generation (or written any status) yet. */
  | 'NotObserved'
  /** Fewer pods are Ready than desired. */
  | 'PodsNotReady'
  /** A Deployment's old pods are still pending termination. */
  | 'OldPodsPending'
  /** `blocked`: a paused Deployment whose template is not rolled out. */
  | 'Paused'
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
  /** `spec.backoffLimit` (default 6). */
  backoffLimit?: number;
}

/** The result of {@link statefulSetRule} and {@link daemonSetRule}. */
export type PodRuleResult = RuleResult<PodProgress>;
/** The result of {@link jobRule}. */
export type JobRuleResult = RuleResult<JobProgress>;

/** Whether the controller has written a status for the latest generation (a missing or 0 observedGeneration never counts). */
export function observed(meta: { generation?: number } | undefined, observedGeneration: number | undefined): boolean {
  return (observedGeneration ?? 0) > 0 && (observedGeneration ?? 0) >= (meta?.generation ?? 0);
}
