/**
 * Which pods run the current template, for every kind (the kind's rule and words are its module's,
 * kinds/). A Deployment's are its new ReplicaSet's (relations.ts).
 *
 * The current template's pods:
 * - StatefulSet: label `controller-revision-hash` equal to `status.updateRevision` (the controller's
 *   own test, `getPodRevision(pod) == updateRevision.Name`);
 * - DaemonSet: label `pod-template-generation` equal to the DaemonSet's annotation
 *   `deprecated.daemonset.template.generation` (the API server sets it to the generation of each
 *   template change; the controller labels each pod with it, and counts a pod updated when either
 *   it or the ControllerRevision hash matches). The generation needs no ControllerRevision watch;
 * - Job: every pod (a Job's template cannot change).
 */
import type { V1DaemonSet, V1Deployment, V1Job, V1Pod, V1StatefulSet } from '@kubernetes/client-node';

export { WORKLOAD_KINDS } from './kinds/facts.js';

import { revisionOf } from './k8s.js';
import { newReplicaSet, podOf, podsOf } from './relations.js';
import type { RolloutState } from './state.js';
import type { WorkloadKind } from './types.js';

/** The StatefulSet controller's pod label naming the ControllerRevision the pod was created from. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The DaemonSet controller's pod label: the template generation the pod was created from. */
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** The API server's annotation on a DaemonSet: the generation of its current template. */
export const DAEMONSET_TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

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
export function revisionOfWorkload(kind: WorkloadKind, w: V1Deployment | V1StatefulSet | V1DaemonSet | V1Job | undefined): string {
  if (!w) return '';
  switch (kind) {
    case 'Deployment':
      return revisionOf(w);
    case 'StatefulSet':
      return (w as V1StatefulSet).status?.updateRevision ?? '';
    case 'DaemonSet':
      return w.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION] ?? '';
    default:
      return '';
  }
}

/** The revision of the traced StatefulSet's or DaemonSet's current template ('' when not known, and for a Job). */
export function workloadRevision(state: RolloutState): string {
  const kind = kindOf(state);
  return kind === 'Deployment' ? '' : revisionOfWorkload(kind, state.workload);
}

/** The revision a pod of the traced workload was created from ('' when it carries none). */
export function podRevision(state: RolloutState, pod: V1Pod): string {
  const labels = pod.metadata?.labels ?? {};
  if (kindOf(state) === 'StatefulSet') return labels[CONTROLLER_REVISION_HASH_LABEL] ?? '';
  if (kindOf(state) === 'DaemonSet') return labels[POD_TEMPLATE_GENERATION_LABEL] ?? '';
  return '';
}

/** Whether `pod` of the traced StatefulSet, DaemonSet or Job runs the current template (`revision`: workloadRevision). */
function runsRevision(state: RolloutState, pod: V1Pod, revision: string): boolean {
  return revision === '' || podRevision(state, pod) === revision;
}

/**
 * The pods that run the current template, in no order: the new ReplicaSet's for a Deployment;
 * for the other kinds see the module comment (all of the workload's pods while its revision is
 * not known yet).
 */
export function* currentPodsUnordered(state: RolloutState): Generator<V1Pod> {
  if (kindOf(state) === 'Deployment') {
    yield* state.podsByOwner.get(newReplicaSet(state)?.metadata?.uid ?? '')?.values() ?? [];
    return;
  }
  const revision = workloadRevision(state);
  for (const pod of state.podsByOwner.get(state.workload?.metadata?.uid ?? '')?.values() ?? []) {
    if (runsRevision(state, pod, revision)) yield pod;
  }
}

/** {@link currentPodsUnordered}, sorted by name. */
export function currentPods(state: RolloutState): V1Pod[] {
  if (kindOf(state) === 'Deployment') return podsOf(state, newReplicaSet(state));
  return [...currentPodsUnordered(state)].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
}

/** The current template's pod `name`, if it is one (see {@link currentPodsUnordered}). */
export function currentPod(state: RolloutState, name: string): V1Pod | undefined {
  if (kindOf(state) === 'Deployment') return podOf(state, newReplicaSet(state), name);
  const pod = state.podsByOwner.get(state.workload?.metadata?.uid ?? '')?.get(name);
  return pod && runsRevision(state, pod, workloadRevision(state)) ? pod : undefined;
}

/**
 * A key of the set of pods that run the current template: it changes when the new ReplicaSet, or
 * the workload or its revision, does (undefined before there is one).
 */
export function currentPodSetKey(state: RolloutState): string | undefined {
  if (kindOf(state) === 'Deployment') return newReplicaSet(state)?.metadata?.uid;
  const uid = state.workload?.metadata?.uid;
  return uid === undefined ? undefined : `${uid}/${workloadRevision(state)}`;
}

/** Job pods whose logs a succeeded verdict shows (`logs.onSuccess`): at most this many. */
export const SUCCESS_LOG_PODS = 3;

/** The containers of a traced Job's succeeded pods (the last {@link SUCCESS_LOG_PODS} by name); none for other kinds. */
export function succeededJobContainers(state: RolloutState): Array<{ pod: string; container: string }> {
  if (kindOf(state) !== 'Job') return [];
  const pods = workloadPods(state).filter((p) => p.status?.phase === 'Succeeded');
  return pods
    .slice(-SUCCESS_LOG_PODS)
    .flatMap((p) => (p.spec?.containers ?? []).map((c) => ({ pod: p.metadata?.name ?? '', container: c.name })));
}
