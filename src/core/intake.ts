/** Applying one object observation to the caches (and to Pulumi's awaiter flags). */
import { passesReconcileGate, pulumiCheckReplicaSet, pulumiOnDeployment } from './pulumi-await.js';
import { isCandidateEvent, isCandidatePod, isCandidateReplicaSet, replicaSetOfRevision } from './relations.js';
import { eventKey, type NodeReadiness, type RolloutState } from './state.js';
import type { KindToObject, ObjectObservation, RolloutEvent } from './types.js';

type Draft = { -readonly [K in keyof RolloutState]: RolloutState[K] };
type Emit = (e: DistributiveOmit<RolloutEvent, 'at' | 'deployment'>) => void;
/** Omit over each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function without<T>(rec: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = rec;
  return rest;
}

function recheckReplicaSet(s: Draft): void {
  if (!s.pulumi.reconciled) return;
  const rs = replicaSetOfRevision(s, s.pulumi.revision);
  s.pulumi = pulumiCheckReplicaSet(s.pulumi, rs, s.deployment, s.target.baselineRevision);
}

/** Whether `next` is the very version already cached (a re-list re-delivers unchanged objects). */
function sameVersion(
  cached: { metadata?: { resourceVersion?: string } } | undefined,
  next: { metadata?: { resourceVersion?: string } },
): boolean {
  const rv = next.metadata?.resourceVersion;
  return rv !== undefined && cached?.metadata?.resourceVersion === rv;
}

/** @returns whether the observation was about the target Deployment. */
function onDeployment(s: Draft, obs: Extract<ObjectObservation, { kind: 'Deployment' }>): boolean {
  const d = obs.object;
  if (d.metadata?.name !== s.target.name || (d.metadata?.namespace ?? s.target.namespace) !== s.target.namespace) return false;
  if (obs.type === 'delete') {
    s.deleted = true;
    s.pulumi = pulumiOnDeployment(s.pulumi, d, 'delete', s.target.minGeneration);
    return true;
  }
  const min = s.target.minGeneration;
  if (min !== undefined && (d.metadata?.generation ?? 0) < min) {
    s.staleGeneration = d.metadata?.generation ?? 0; // stale: from before the caller's write
    return true;
  }
  s.deployment = d;
  if (!s.pulumi.reconciled) {
    if (!passesReconcileGate(d, min)) return true;
    s.pulumi = { ...s.pulumi, reconciled: true };
  }
  s.pulumi = pulumiOnDeployment(s.pulumi, d, 'upsert', min);
  recheckReplicaSet(s);
  return true;
}

/** A node's Ready condition, or undefined when it is Ready (or gone). */
export function nodeReadiness(node: KindToObject['Node'], type: 'upsert' | 'delete'): NodeReadiness | undefined {
  if (type === 'delete') return undefined;
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status === 'True' || ready === undefined) return undefined;
  const since = timeText(ready.lastTransitionTime);
  return {
    status: ready.status,
    ...(since ? { since } : {}),
    ...(ready.reason ? { reason: ready.reason } : {}),
    ...(ready.message ? { message: ready.message } : {}),
  };
}

/** Keeps the not-Ready nodes; @returns whether a change can concern one of the target's pods. */
function onNode(s: Draft, obs: Extract<ObjectObservation, { kind: 'Node' }>): boolean {
  const name = obs.object.metadata?.name;
  if (!name) return false;
  const next = nodeReadiness(obs.object, obs.type);
  const prev = s.notReadyNodes[name];
  if (JSON.stringify(next) === JSON.stringify(prev)) return false;
  s.notReadyNodes = next ? { ...s.notReadyNodes, [name]: next } : without(s.notReadyNodes, name);
  return Object.values(s.pods).some((p) => p.spec?.nodeName === name);
}

function timeText(t: unknown): string | undefined {
  if (t instanceof Date) return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
  return typeof t === 'string' && t !== '' ? t : undefined;
}

/**
 * Applies an object observation to a draft state; may emit pod-deleted / pod-orphaned.
 *
 * @returns false when the observation cannot concern the target (another Deployment's objects, an
 *   unchanged re-delivery, an expired event): the draft is then untouched and nothing was emitted,
 *   so the caller may skip deriving events from it.
 */
export function intake(s: Draft, obs: ObjectObservation, emit: Emit): boolean {
  switch (obs.kind) {
    case 'Deployment':
      return onDeployment(s, obs);
    case 'ReplicaSet': {
      const rs = obs.object;
      const uid = rs.metadata?.uid;
      if (!uid || !isCandidateReplicaSet(rs, s.target)) return false;
      if (obs.type === 'delete') {
        if (!s.replicaSets[uid]) return false;
        s.replicaSets = without(s.replicaSets, uid);
      } else {
        if (sameVersion(s.replicaSets[uid], rs)) return false;
        s.replicaSets = { ...s.replicaSets, [uid]: rs };
      }
      recheckReplicaSet(s);
      return true;
    }
    case 'Pod': {
      const pod = obs.object;
      const name = pod.metadata?.name;
      if (!name) return false;
      const formerRs = s.ownedPods[name];
      const known = s.pods[name] !== undefined || formerRs !== undefined;
      if (obs.type === 'delete') {
        if (s.pods[name]) s.pods = without(s.pods, name);
        if (formerRs !== undefined) {
          s.ownedPods = without(s.ownedPods, name);
          emit({ type: 'pod-deleted', name, replicaSet: formerRs });
        }
        return known;
      }
      if (isCandidatePod(pod, s.target)) {
        if (sameVersion(s.pods[name], pod)) return false;
        s.pods = { ...s.pods, [name]: pod };
        return true;
      }
      // The ReplicaSet released the pod (labels no longer match): it is orphaned.
      if (s.pods[name]) s.pods = without(s.pods, name);
      if (formerRs !== undefined) {
        s.ownedPods = without(s.ownedPods, name);
        emit({ type: 'pod-orphaned', name, replicaSet: formerRs });
      }
      return known;
    }
    case 'Event': {
      const e = obs.object;
      const uid = e.metadata?.uid ?? `${e.involvedObject?.name}/${e.reason}/${e.metadata?.name}`;
      if (obs.type === 'delete' || !isCandidateEvent(e, s.target)) return false; // expired events are still history
      if (sameVersion(s.events[uid], e)) return false;
      const kind = e.involvedObject?.kind;
      const name = e.involvedObject?.name;
      if (s.events[uid] === undefined && kind !== undefined && name !== undefined) {
        const key = eventKey(kind, name);
        s.eventsByObject = { ...s.eventsByObject, [key]: [...(s.eventsByObject[key] ?? []), uid] };
      }
      s.events = { ...s.events, [uid]: e };
      return true;
    }
    case 'Node':
      return onNode(s, obs);
    case 'PersistentVolumeClaim': {
      const name = obs.object.metadata?.name;
      if (!name) return false;
      if (obs.type === 'delete') {
        if (!s.pvcs[name]) return false;
        s.pvcs = without(s.pvcs, name);
      } else {
        if (sameVersion(s.pvcs[name], obs.object)) return false;
        s.pvcs = { ...s.pvcs, [name]: obs.object };
      }
      return true;
    }
  }
}
