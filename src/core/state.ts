/**
 * The reducer's state. Single-owner: `reduce` consumes the state it is given and returns the next
 * one, updating the caches, indexes and memos in place (O(1) per observation instead of copying
 * whole maps). Keep only the newest state; passing an older one to `reduce` throws.
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
import type { KindFacts } from './kind-facts.js';
import type { Policy, Problem, TerminatingPod, TrackTarget, Verdict } from './types.js';

/**
 * Pulumi's Deployment awaiter flags, updated by the same rules and on the same kinds of events as
 * pulumi/pulumi-kubernetes `provider/pkg/await/deployment.go` (its awaiter state, event loop and
 * success predicate `checkAndLogStatus`).
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
  kubeEvents: Record<string, string>;
  /** Problem id -> key of its last `problem` event. */
  problems: Record<string, string>;
  /** Pod -> container -> first time it was seen running but not ready (readiness window start). */
  notReadySince: Record<string, Record<string, number>>;
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
  /** Uids of owned ReplicaSets (or of the traced workload) whose pods were all walked once (later only touched pods are looked at). */
  walked: Record<string, true>;
  /** Involved-object names whose Events are shown (target, owned ReplicaSets and pods, referenced PVCs). */
  eventNames: Record<string, true>;
  /** Key of the current template's pod set when problems were last diagnosed for every pod (currentPodSetKey). */
  diagnosedPodSet?: string;
  /** New-revision pods seen ended (Failed/Succeeded) within the `pods-ended` window, by name (ended-pods.ts). */
  ended: Record<string, EndedPod>;
  /** Keys of the `note` events already emitted (each is said once). */
  notes: Record<string, true>;
  /**
   * Node -> pods refused there since the note of the refusal was said, not listed one by one, and
   * why they were refused (ended-pods.ts); removed, with a note of the count, once a pod runs there.
   */
  refusing: Record<string, { count: number; why: string }>;
  /** Node -> when a traced pod there was last seen leaving it (deleted) (ms; ended-pods.ts). */
  freedAt: Record<string, number>;
  /** Pods not listed (rows and Events) because they are part of a refusal counted in `refusing`. */
  folded: Record<string, true>;
  /**
   * Problems of pods deleted while the problem was open, oldest first, at most `MAX_DEPARTED`
   * (departed.ts): a failed verdict lists those of its revision after the open problems.
   */
  departed: CauseSeen[];
  /**
   * Pod -> its latest problem with an exit code (a container that ended), kept after the problem
   * cleared (the container restarted): a pod deleted between two crashes is kept with it.
   */
  podCauses: Record<string, CauseSeen>;
  /**
   * The traced workload's last pods deleted, as the delete showed them (their final status), oldest
   * first, at most `MAX_DEPARTED` (departed.ts): a Job's failed exit is still known when the pod
   * went before the trace saw it end (a trace that started late, a delete merged into one batch).
   */
  departedPods: V1Pod[];
  /** Uids of ReplicaSets (or workloads) a Ready pod of which left the cache (hold.ts: a status that still counts it). */
  readyLost: Record<string, true>;
}

/** A pod problem kept beyond its pod's life (departed.ts), with the revision it was seen in. */
export interface CauseSeen {
  problem: Problem;
  revision?: string;
}

/** A new-revision pod that ended (ended-pods.ts). */
export interface EndedPod {
  /** When it ended (ms; a lower bound when it was first seen already ended). */
  at: number;
  /** Its creationTimestamp (ms). */
  created: number;
  /** Evicted for node pressure or rejected at admission: it did not fit where it was scheduled. */
  unfit: boolean;
  reason: string;
  message: string;
  /** Its `note`, e.g. `pod web-x evicted: The node was low on resource: memory. …`. */
  note: string;
  /** The current pod set it belonged to (workloads.ts `currentPodSetKey`: a ReplicaSet's uid, a workload's uid and revision). */
  podSet: string;
}

/** Tells which state is the newest: see {@link RolloutState}. */
export interface StateOwner {
  seq: number;
}

/**
 * The complete reducer state. Outside the core, treat it as opaque: pass it back to `reduce`.
 * Only `target`, `verdict` and `problems` are stable API; the caches and memos may change shape
 * in any release.
 */
export interface RolloutState {
  readonly target: TrackTarget;
  /** The facts of the target's kind (the registry's, set by `initialState`): what the shared code reads of its kind. */
  readonly facts: KindFacts;
  readonly policy: Policy;
  readonly startedAt: number;
  /** `at` of the last observation. */
  readonly now: number;
  readonly synced: boolean;
  /**
   * Which Events are in: `listed` (all: the default), `replayed` (only those written since a
   * recent revision; the Events of {@link fresh} objects are complete) or `missing` (that replay
   * broke before the list came). See event-backlog.ts.
   */
  readonly eventBacklog: 'listed' | 'replayed' | 'missing';
  /** Uids of Pods and ReplicaSets created after that start revision (kept while the backlog is not listed). */
  readonly fresh: Set<string>;
  /** The traced workload (of `target.kind`), once seen: the one object every kind's trace follows. */
  readonly workload?: V1Deployment | V1StatefulSet | V1DaemonSet | V1Job;
  /** Generation of a Deployment seen but ignored as stale (below `target.minGeneration`). */
  readonly staleGeneration?: number;
  /** True once a `delete` of the traced workload was observed. */
  readonly deleted: boolean;
  /** Candidate ReplicaSets by uid (ownerReference Deployment named like the target; UID checked on use). */
  readonly replicaSets: Map<string, V1ReplicaSet>;
  /**
   * Candidate Pods by name (owned by a ReplicaSet named `<deployment>-...`, or by the traced
   * StatefulSet, DaemonSet or Job; UID checked on use).
   */
  readonly pods: Map<string, V1Pod>;
  /**
   * Index of {@link pods}: owner uid (the pod's ReplicaSet ownerReference, or for a StatefulSet,
   * DaemonSet or Job trace its owner of that kind) -> pod name -> pod.
   */
  readonly podsByOwner: Map<string, Map<string, V1Pod>>;
  /** Pods that were owned by one of our ReplicaSets: pod name -> ReplicaSet name. */
  readonly ownedPods: Map<string, string>;
  /** Candidate Events by uid (at most {@link EVENTS_PER_OBJECT} per involved object name). */
  readonly kubeEvents: Map<string, CoreV1Event>;
  /** Event uids by involved object name , oldest first: diagnosis looks events up per object. */
  readonly kubeEventsByObject: Map<string, string[]>;
  /** Event uid -> order of first arrival (ties in event time are shown in arrival order). */
  readonly kubeEventArrival: Map<string, number>;
  /** PersistentVolumeClaims by name. */
  readonly pvcs: Map<string, V1PersistentVolumeClaim>;
  /** Every node by name (taints, labels): kept for a DaemonSet trace only (daemonset-nodes.ts). */
  readonly nodes: Map<string, V1Node>;
  /** The namespace's terminating pods, from the tracker's last list (quota-holders.ts); undefined if it never listed. */
  readonly terminatingListed?: { at: number; pods: readonly TerminatingPod[] };
  /** Nodes that are not Ready, by name (Ready nodes are not kept). */
  readonly notReadyNodes: Record<string, NodeReadiness>;
  readonly pulumi: PulumiAwaitState;
  /** Current problems by id. */
  readonly problems: Readonly<Record<string, Problem>>;
  readonly memo: EmittedMemo;
  /** Set once; the state is final afterwards (unless {@link watchedOn} drops it). */
  readonly verdict?: Verdict;
  /** Shared by every state of one trace; `owner.seq === seq` only for the newest. */
  readonly owner: StateOwner;
  readonly seq: number;
}

/**
 * `state` after its verdict, made to report changes again: the verdict is dropped, every cache and
 * memo kept, so `reduce` emits only what changes from here on (the tracker's watch after the
 * verdict, the CLI's `--watch`). A verdict it reaches later is a judgement nobody asked for: the
 * caller ignores it and calls this again. Consumes `state` like `reduce` does.
 */
export function watchedOn(state: RolloutState): RolloutState {
  const { verdict: _judged, ...rest } = state;
  return rest;
}

/** Events kept per involved object name; older ones are forgotten (their news was already emitted). */
export const EVENTS_PER_OBJECT = 32;

/** A node's Ready condition, as kept for diagnosis. */
export interface NodeReadiness {
  status: string;
  since?: string;
  reason?: string;
  message?: string;
}

/** The traced Deployment, once seen (undefined for a trace of another kind). */
export function tracedDeployment(state: Pick<RolloutState, 'target' | 'workload'>): V1Deployment | undefined {
  return state.target.kind === 'Deployment' ? (state.workload as V1Deployment | undefined) : undefined;
}
