/**
 * The contract between the pure core, the tracker and the sinks.
 *
 * Data flows one way: cluster → watch source → {@link Observation} → pure reducer →
 * {@link RolloutEvent} → sinks. Nothing in `src/core/` does I/O or reads a clock: time is the `at`
 * field of each observation (milliseconds since the epoch).
 *
 * Fields may be added; renaming or removing one breaks every sink, so don't.
 *
 * Split in six files: targets and observations here, workload names in ./ref-types.ts, the failure policy in ./policy-types.ts,
 * problems in ./problem-types.ts, verdicts and events in ./event-types.ts, a verdict's timings in
 * ./timing-types.ts; import them all from here.
 */

import type {
  CoreV1Event,
  V1DaemonSet,
  V1Deployment,
  V1Job,
  V1Node,
  V1PersistentVolumeClaim,
  V1Pod,
  V1ReplicaSet,
  V1StatefulSet,
} from '@kubernetes/client-node';
import type { NamespacedName, WorkloadKind } from './ref-types.js';

/** The object kinds the watch source delivers to the core. */
export type WatchedKind =
  | 'Deployment'
  | 'ReplicaSet'
  | 'Pod'
  | 'Event'
  | 'PersistentVolumeClaim'
  | 'Node'
  | 'StatefulSet'
  | 'DaemonSet'
  | 'Job';

/** Maps a watched kind to its client-node object type. */
export interface KindToObject {
  Deployment: V1Deployment;
  ReplicaSet: V1ReplicaSet;
  Pod: V1Pod;
  Event: CoreV1Event;
  PersistentVolumeClaim: V1PersistentVolumeClaim;
  /** Cluster-scoped: the nodes pods run on (read-only; optional, RBAC may refuse it). */
  Node: V1Node;
  StatefulSet: V1StatefulSet;
  DaemonSet: V1DaemonSet;
  Job: V1Job;
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
 * - `event-backlog`: which Events are in (see src/core/event-backlog.ts). `replayed`: only those
 *   written since a recent revision (it comes before the first object, then `listed` when the
 *   list is in); `missing`: that replay broke before the list came; `listed`: all of them.
 * - `fresh`: the Pod or ReplicaSet of this `uid` was created after that revision, so every Event
 *   about it is among the replayed ones.
 * - `tick`: time passed; lets the reducer apply policy windows and grace periods.
 * - `terminating-pods`: the namespace's terminating pods, as a list at `at` found them (the tracker
 *   lists them while a quota refuses the workload's pods: pods of other workloads free it too).
 * - `timeout` / `cancel`: the tracker's deadline fired, or the caller aborted.
 */
export type Observation =
  | ObjectObservation
  | { type: 'synced'; at: number }
  | { type: 'event-backlog'; at: number; events: 'replayed' | 'missing' | 'listed' }
  | { type: 'fresh'; at: number; uid: string }
  | { type: 'tick'; at: number }
  | { type: 'terminating-pods'; at: number; pods: TerminatingPod[] }
  | {
      type: 'timeout';
      at: number;
      timeoutSeconds: number;
      /** Which deadline fired: the overall one (default) or the no-progress one. */
      timeoutKind?: 'overall' | 'no-progress';
    }
  | { type: 'cancel'; at: number; reason?: string };

/** A pod of the namespace with a `deletionTimestamp`, as a list found it (a `terminating-pods` observation). */
export interface TerminatingPod {
  name: string;
  /** Its `metadata.deletionTimestamp`: the deletion plus its grace period. */
  deletionTimestamp: string;
  /** Its `status.phase`: a pod that ended (Succeeded, Failed) no longer counts against a quota. */
  phase?: string;
}

/** What is being tracked, and against what. */
export interface TrackTarget extends NamespacedName {
  /** The kind of the traced workload (a recording written before it was required names a Deployment by omission: read with `targetOf`). */
  kind: WorkloadKind;
  /**
   * The Deployment's `deployment.kubernetes.io/revision` before the change being tracked
   * (Pulumi's `lastOutputs`). When set, success needs a ReplicaSet of a *different* revision if
   * the template changed. When undefined (create, or a CLI trace), the current revision counts.
   */
  baselineRevision?: string;
  /** `metadata.generation` the caller just wrote; older observed objects are treated as stale. */
  minGeneration?: number;
}

export type * from './event-types.js';
export type * from './policy-types.js';
export type * from './problem-types.js';
export type * from './ref-types.js';
export type * from './timing-types.js';
