/**
 * Failure classes, the failure policy and user classifiers (part of the core contract, re-exported
 * by ./types.ts).
 */
import type { CoreV1Event, V1Container, V1ContainerStatus, V1Deployment, V1Pod } from '@kubernetes/client-node';

/** Failure classes; each has a default {@link ClassPolicy}. */
export type FailureClass =
  | 'image-pull-not-found'
  | 'image-pull-transient'
  | 'crash-loop'
  | 'oom-killed'
  | 'readiness-probe'
  | 'readiness-gate'
  | 'config-error'
  | 'mount-failed'
  | 'init-container'
  | 'init-running'
  | 'unschedulable'
  | 'pvc-pending'
  | 'storage-class-not-found'
  | 'replica-failure'
  | 'progress-deadline'
  | 'workload-deleted'
  | 'node-not-ready'
  | 'pods-ended'
  | 'paused'
  | 'rollout-blocked'
  | 'forced-rollback'
  | 'job-failed'
  | 'job-pod-failed'
  | 'job-suspended';

/**
 * The class of a problem found by a user {@link Classifier}: `custom:` followed by the
 * classifier's `name`, e.g. `custom:migration-failed`.
 */
export type CustomClass = `custom:${string}`;

/** The class of a {@link Problem}: a built-in {@link FailureClass} or a {@link CustomClass}. */
export type ProblemClass = FailureClass | CustomClass;

/** How one failure class affects the verdict. */
export interface ClassPolicy {
  /** `fail`: fail the rollout once the condition persisted `afterSeconds`; `warn`: report only. */
  action: 'fail' | 'warn' | 'ignore';
  /** Seconds the problem must persist (from its first signal) before it fails the rollout. */
  afterSeconds: number;
  /** `any-pod`: one affected pod is enough; `all-new-pods`: every pod of the new ReplicaSet. */
  scope: 'any-pod' | 'all-new-pods';
  /**
   * Crash classes only (crash-loop, oom-killed, init-container): restarts needed before the
   * problem can fail the rollout, so that a single crash followed by Ready never fails it.
   */
  minRestarts?: number;
  /**
   * Pods that may have this problem without failing the rollout (kubedog's AllowFailuresCount):
   * the class fails it only once more than `tolerate` pods have it past `afterSeconds`. Default 0.
   * Problems of ReplicaSets, PVCs and the Deployment are not counted in pods and ignore it.
   */
  tolerate?: number;
}

/**
 * What counts as success. `full` is Pulumi's predicate; the others need the new ReplicaSet's ready
 * pods to reach: desired - maxUnavailable (krane), a percentage of desired (rounded up), or a
 * number of pods (at most desired).
 */
export type SuccessCriterion =
  | { mode: 'full' }
  | { mode: 'maxUnavailable' }
  | { mode: 'percent'; percent: number }
  | { mode: 'pods'; pods: number };

/** What a {@link Classifier} is shown: one container of one pod of the new ReplicaSet. */
export interface ClassifierInput {
  /** The pod (read-only: never mutate it). */
  pod: V1Pod;
  /** The container's status (`state`, `lastState`, `restartCount`, `ready`...). */
  container: V1ContainerStatus;
  /** The container's spec from the pod, if found. */
  spec?: V1Container;
  /** True for an init container. */
  init: boolean;
  /**
   * Every Event about this pod that the tracker has seen: every Warning, and the Normal ones since
   * the trace started (the backlog leaves out a pod's routine Normal Events: Scheduled, Pulling,
   * Pulled, Created, Started and Killing; see docs/performance.md).
   */
  events: CoreV1Event[];
  /** The Deployment being rolled out. */
  deployment?: V1Deployment;
  /** Time of the observation being reduced (ms since the epoch): use it instead of the clock. */
  now: number;
}

/** What a {@link Classifier} returns when its rule matches. */
export interface ClassifierResult {
  /** Short machine-style reason, e.g. `MigrationFailed` (shown in parentheses, like Kubernetes reasons). */
  reason: string;
  /** The cause in plain words, e.g. `the schema migration failed (exit 3)`: the verdict's summary. */
  explanation: string;
  /** Raw detail (default: empty). */
  message?: string;
  /** Exit code to report (default: the container's current, else last, terminated exit code). */
  exitCode?: number;
}

/**
 * A user failure rule: a pure, synchronous function called for every container (init containers
 * included) of every live pod of the new ReplicaSet, at every observation. When it returns a
 * result, the container has a problem of class `custom:<name>` that goes through the same policy
 * as built-in classes (window from its first signal, scope, warn/ignore). Returning `undefined`
 * (or `null`/`false`) clears it. A classifier that throws or returns something malformed never
 * crashes the rollout: it is skipped for that container and reported once as a `k8s-event`
 * Warning with reason `ClassifierFailed`.
 *
 * @example
 * ```ts
 * const migration: Classifier = {
 *   name: 'migration-failed',
 *   classify: ({ container }) =>
 *     container.lastState?.terminated?.exitCode === 3
 *       ? { reason: 'MigrationFailed', explanation: 'the schema migration failed (exit 3)' }
 *       : undefined,
 *   afterSeconds: 0,
 * };
 * ```
 */
export interface Classifier {
  /** Lower-case letters, digits and `-`; unique; not a built-in class name. The class is `custom:<name>`. */
  name: string;
  /** The rule. Must be synchronous, must not mutate its input, and should not read the clock. */
  classify: (input: ClassifierInput) => ClassifierResult | undefined | null | false;
  /** Default `fail`. */
  action?: ClassPolicy['action'];
  /** Seconds the problem must persist before it fails the rollout. Default 10. */
  afterSeconds?: number;
  /** Default `any-pod`. */
  scope?: ClassPolicy['scope'];
  /** Restarts of the container needed before the problem can fail the rollout. Default 0. */
  minRestarts?: number;
  /** Pods that may have the problem without failing the rollout. Default 0. */
  tolerate?: number;
}

/** A validated {@link Classifier} with its policy knobs filled in. */
export type ResolvedClassifier = Classifier & ClassPolicy;

/** The complete, validated policy. */
export interface Policy {
  classes: Record<FailureClass, ClassPolicy>;
  success: SuccessCriterion;
  /** User failure rules, validated, in the order given (absent when there are none). */
  classifiers?: ResolvedClassifier[];
  /**
   * Seconds a new-revision pod must stay Ready after a failing-class problem on it cleared (or
   * after its container restarted from a crash) before the rollout may succeed. Default 5.
   */
  settleSeconds: number;
}

/** User overrides merged over the default policy. */
export interface PolicyOverrides {
  /**
   * Per failure class. `deployment-deleted` is accepted as the former name of `workload-deleted`
   * (deprecated).
   */
  classes?: Partial<Record<FailureClass | 'deployment-deleted', Partial<ClassPolicy>>>;
  success?: SuccessCriterion;
  /** User failure rules (see {@link Classifier}). */
  classifiers?: Classifier[];
  /** See {@link Policy.settleSeconds}. */
  settleSeconds?: number;
}
