/**
 * Diagnosed problems, the Events and log lines they quote (part of the core contract,
 * re-exported by ./types.ts).
 */

import type { ProblemClass } from './policy-types.js';
import type { WorkloadKind } from './ref-types.js';

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
  /**
   * When the tail was read (ms), if before the verdict: it was read when the problem was first
   * seen, and the pod or its log was gone by the verdict (deleted by its controller, evicted).
   */
  capturedAt?: number;
}

/** One diagnosed problem: the real cause in plain words plus the raw reason. */
export interface Problem {
  /** Stable key: `class/Kind/name[/container]`. */
  id: string;
  /** A built-in {@link FailureClass}, or `custom:<name>` for a problem found by a {@link Classifier}. */
  class: ProblemClass;
  /** The object the problem is about. */
  object: { kind: 'Pod' | 'ReplicaSet' | 'PersistentVolumeClaim' | WorkloadKind; name: string };
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
  /**
   * `replica-failure` only: the controller's retry will pass without anyone acting. The API server
   * failed the create for a reason of its own (an internal error, a timeout, overload, an
   * unreachable admission webhook), or a quota refused it while pods that still hold it (the
   * workload's, or the namespace's as the tracker lists them) are terminating. Such a refusal gets
   * a longer window.
   */
  transient?: boolean;
  /**
   * A `transient` `replica-failure` that a quota refused while pods of the workload were
   * terminating: the latest time (ms since the epoch) the controller's retry after those pods are
   * gone is due. Its window lasts at least until then.
   */
  retryBy?: number;
  /** `node-not-ready` only: the pod's node and its Ready condition. */
  node?: NodeProblem;
  /**
   * The pod was deleted while this problem was open (a failed Job's pods removed by the Job
   * controller, an eviction, a scale-down, `kubectl delete`): the problem is kept for the verdict,
   * with what was seen of it, so its cause is not lost. It no longer decides anything.
   */
  podDeleted?: boolean;
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
