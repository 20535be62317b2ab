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
  V1Deployment,
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
export type WatchedKind = 'Deployment' | 'ReplicaSet' | 'Pod' | 'Event' | 'PersistentVolumeClaim';

/** Maps a watched kind to its client-node object type. */
export interface KindToObject {
  Deployment: V1Deployment;
  ReplicaSet: V1ReplicaSet;
  Pod: V1Pod;
  Event: CoreV1Event;
  PersistentVolumeClaim: V1PersistentVolumeClaim;
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
  | 'deployment-deleted';

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
}

/** What counts as success. `full` is Pulumi's predicate. */
export type SuccessCriterion =
  | { mode: 'full' }
  | { mode: 'maxUnavailable' }
  | { mode: 'percent'; percent: number };

/** The complete, validated policy. */
export interface Policy {
  classes: Record<FailureClass, ClassPolicy>;
  success: SuccessCriterion;
}

/** User overrides merged over the default policy. */
export interface PolicyOverrides {
  classes?: Partial<Record<FailureClass, Partial<ClassPolicy>>>;
  success?: SuccessCriterion;
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
  class: FailureClass;
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
    | { type: 'waiting'; reason: 'not-found' | 'controller-reconciling'; message: string }
    | {
        type: 'revision';
        revision: string;
        previous?: string;
        /** initial: first seen; new: template change; rollback: an older template returned. */
        change: 'initial' | 'new' | 'rollback';
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
    | { type: 'problem'; problem: Problem; /** When the policy will fail the rollout (ms), if it will. */ failsAt?: number }
    | { type: 'problem-cleared'; id: string; problem: Problem }
    | { type: 'verdict'; verdict: Verdict }
  );

/** Narrows {@link RolloutEvent} by its `type`. */
export type RolloutEventOf<T extends RolloutEvent['type']> = Extract<RolloutEvent, { type: T }>;
