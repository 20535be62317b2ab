/** Success criteria: Pulumi's predicate (`full`), krane's `maxUnavailable`, a percentage or a pod count. */
import type { V1DaemonSet, V1Deployment } from '@kubernetes/client-node';
import { revisionOf } from './k8s.js';
import type { SuccessCriterion } from './policy-types.js';
import { changeTriggeredRollout, everyPvcReady, pulumiSucceeded, replicaSetReadiness } from './pulumi-await.js';
import { newReplicaSet, trackedPvcs } from './relations.js';
import { rolloutGap } from './rolled-out.js';
import type { RolloutState } from './state.js';
import { tracedDeployment } from './state.js';

function scaled(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return scaled('25%', total, roundUp);
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) return Number(value) || 0;
  const raw = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(raw) : Math.floor(raw);
}

/**
 * The Deployment's maxUnavailable as a pod count, resolved like the controller does
 * (percentages: maxUnavailable rounds down, maxSurge up; both 0 means 1). Recreate: 0.
 */
export function resolveMaxUnavailable(d: V1Deployment): number {
  const desired = d.spec?.replicas ?? 1;
  if (d.spec?.strategy?.type === 'Recreate') return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  let unavailable = scaled(ru?.maxUnavailable as number | string | undefined, desired, false);
  const surge = scaled(ru?.maxSurge as number | string | undefined, desired, true);
  if (unavailable === 0 && surge === 0) unavailable = 1;
  return Math.min(unavailable, desired);
}

/**
 * Pods a partial criterion needs of `desired` (undefined for `full`): a share rounded up, a count
 * (at most `desired`), or `desired` less the kind's `maxUnavailable` (a pod count).
 */
export function requiredOf(success: SuccessCriterion, desired: number, maxUnavailable: () => number): number | undefined {
  if (success.mode === 'maxUnavailable') return Math.max(0, desired - maxUnavailable());
  if (success.mode === 'percent') return Math.ceil((desired * success.percent) / 100);
  if (success.mode === 'pods') return Math.min(success.pods, desired);
  return undefined;
}

/**
 * A DaemonSet's maxUnavailable as a node count, as its controller resolves it: default 1, a
 * percentage of the nodes rounded up; with maxSurge instead (both 0 is refused by the API), 0.
 */
export function daemonSetMaxUnavailable(ds: V1DaemonSet, desired: number): number {
  const ru = ds.spec?.updateStrategy?.rollingUpdate;
  if (ds.spec?.updateStrategy?.type === 'OnDelete') return 0;
  return Math.min(desired, scaled((ru?.maxUnavailable as number | string | undefined) ?? 1, desired, true));
}

/** Ready pods the new ReplicaSet needs under the partial criteria. */
export function requiredReady(state: RolloutState): number | undefined {
  const d = tracedDeployment(state);
  if (!d) return undefined;
  return requiredOf(state.policy.success, d.spec?.replicas ?? 1, () => resolveMaxUnavailable(d));
}

/**
 * True when the rollout meets the policy's success criterion. Every mode also needs the
 * Deployment's current template rolled out by kubectl's rule ({@link rolloutGap}): `full` all of
 * it, the partial modes as many pods created from the current template as they need ready.
 */
export function criterionMet(state: RolloutState): boolean {
  const pvcs = trackedPvcs(state);
  const d = tracedDeployment(state);
  if (!d) return false;
  if (state.policy.success.mode === 'full') {
    // The new ReplicaSet itself must hold every desired pod, ready: the controller's counts sum
    // every ReplicaSet, and the ReplicaSet and Deployment watches are not ordered, so for a moment
    // they can read "complete" while a new pod still starts.
    const rs = newReplicaSet(state);
    const desired = d.spec?.replicas ?? 1;
    const readiness = rs && replicaSetReadiness(rs);
    const newReady = readiness?.done === true && readiness.ready >= desired;
    return pulumiSucceeded(state.pulumi, pvcs) && rolloutGap(d, 'complete') === undefined && newReady;
  }
  if (!state.pulumi.reconciled || rolloutGap(d, 'updated', requiredReady(state)) !== undefined) return false;
  if (d.metadata?.generation !== d.status?.observedGeneration) return false;
  const rs = newReplicaSet(state);
  if (!rs) return false;
  const base = state.target.baselineRevision;
  if (changeTriggeredRollout(d, base) && revisionOf(rs) === (base ?? '')) return false;
  const need = requiredReady(state) ?? 0;
  return replicaSetReadiness(rs).ready >= need && everyPvcReady(pvcs);
}
