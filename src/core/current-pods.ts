/**
 * The traced workload's pods and revisions, for every kind, each read through its kind's module
 * (the registry, kinds/index.ts): which pods run the current template (`current`), the revision
 * of a pod and of the object (`podRevision`, `templateRevision`), the claims its pods mount. A
 * Deployment's current pods are its new ReplicaSet's (relations.ts); a StatefulSet's and a
 * DaemonSet's are those labelled with the object's current revision, a Job's all of them
 * (kinds/owned-pods.ts). Part of the pipeline, above the kinds.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { kindModule, moduleOf } from './kinds/index.js';
import { referencedPvcNames } from './relations.js';
import type { RolloutState } from './state.js';
import { tracedDeployment } from './state.js';
import type { WorkloadKind } from './types.js';
import type { Workload } from './workloads.js';

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

/** The containers whose logs a succeeded verdict shows (a Job's last {@link SUCCESS_LOG_PODS} succeeded pods); none for other kinds. */
export function successLogContainers(state: RolloutState): Array<{ pod: string; container: string }> {
  return moduleOf(state).successLogContainers?.(state) ?? [];
}

/**
 * The claims the traced workload's pods mount: the pod template's claims, and a StatefulSet's
 * `volumeClaimTemplates` claims of ordinals 0 to replicas-1 (`<template>-<statefulset>-<ordinal>`).
 */
export function claimNames(state: RolloutState): string[] {
  if (tracedDeployment(state)) return referencedPvcNames(tracedDeployment(state));
  const w = state.workload;
  if (!w) return [];
  const out = (w.spec?.template?.spec?.volumes ?? [])
    .map((v) => v.persistentVolumeClaim?.claimName)
    .filter((n): n is string => typeof n === 'string' && n !== '');
  return [...out, ...(moduleOf(state).templateClaims?.(w) ?? [])];
}
