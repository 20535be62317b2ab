/**
 * The reducer's state. Treated as immutable: `reduce` returns a new object and never mutates
 * the one it was given.
 */
import type { CoreV1Event, V1Deployment, V1PersistentVolumeClaim, V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import type { Policy, Problem, TrackTarget, Verdict } from './types.js';

/**
 * Pulumi's Deployment awaiter flags, updated by the same rules and on the same kinds of events as
 * `provider/pkg/await/deployment.go` (see pulumi-await.md §1.3-1.6).
 */
export interface PulumiAwaitState {
  /** Phase A passed: a Deployment event with `generation == status.observedGeneration` arrived. */
  reconciled: boolean;
  /** `replicaSetGeneration`: the Deployment's revision annotation ('' until known). */
  revision: string;
  deploymentAvailable: boolean;
  replicaSetAvailable: boolean;
  updatedReplicaSetReady: boolean;
  /** `deploymentErrors`, in condition order (Pulumi's Go map order is random). Reset per Deployment event. */
  deploymentErrors: Array<[reason: string, message: string]>;
}

/** What has already been emitted, so that events are only sent on change. */
export interface EmittedMemo {
  started: boolean;
  notFound: boolean;
  reconcilingGeneration?: number;
  /** Revision announced by the last `revision` event. */
  revision?: string;
  /** `${revision}:${phase}` keys already emitted. */
  phases: string[];
  replicaSets: Record<string, string>;
  /** Spec replicas of old ReplicaSets when first seen in this revision (to see them scale down). */
  oldReplicas: Record<string, number>;
  pods: Record<string, string>;
  conditions: Record<string, string>;
  paused?: boolean;
  replicas?: number;
  template?: string;
  progress?: string;
  /** Event uid -> `${reason}|${message}` emitted as k8s-event. */
  events: Record<string, string>;
  /** Problem id -> key of its last `problem` event. */
  problems: Record<string, string>;
  /** Pod/container -> first time it was seen running but not ready (readiness window start). */
  notReadySince: Record<string, number>;
  /** ReplicaSet uid -> revision it had when last seen (to recognise a re-used RS on rollback). */
  rsRevisions: Record<string, string>;
  /** Classifier name -> its first failure, already reported (each classifier is reported once). */
  classifierFailures: Record<string, string>;
  /** The older revision whose template the current revision brings back (a rollback). */
  restores?: string;
  /** New-revision pod -> when it has stayed Ready long enough after a failing-class problem cleared (ms). */
  settling: Record<string, number>;
  /** Key of the last `held` event ('' when success is not held). */
  held?: string;
}

/**
 * The complete reducer state. Outside the core, treat it as opaque: pass it back to `reduce`.
 * Only `target`, `verdict` and `problems` are stable API; the caches and memos may change shape
 * in any release.
 */
export interface RolloutState {
  readonly target: TrackTarget;
  readonly policy: Policy;
  readonly startedAt: number;
  /** `at` of the last observation. */
  readonly now: number;
  readonly synced: boolean;
  readonly deployment?: V1Deployment;
  /** Generation of a Deployment seen but ignored as stale (below `target.minGeneration`). */
  readonly staleGeneration?: number;
  /** True once a `delete` of the Deployment was observed. */
  readonly deleted: boolean;
  /** Candidate ReplicaSets by uid (ownerReference Deployment named like the target; UID checked on use). */
  readonly replicaSets: Readonly<Record<string, V1ReplicaSet>>;
  /** Candidate Pods by name (owned by a ReplicaSet named `<deployment>-...`; UID checked on use). */
  readonly pods: Readonly<Record<string, V1Pod>>;
  /** Pods that were owned by one of our ReplicaSets: pod name -> ReplicaSet name. */
  readonly ownedPods: Readonly<Record<string, string>>;
  /** Candidate Events by uid. */
  readonly events: Readonly<Record<string, CoreV1Event>>;
  /** Event uids by involved object (`eventKey(kind, name)`), in arrival order: diagnosis looks events up per object. */
  readonly eventsByObject: Readonly<Record<string, readonly string[]>>;
  /** PersistentVolumeClaims by name. */
  readonly pvcs: Readonly<Record<string, V1PersistentVolumeClaim>>;
  readonly pulumi: PulumiAwaitState;
  /** Current problems by id. */
  readonly problems: Readonly<Record<string, Problem>>;
  readonly memo: EmittedMemo;
  /** Set exactly once; the state is final afterwards. */
  readonly verdict?: Verdict;
}

/** The {@link RolloutState.eventsByObject} key of an involved object. */
export function eventKey(kind: string, name: string): string {
  return `${kind}/${name}`;
}
