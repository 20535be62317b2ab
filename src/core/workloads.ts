/**
 * The traced workload's pods and revisions, for every kind, each read through its kind's module
 * (kinds/): which pods run the current template (`current`) and the revision of a pod and of the
 * object (`podRevision`, `templateRevision`). A Deployment's current pods are its new
 * ReplicaSet's (relations.ts); a StatefulSet's and a DaemonSet's are those labelled with the
 * object's current revision, a Job's all of them (kinds/owned-pods.ts).
 */ import type { V1DaemonSet, V1Deployment, V1Job, V1Pod, V1StatefulSet } from '@kubernetes/client-node';

export { WORKLOAD_KINDS } from './kinds/facts.js';

import { hasEnded, isTerminalPhase, timeOf } from './k8s.js';
import { kindModule, moduleOf } from './kinds/index.js';
import { ownedReplicaSets } from './relations.js';
import type { RolloutState } from './state.js';
import type { WorkloadKind } from './types.js';

/** The StatefulSet controller's pod label naming the ControllerRevision the pod was created from. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The DaemonSet controller's pod label: the template generation the pod was created from. */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** The API server's annotation on a DaemonSet: the generation of its current template. */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** A traced workload object, of any kind. */
export type Workload = V1Deployment | V1StatefulSet | V1DaemonSet | V1Job;

/** The kind of the traced workload. */
export function kindOf(state: RolloutState): WorkloadKind {
  return state.target.kind ?? 'Deployment';
}

/** Pods owned (by uid) by the traced StatefulSet, DaemonSet or Job, sorted by name. */
export function workloadPods(state: RolloutState): V1Pod[] {
  const uid = state.workload?.metadata?.uid;
  if (!uid) return [];
  return [...(state.podsByOwner.get(uid)?.values() ?? [])].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
}

/**
 * The revision of a workload object's current template, as its kind names it ('' when not known,
 * and for a Job): a Deployment's revision annotation, a StatefulSet's `updateRevision`, a
 * DaemonSet's template generation.
 */
export function revisionOfWorkload(kind: WorkloadKind, w: Workload | undefined): string {
  return w ? kindModule(kind).templateRevision(w) : '';
}

/** The revision of the traced StatefulSet's or DaemonSet's current template ('' when not known, and for a Job). */
export function workloadRevision(state: RolloutState): string {
  return state.workload ? moduleOf(state).templateRevision(state.workload) : '';
}

/** The revision a pod of the traced workload was created from ('' when it carries none). */
export function podRevision(state: RolloutState, pod: V1Pod): string {
  return moduleOf(state).podRevision(pod);
}

/** The pods that run the current template, in no order (the kind's `current`, see the module comment). */
export function currentPodsUnordered(state: RolloutState): Iterable<V1Pod> {
  return moduleOf(state).current.unordered(state);
}

/** {@link currentPodsUnordered}, sorted by name. */
export function currentPods(state: RolloutState): V1Pod[] {
  return moduleOf(state).current.sorted(state);
}

/** The current template's pod `name`, if it is one (see {@link currentPodsUnordered}). */
export function currentPod(state: RolloutState, name: string): V1Pod | undefined {
  return moduleOf(state).current.one(state, name);
}

/**
 * A key of the set of pods that run the current template: it changes when the new ReplicaSet, or
 * the workload or its revision, does (undefined before there is one).
 */
export function currentPodSetKey(state: RolloutState): string | undefined {
  return moduleOf(state).current.key(state);
}

/** Job pods whose logs a succeeded verdict shows (`logs.onSuccess`): at most this many. */
export const SUCCESS_LOG_PODS = 3;

/** The containers whose logs a succeeded verdict shows (a Job's last {@link SUCCESS_LOG_PODS} succeeded pods); none for other kinds. */
export function successLogContainers(state: RolloutState): Array<{ pod: string; container: string }> {
  return moduleOf(state).successLogContainers?.(state) ?? [];
}

/**
 * When the terminating pods that hold a quota are due to be gone (ms), or undefined when none is
 * terminating: the latest of their `deletionTimestamp`s, which the API server sets to the deletion
 * plus the pod's grace period. Under a quota they still count, and free it as they go: the traced
 * workload's own (a rolling update's old pods, scaled down while a surge pod waits for the quota)
 * and, from the tracker's last list, any other pod of the namespace (another workload's rollout, a
 * Deployment deleted to be replaced).
 */
export function terminatingUntil(state: RolloutState): number | undefined {
  const owners =
    kindOf(state) === 'Deployment' ? ownedReplicaSets(state).map((rs) => rs.metadata?.uid ?? '') : [state.workload?.metadata?.uid ?? ''];
  let until: number | undefined;
  for (const owner of owners) {
    for (const pod of state.podsByOwner.get(owner)?.values() ?? []) {
      if (!pod.metadata?.deletionTimestamp || hasEnded(pod)) continue;
      until = Math.max(until ?? 0, timeOf(pod.metadata.deletionTimestamp) ?? 0);
    }
  }
  for (const pod of state.terminatingListed?.pods ?? []) {
    if (isTerminalPhase(pod.phase)) continue;
    const due = timeOf(pod.deletionTimestamp);
    if (due !== undefined) until = Math.max(until ?? 0, due);
  }
  return until;
}
