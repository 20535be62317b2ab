/**
 * A faithful model of pulumi-kubernetes' Deployment awaiter (`provider/pkg/await/deployment.go`,
 * in pulumi/pulumi-kubernetes): the same flags, updated on the same events, by the same rules.
 */
import type { V1Deployment, V1PersistentVolumeClaim, V1ReplicaSet } from '@kubernetes/client-node';
import { revisionOf } from './k8s.js';
import type { PulumiAwaitState } from './state.js';

/** Pulumi's initial awaiter state. */
export function initialPulumiState(): PulumiAwaitState {
  return {
    reconciled: false,
    revision: '',
    deploymentAvailable: false,
    replicaSetAvailable: false,
    updatedReplicaSetReady: false,
    deploymentErrors: [],
  };
}

/** Phase A: the first Deployment event whose generation equals its observedGeneration. */
export function passesReconcileGate(d: V1Deployment, minGeneration?: number): boolean {
  const observed = d.status?.observedGeneration;
  const generation = d.metadata?.generation;
  if (observed === undefined || observed === null) return false;
  if (minGeneration !== undefined && (generation ?? 0) < minGeneration) return false;
  return generation === observed;
}

/**
 * `processDeploymentEvent`: errors reset on every Deployment event; deleted and stale objects are
 * then ignored; flags follow the Progressing and Available conditions.
 */
export function pulumiOnDeployment(
  prev: PulumiAwaitState,
  d: V1Deployment,
  kind: 'upsert' | 'delete',
  minGeneration?: number,
): PulumiAwaitState {
  const next: PulumiAwaitState = { ...prev, deploymentErrors: [] };
  if (kind === 'delete') return next;
  if (minGeneration !== undefined && (d.metadata?.generation ?? 0) < minGeneration) return next;
  next.revision = revisionOf(d);
  if (next.revision === '') return next;
  const conditions = d.status?.conditions;
  if (!Array.isArray(conditions)) return next;
  for (const c of conditions) {
    if (c.type === 'Progressing') {
      const progressing = c.status === 'True';
      if (!progressing) {
        if (typeof c.reason !== 'string' || typeof c.message !== 'string') continue;
        setError(next, c.reason, `[${c.reason}] ${c.message}`);
      }
      next.replicaSetAvailable = c.reason === 'NewReplicaSetAvailable' && progressing;
    }
    if (c.type === 'Available') {
      next.deploymentAvailable = c.status === 'True';
      if (!next.deploymentAvailable) {
        if (typeof c.reason !== 'string' || typeof c.message !== 'string') continue;
        setError(next, c.reason, `[${c.reason}] ${c.message}`);
      }
    }
  }
  return next;
}

function setError(s: PulumiAwaitState, reason: string, message: string): void {
  const i = s.deploymentErrors.findIndex(([r]) => r === reason);
  if (i >= 0) s.deploymentErrors[i] = [reason, message];
  else s.deploymentErrors.push([reason, message]);
}

/** Ready vs desired of a ReplicaSet as Pulumi reads them (spec default 1; readyReplicas, not available). */
export function replicaSetReadiness(rs: V1ReplicaSet): { ready: number; spec: number; done: boolean } {
  const spec = rs.spec?.replicas ?? 1;
  const rawReady = rs.status?.readyReplicas;
  const ready = rawReady ?? 0;
  const done = rawReady !== undefined && rawReady !== null ? rawReady >= spec : spec === 0;
  return { ready, spec, done };
}

/** True when the Deployment's revision differs from the baseline (or there is no baseline: create). */
export function changeTriggeredRollout(d: V1Deployment | undefined, baselineRevision?: string): boolean {
  if (baselineRevision === undefined) return true;
  return revisionOf(d) !== baselineRevision;
}

/**
 * `checkReplicaSetStatus`: keeps the previous value while the revision's ReplicaSet is unknown.
 */
export function pulumiCheckReplicaSet(
  prev: PulumiAwaitState,
  rs: V1ReplicaSet | undefined,
  d: V1Deployment | undefined,
  baselineRevision?: string,
): PulumiAwaitState {
  if (prev.revision === '0' || prev.revision === '' || rs === undefined) return prev;
  const { done } = replicaSetReadiness(rs);
  const lastRevision = baselineRevision ?? '';
  const ready = changeTriggeredRollout(d, baselineRevision) ? lastRevision !== prev.revision && done : done;
  return ready === prev.updatedReplicaSetReady ? prev : { ...prev, updatedReplicaSetReady: ready };
}

/** `isEveryPVCReady`: true when no PVC is tracked or all tracked PVCs are Bound. */
export function everyPvcReady(pvcs: V1PersistentVolumeClaim[]): boolean {
  return pvcs.every((p) => p.status?.phase === 'Bound');
}

/** `checkAndLogStatus`: Pulumi's success predicate. */
export function pulumiSucceeded(s: PulumiAwaitState, pvcs: V1PersistentVolumeClaim[]): boolean {
  if (!s.reconciled) return false;
  const base = s.deploymentAvailable && s.updatedReplicaSetReady && everyPvcReady(pvcs);
  return s.revision === '1' ? base : base && s.replicaSetAvailable;
}

/** Pulumi's live status line for the current ReplicaSet. */
export function pulumiProgressMessage(rs: V1ReplicaSet): string {
  const { ready, spec } = replicaSetReadiness(rs);
  return `Waiting for app ReplicaSet to be available (${ready}/${spec} Pods available)`;
}
