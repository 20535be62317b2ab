/**
 * The traced workload object and its pods, as every kind has them: the object's type, the labels
 * its controllers put on pods, its pods by owner, the terminating pods that hold a quota. Which of
 * its pods run the current template is its kind's (current-pods.ts).
 */
import type { V1DaemonSet, V1Deployment, V1Job, V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { hasEnded, isTerminalPhase, timeOf } from './k8s.js';
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
  return state.target.kind;
}

/** Pods owned (by uid) by the traced StatefulSet, DaemonSet or Job, sorted by name. */
export function workloadPods(state: RolloutState): V1Pod[] {
  const uid = state.workload?.metadata?.uid;
  if (!uid) return [];
  return [...(state.podsByOwner.get(uid)?.values() ?? [])].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
}

/** Job pods whose logs a succeeded verdict shows (`logs.onSuccess`): at most this many. */
export const SUCCESS_LOG_PODS = 3;

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
