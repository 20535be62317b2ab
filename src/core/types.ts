/**
 * The contract between the pure core, the tracker and the sinks.
 *
 * Data flows one way: cluster → watch source → {@link Observation} → pure reducer →
 * {@link RolloutEvent} → sinks. Nothing in `src/core/` does I/O or reads a clock: time is the `at`
 * field of each observation (milliseconds since the epoch).
 *
 * Fields may be added; renaming or removing one breaks every sink, so don't.
 */
import type {
  CoreV1Event,
  V1Container,
  V1ContainerStatus,
  V1Deployment,
  V1Node,
  V1PersistentVolumeClaim,
  V1Pod,
  V1ReplicaSet,
} from '@kubernetes/client-node';

/** Identifies one Deployment. */
export interface DeploymentRef {
  namespace: string;
  name: string;
}

/** The object kinds the watch source delivers to the core. */
export type WatchedKind = 'Deployment' | 'ReplicaSet' | 'Pod' | 'Event' | 'PersistentVolumeClaim' | 'Node';

/** Maps a watched kind to its client-node object type. */
export interface KindToObject {
  Deployment: V1Deployment;
  ReplicaSet: V1ReplicaSet;
  Pod: V1Pod;
  Event: CoreV1Event;
  PersistentVolumeClaim: V1PersistentVolumeClaim;
  /** Cluster-scoped: the nodes pods run on (read-only; optional, RBAC may refuse it). */
  Node: V1Node;
}

/** An object change seen by the watch source. */
export type ObjectObservation = {
  [K in WatchedKind]: { type: 'upsert' | 'delete'; kind: K; object: KindToObject[K]; at: number };
}[WatchedKind];

/**
 * One input to the reducer.
 * - `upsert`/`delete`: an object was added, modified or deleted (from a list or a watch).
 * - `synced`: the initial list of every kind is complete, so the absence of an object now means
 *   something (e.g. the Deployment does not exist).
 * - `tick`: time passed; lets the reducer apply policy windows and grace periods.
 * - `timeout` / `cancel`: the tracker's deadline fired, or the caller aborted.
 */
export type Observation =
  | ObjectObservation
  | { type: 'synced'; at: number }
  | { type: 'tick'; at: number }
  | {
      type: 'timeout';
      at: number;
      timeoutSeconds: number;
      /** Which deadline fired: the overall one (default) or the no-progress one. */
      timeoutKind?: 'overall' | 'no-progress';
    }
  | { type: 'cancel'; at: number; reason?: string };

/** What is being tracked, and against what. */
export interface TrackTarget extends DeploymentRef {
  /**
   * The Deployment's `deployment.kubernetes.io/revision` before the change being tracked
   * (Pulumi's `lastOutputs`). When set, success needs a ReplicaSet of a *different* revision if
   * the template changed. When undefined (create, or a CLI trace), the current revision counts.
   */
  baselineRevision?: string;
  /** `metadata.generation` the caller just wrote; older observed objects are treated as stale. */
  minGeneration?: number;
}

/** Failure classes; each has a default {@link ClassPolicy}. */
export type FailureClass =
  | 'image-pull-not-found'
  | 'image-pull-transient'
  | 'crash-loop'
  | 'oom-killed'
  | 'readiness-probe'
  | 'config-error'
  | 'mount-failed'
  | 'init-container'
  | 'unschedulable'
  | 'pvc-pending'
  | 'replica-failure'
  | 'progress-deadline'
  | 'deployment-deleted'
  | 'node-not-ready'
  | 'paused';

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
  /** Every Event (Normal and Warning) about this pod that the tracker has seen. */
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
  classes?: Partial<Record<FailureClass, Partial<ClassPolicy>>>;
  success?: SuccessCriterion;
  /** User failure rules (see {@link Classifier}). */
  classifiers?: Classifier[];
  /** See {@link Policy.settleSeconds}. */
  settleSeconds?: number;
}

/** A Kubernetes Event, condensed. */
export interface EventDigest {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** `Kind/name` of the involved object. */
  object: string;
  count: number;
  /** ISO time of the last occurrence. */
  lastSeen: string;
}

/** The last lines of one container's log. */
export interface LogTail {
  pod: string;
  container: string;
  /** True for the previous (crashed) instance. */
  previous: boolean;
  lines: string[];
  /** Why the log could not be fetched, if it could not. */
  error?: string;
}

/** One diagnosed problem: the real cause in plain words plus the raw reason. */
export interface Problem {
  /** Stable key: `class/Kind/name[/container]`. */
  id: string;
  /** A built-in {@link FailureClass}, or `custom:<name>` for a problem found by a {@link Classifier}. */
  class: ProblemClass;
  /** The object the problem is about. */
  object: { kind: 'Pod' | 'ReplicaSet' | 'Deployment' | 'PersistentVolumeClaim'; name: string };
  container?: string;
  initContainer?: boolean;
  /** Raw Kubernetes reason, e.g. `ImagePullBackOff`, `FailedCreate`, `Unschedulable`. */
  reason: string;
  /** Raw Kubernetes message. */
  message: string;
  /** The cause in plain words, e.g. `image "nginx:nope" does not exist in its registry`. */
  explanation: string;
  exitCode?: number;
  restartCount?: number;
  terminationMessage?: string;
  probe?: { kind: 'readiness' | 'liveness' | 'startup'; handler: string; failures: number };
  missing?: { kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim'; name: string; key?: string };
  /** When the first signal was seen (ms). */
  firstSeen: number;
  lastSeen: number;
  /** Warning events about the object. */
  events: EventDigest[];
  /** Filled by the tracker when a verdict fails (core leaves it undefined). */
  logs?: LogTail[];
  /** Copy-paste kubectl commands to dig further. */
  hints: string[];
  /** Unschedulable only: the cluster-autoscaler triggered a scale-up for this pod (wait longer). */
  autoscaling?: boolean;
  /** `node-not-ready` only: the pod's node and its Ready condition. */
  node?: NodeProblem;
}

/** The node of a `node-not-ready` problem. */
export interface NodeProblem {
  name: string;
  /** Ready condition status: `False` (the kubelet says so) or `Unknown` (no heartbeat: unreachable). */
  status: string;
  /** ISO time the node stopped being Ready (the condition's lastTransitionTime), if known. */
  since?: string;
  /** The Ready condition's reason and message, e.g. `NodeStatusUnknown`, `Kubelet stopped posting node status.` */
  reason?: string;
  message?: string;
  /**
   * Seconds the pod tolerates the node's not-ready/unreachable taint before it is evicted and
   * replaced (its NoExecute toleration, 300 by default); undefined when it is never evicted.
   */
  evictionSeconds?: number;
}

/** A pod's coarse state, as shown by the sinks. */
export type PodState =
  | 'pending'
  | 'scheduled'
  | 'container-creating'
  | 'initializing'
  | 'running'
  | 'ready'
  | 'terminating'
  | 'succeeded'
  | 'failed'
  | 'waiting';

/** The three rollout phases from the kubespy article, plus completion. */
export type RolloutPhase = 'new-replicaset' | 'scaling-up' | 'scaling-down-old' | 'complete';

/** The final answer. */
export interface Verdict {
  outcome: 'succeeded' | 'failed' | 'timed-out' | 'cancelled';
  deployment: DeploymentRef;
  revision?: string;
  /** One line, e.g. `revision 2 rolled out: 3/3 pods ready` or `pod x: image "y" not found`. */
  summary: string;
  problems: Problem[];
  replicas: { desired: number; ready: number; updated: number; available: number };
  startedAt: number;
  finishedAt: number;
  /** The older revision whose pod template this revision brings back (a rollback, e.g. `kubectl rollout undo`). */
  restores?: string;
  /** For `timed-out`: which timeout fired. */
  timeoutSeconds?: number;
  /** For `timed-out`: `overall` (the deadline) or `no-progress` (nothing moved for `timeoutSeconds`). */
  timeoutKind?: 'overall' | 'no-progress';
  /** Pulumi's await sub-error lines for the same state, for parity with `pulumi up`. */
  pulumiMessages: string[];
  /** Copy-paste kubectl commands. */
  hints: string[];
}

/** Fields every {@link RolloutEvent} carries. */
export interface EventBase {
  at: number;
  deployment: DeploymentRef;
}

/** The typed event stream every sink consumes. */
export type RolloutEvent = EventBase &
  (
    | { type: 'started' }
    | {
        type: 'waiting';
        /** `api-server`: the apiserver is down, frozen or overloaded and is being retried (from the tracker, not the core). */
        reason: 'not-found' | 'controller-reconciling' | 'api-server';
        message: string;
      }
    | {
        type: 'revision';
        revision: string;
        previous?: string;
        /** initial: first seen; new: template change; rollback: an older template returned. */
        change: 'initial' | 'new' | 'rollback';
        /** The older revision whose pod template this one brings back (a rollback, also when first seen). */
        restores?: string;
      }
    | { type: 'superseded'; revision: string; by: string }
    | { type: 'phase'; phase: RolloutPhase; message: string }
    | {
        type: 'replicaset';
        name: string;
        revision: string;
        role: 'new' | 'old';
        desired: number;
        ready: number;
        available: number;
        /** True the first time this ReplicaSet is seen. */
        created: boolean;
      }
    | {
        type: 'pod';
        name: string;
        replicaSet?: string;
        revision?: string;
        state: PodState;
        previous?: PodState;
        node?: string;
        /** e.g. waiting reason, `2 restarts`. */
        detail?: string;
      }
    | { type: 'pod-deleted'; name: string; replicaSet?: string }
    | { type: 'pod-orphaned'; name: string; replicaSet: string }
    | { type: 'condition'; condition: string; status: string; reason?: string; message?: string }
    | { type: 'paused' }
    | { type: 'resumed' }
    | { type: 'scaled'; from: number; to: number }
    | {
        type: 'progress';
        desired: number;
        ready: number;
        updated: number;
        available: number;
        /** Pulumi-style line: `Waiting for app ReplicaSet to be available (1/3 Pods available)`. */
        message: string;
      }
    | { type: 'k8s-event'; event: EventDigest }
    | {
        type: 'problem';
        problem: Problem;
        /** When the policy will fail the rollout (ms), if it will. */
        failsAt?: number;
        /** Pods the policy lets have this problem: it fails the rollout only on more (`tolerate`). */
        tolerated?: number;
      }
    | { type: 'problem-cleared'; id: string; problem: Problem }
    | {
        /**
         * The success criterion is met, but success is held: a failing-class problem is open on a
         * new-revision pod, or such a pod has not stayed Ready for `settleSeconds` since it recovered.
         */
        type: 'held';
        /** e.g. `pod web-2-abc container "app": exited with code 3, 2 restarts; success waits until it clears`. */
        message: string;
        /** The pods holding success. */
        pods: string[];
        /** When the hold ends if nothing changes (ms); absent while a problem is open. */
        until?: number;
      }
    | {
        /** One line of a new-revision container's log (opt-in live stream, already redacted and filtered). */
        type: 'log';
        pod: string;
        container: string;
        revision?: string;
        line: string;
      }
    | { type: 'verdict'; verdict: Verdict }
  );

/** Narrows {@link RolloutEvent} by its `type`. */
export type RolloutEventOf<T extends RolloutEvent['type']> = Extract<RolloutEvent, { type: T }>;
