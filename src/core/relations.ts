/**
 * Which cached objects belong to the tracked Deployment. Intake keeps cheap *candidates* (by
 * name) because objects can arrive before the Deployment; ownership is decided here, by
 * ownerReference UID exactly as Pulumi does.
 */
import type { CoreV1Event, V1Deployment, V1PersistentVolumeClaim, V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import { isOwnedBy, ownerOfKind, revisionOf } from './k8s.js';
import type { RolloutState } from './state.js';
import { tracedDeployment } from './state.js';
import type { TrackTarget } from './types.js';

/** A ReplicaSet that may belong to the target (controller ownerReference names the Deployment). */
export function isCandidateReplicaSet(rs: V1ReplicaSet, target: TrackTarget): boolean {
  return ownerOfKind(rs, 'Deployment')?.name === target.name;
}

/**
 * A Pod that may belong to the target: owned by a ReplicaSet named `<deployment>-<hash>`, or (a
 * StatefulSet, DaemonSet or Job trace) by an owner of the target's kind and name.
 */
export function isCandidatePod(pod: V1Pod, state: RolloutState): boolean {
  const { facts, target } = state;
  if (facts.ownedVia.length === 0) return ownerOfKind(pod, facts.kind)?.name === target.name;
  return ownerOfKind(pod, 'ReplicaSet')?.name?.startsWith(`${target.name}-`) ?? false;
}

/** The uid pods are indexed by ({@link RolloutState.podsByOwner}): their ReplicaSet's, else their owner's of the target's kind. */
export function podGroupUid(pod: V1Pod, state: RolloutState): string {
  const { facts } = state;
  return ownerOfKind(pod, facts.ownedVia[0] ?? facts.kind)?.uid ?? '';
}

/** An Event that may be about the target, its ReplicaSets, its Pods or a PVC. */
export function isCandidateKubeEvent(e: CoreV1Event, target: TrackTarget): boolean {
  const name = e.involvedObject?.name ?? '';
  const kind = e.involvedObject?.kind;
  if (kind === 'PersistentVolumeClaim') return true;
  return name === target.name || name.startsWith(`${target.name}-`);
}

/** The Deployment's UID, if seen. */
export function deploymentUid(state: RolloutState): string | undefined {
  return tracedDeployment(state)?.metadata?.uid;
}

/** ReplicaSets owned (by UID) by the tracked Deployment, newest revision first. */
export function ownedReplicaSets(state: RolloutState): V1ReplicaSet[] {
  const uid = deploymentUid(state);
  return [...state.replicaSets.values()]
    .filter((rs) => isOwnedBy(rs, uid))
    .sort((a, b) => Number(revisionOf(b) || 0) - Number(revisionOf(a) || 0));
}

/** The owned ReplicaSet carrying `revision` (Pulumi's `replicaSets[revision]`). */
export function replicaSetOfRevision(state: RolloutState, revision: string): V1ReplicaSet | undefined {
  if (!revision) return undefined;
  return ownedReplicaSets(state).find((rs) => revisionOf(rs) === revision);
}

/** The ReplicaSet of the Deployment's current revision. */
export function newReplicaSet(state: RolloutState): V1ReplicaSet | undefined {
  return replicaSetOfRevision(state, revisionOf(tracedDeployment(state)));
}

/** Owned ReplicaSets other than the new one. */
export function oldReplicaSets(state: RolloutState): V1ReplicaSet[] {
  const fresh = newReplicaSet(state);
  return ownedReplicaSets(state).filter((rs) => rs.metadata?.uid !== fresh?.metadata?.uid);
}

/** Pods owned (by UID) by a ReplicaSet, sorted by name for stable output. */
export function podsOf(state: RolloutState, rs: V1ReplicaSet | undefined): V1Pod[] {
  const uid = rs?.metadata?.uid;
  if (!uid) return [];
  return [...(state.podsByOwner.get(uid)?.values() ?? [])].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
}

/** The cached pod `name` if a ReplicaSet owns it (by UID). */
export function podOf(state: RolloutState, rs: V1ReplicaSet | undefined, name: string): V1Pod | undefined {
  const uid = rs?.metadata?.uid;
  return uid ? state.podsByOwner.get(uid)?.get(name) : undefined;
}

/** PVC names referenced by the pod template's volumes. */
export function referencedPvcNames(d: V1Deployment | undefined): string[] {
  return (d?.spec?.template?.spec?.volumes ?? [])
    .map((v) => v.persistentVolumeClaim?.claimName)
    .filter((n): n is string => typeof n === 'string' && n !== '');
}

/** Known PVCs referenced by the template (what Pulumi tracks). */
export function trackedPvcs(state: RolloutState): V1PersistentVolumeClaim[] {
  return referencedPvcNames(tracedDeployment(state))
    .map((n) => state.pvcs.get(n))
    .filter((p): p is V1PersistentVolumeClaim => p !== undefined);
}

/** Events whose involved object is `kind/name`, in arrival order (not those of an earlier object of the target's name). */
export function kubeEventsAbout(state: RolloutState, kind: string, name: string): CoreV1Event[] {
  return kubeEventsNamed(state, name).filter((e) => e.involvedObject?.kind === kind && aboutCurrentTarget(state, e));
}

/**
 * False for an Event about an earlier object of the target's kind and name: a Job, StatefulSet or
 * Deployment deleted and created again (a replacement) keeps its name, not its uid.
 */
export function aboutCurrentTarget(state: RolloutState, e: CoreV1Event): boolean {
  const kind = state.target.kind;
  const object = e.involvedObject;
  if (object?.kind !== kind || object.name !== state.target.name || !object.uid) return true;
  const uid = state.workload?.metadata?.uid;
  return uid === undefined || object.uid === uid;
}

/** Events whose involved object (of any kind) is named `name`, in arrival order. */
export function kubeEventsNamed(state: RolloutState, name: string): CoreV1Event[] {
  const out: CoreV1Event[] = [];
  for (const uid of state.kubeEventsByObject.get(name) ?? []) {
    const e = state.kubeEvents.get(uid);
    if (e) out.push(e);
  }
  return out;
}
