/** Applying one object observation to the caches (and to Pulumi's awaiter flags). */
import { passesReconcileGate, pulumiCheckReplicaSet, pulumiOnDeployment } from './pulumi-await.js';
import { isCandidateEvent, isCandidatePod, isCandidateReplicaSet, replicaSetOfRevision } from './relations.js';
import type { RolloutState } from './state.js';
import type { ObjectObservation, RolloutEvent } from './types.js';

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

function onDeployment(s: Draft, obs: Extract<ObjectObservation, { kind: 'Deployment' }>): void {
  const d = obs.object;
  if (d.metadata?.name !== s.target.name || (d.metadata?.namespace ?? s.target.namespace) !== s.target.namespace) return;
  if (obs.type === 'delete') {
    s.deleted = true;
    s.pulumi = pulumiOnDeployment(s.pulumi, d, 'delete', s.target.minGeneration);
    return;
  }
  const min = s.target.minGeneration;
  if (min !== undefined && (d.metadata?.generation ?? 0) < min) {
    s.staleGeneration = d.metadata?.generation ?? 0; // stale: from before the caller's write
    return;
  }
  s.deployment = d;
  if (!s.pulumi.reconciled) {
    if (!passesReconcileGate(d, min)) return;
    s.pulumi = { ...s.pulumi, reconciled: true };
  }
  s.pulumi = pulumiOnDeployment(s.pulumi, d, 'upsert', min);
  recheckReplicaSet(s);
}

/** Applies an object observation to a draft state; may emit pod-deleted / pod-orphaned. */
export function intake(s: Draft, obs: ObjectObservation, emit: Emit): void {
  switch (obs.kind) {
    case 'Deployment':
      onDeployment(s, obs);
      return;
    case 'ReplicaSet': {
      const rs = obs.object;
      const uid = rs.metadata?.uid;
      if (!uid || !isCandidateReplicaSet(rs, s.target)) return;
      s.replicaSets = obs.type === 'delete' ? without(s.replicaSets, uid) : { ...s.replicaSets, [uid]: rs };
      recheckReplicaSet(s);
      return;
    }
    case 'Pod': {
      const pod = obs.object;
      const name = pod.metadata?.name;
      if (!name) return;
      const formerRs = s.ownedPods[name];
      if (obs.type === 'delete') {
        if (s.pods[name]) s.pods = without(s.pods, name);
        if (formerRs !== undefined) {
          s.ownedPods = without(s.ownedPods, name);
          emit({ type: 'pod-deleted', name, replicaSet: formerRs });
        }
        return;
      }
      if (isCandidatePod(pod, s.target)) {
        s.pods = { ...s.pods, [name]: pod };
        return;
      }
      // The ReplicaSet released the pod (labels no longer match): it is orphaned.
      if (s.pods[name]) s.pods = without(s.pods, name);
      if (formerRs !== undefined) {
        s.ownedPods = without(s.ownedPods, name);
        emit({ type: 'pod-orphaned', name, replicaSet: formerRs });
      }
      return;
    }
    case 'Event': {
      const e = obs.object;
      const uid = e.metadata?.uid ?? `${e.involvedObject?.name}/${e.reason}/${e.metadata?.name}`;
      if (obs.type === 'delete' || !isCandidateEvent(e, s.target)) return; // expired events are still history
      s.events = { ...s.events, [uid]: e };
      return;
    }
    case 'PersistentVolumeClaim': {
      const name = obs.object.metadata?.name;
      if (!name) return;
      s.pvcs = obs.type === 'delete' ? without(s.pvcs, name) : { ...s.pvcs, [name]: obs.object };
      return;
    }
  }
}
