/** Which kinds a namespace source watches, and how (namespace-source.ts). */
import { KIND_FACTS, type KindToObject, type WatchedKind, WORKLOAD_KINDS, type WorkloadKind } from '../core/index.js';
import type { Subscription } from './routing.js';

/**
 * The kinds a trace of `kind` needs listed and watched before `synced`, Events aside (a Deployment
 * trace may sync with replayed Events, backlog-replay.ts): the kind itself, what its pods belong
 * to (a Deployment's ReplicaSets), and Pods. PVCs are added once a traced workload mounts claims.
 */
export function listedBeforeSync(kind: WorkloadKind): WatchedKind[] {
  return [kind, ...KIND_FACTS[kind].ownedVia, 'Pod'];
}

/** The kinds whose watches are label-selected by the traced workloads' selectors (ReplicaSets only when a Deployment is traced). */
export const SCOPED_KINDS = ['ReplicaSet', 'Pod'] as const satisfies readonly WatchedKind[];
/** Kinds whose every object is cached (their lists are small and a late subscriber needs no re-list). */
export const FULLY_KEPT: ReadonlySet<WatchedKind> = new Set<WatchedKind>([
  'Deployment',
  'PersistentVolumeClaim',
  'StatefulSet',
  'DaemonSet',
  'Job',
]);

/** The kind a subscriber traces. */
export const kindOfSub = (sub: Subscription): WorkloadKind => sub.s.kind;

/** True for the kinds a subscriber can trace (Deployment, StatefulSet, DaemonSet, Job). */
export const isWorkloadKind = (kind: WatchedKind): kind is WorkloadKind => (WORKLOAD_KINDS as readonly WatchedKind[]).includes(kind);

/**
 * True when a workload's pods use PersistentVolumeClaims: its pod template mounts a claim, or (a
 * StatefulSet) it has volumeClaimTemplates. Only then does its trace watch PVCs (and need RBAC on them).
 */
export function mountsClaims(workload: KindToObject[WorkloadKind]): boolean {
  const spec = workload.spec;
  if (spec && 'volumeClaimTemplates' in spec && (spec.volumeClaimTemplates?.length ?? 0) > 0) return true;
  return (spec?.template?.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName);
}
