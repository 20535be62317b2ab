/**
 * Verdicts and the typed rollout events the core emits (part of the core contract, re-exported by
 * ./types.ts; the problems they carry are in ./problem-types.ts).
 */

import type { EventDigest, LogTail, Problem } from './problem-types.js';
import type { NamespacedName, WorkloadKind, WorkloadRef } from './ref-types.js';
import type { RolloutTimings } from './timing-types.js';

/** A Job's pod counts ({@link Verdict.job}). */
export interface JobCounts {
  succeeded: number;
  failed: number;
  active: number;
  completions?: number;
  /** `spec.backoffLimit` (default 6): failed pods the Job retries before it fails. */
  backoffLimit: number;
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

/**
 * The phases of a rollout: a Deployment's are the kubespy article's three (`new-replicaset`,
 * `scaling-up`, `scaling-down-old`); a StatefulSet's `scaling-up` (ordinals created) and
 * `updating` (replaced from the highest ordinal down); a DaemonSet's `scaling-up` (a pod per node)
 * and `updating`; a Job's `suspended` (waiting to be admitted) and `running`; every kind's
 * `complete`, with its success.
 */
export type RolloutPhase = 'new-replicaset' | 'scaling-up' | 'scaling-down-old' | 'updating' | 'suspended' | 'running' | 'complete';

/** The final answer. */
export interface Verdict {
  outcome: 'succeeded' | 'failed' | 'timed-out' | 'cancelled';
  /** The traced workload: its kind, namespace and name. */
  workload: WorkloadRef;
  /**
   * Namespace and name of the traced workload.
   * @deprecated Read {@link Verdict.workload}, which also names the kind.
   */
  deployment: NamespacedName;
  /**
   * The kind of the traced workload; absent means `Deployment`.
   * @deprecated Read `workload.kind`.
   */
  kind?: WorkloadKind;
  revision?: string;
  /**
   * True for a timeout or cancel before the workload was ever found (a timeout shorter than the
   * not-found grace); its counts are then zeros. Absent otherwise.
   */
  notFound?: true;
  /** One line, e.g. `revision 2 rolled out: 3/3 pods ready` or `pod x: image "y" not found`. */
  summary: string;
  problems: Problem[];
  replicas: { desired: number; ready: number; updated: number; available: number };
  /**
   * A Job's counts in its own words (absent for the other kinds): pods succeeded, failed (every
   * retry) and active, its `spec.completions` (absent for a work-queue Job) and `spec.backoffLimit`.
   */
  job?: JobCounts;
  startedAt: number;
  finishedAt: number;
  /** The older revision whose pod template this revision brings back (a rollback, e.g. `kubectl rollout undo`). */
  restores?: string;
  /** Where the time went: each current-template pod's phases, and the one that took most (timing-types.ts). */
  timings?: RolloutTimings;
  /** For `timed-out`: which timeout fired. */
  timeoutSeconds?: number;
  /** For `timed-out`: `overall` (the deadline) or `no-progress` (nothing moved for `timeoutSeconds`). */
  timeoutKind?: 'overall' | 'no-progress';
  /**
   * A Job that succeeded, with `logs.onSuccess` (the CLI's `--logs-on-success`): the log tails of
   * its succeeded pods (at most 3, the last by name), since a migration's output is what people
   * want to read.
   */
  logs?: LogTail[];
  /** Pulumi's await sub-error lines for the same state, for parity with `pulumi up`. */
  pulumiMessages: string[];
  /** Copy-paste kubectl commands. */
  hints: string[];
}

/** Fields every {@link RolloutEvent} carries. */
export interface EventBase {
  at: number;
  /** The traced workload: its kind, namespace and name. */
  workload: WorkloadRef;
  /**
   * Namespace and name of the traced workload.
   * @deprecated Read {@link EventBase.workload}, which also names the kind; kept for consumers of
   * Deployment traces.
   */
  deployment: NamespacedName;
  /**
   * The kind of the traced workload; absent means `Deployment`.
   * @deprecated Read `workload.kind`.
   */
  kind?: WorkloadKind;
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
        /** Pods of the Deployment still terminating (`status.terminatingReplicas`, Kubernetes 1.33+); absent when 0 or unknown. */
        terminating?: number;
        /** Pulumi-style line: `Waiting for app ReplicaSet to be available (1/3 Pods available)`. */
        message: string;
      }
    | { type: 'k8s-event'; event: EventDigest }
    | {
        /**
         * Worth knowing, not a problem, said once: a new-revision pod ended (evicted, rejected by
         * its node's kubelet, shut down with its node) in its own words, a pod about to be disrupted
         * (`DisruptionTarget`), a container whose state its node lost (`ContainerStatusUnknown`).
         */
        type: 'note';
        /** `Kind/name` of the object it is about, e.g. `Pod/web-2-abc`. */
        object: string;
        /** e.g. `pod web-2-abc evicted: The node was low on resource: memory. …`. */
        message: string;
      }
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
