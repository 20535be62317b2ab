/**
 * Applying one object observation to the caches (and to Pulumi's awaiter flags). Caches and
 * indexes are updated in place: the cost of an observation does not depend on what is cached.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { keepDepartedPod, podDeparted } from './departed.js';
import type { Emit, Touched } from './emit.js';
import { isPodReady } from './k8s.js';
import { moduleOf } from './kinds/index.js';
import { passesReconcileGate, pulumiCheckReplicaSet, pulumiOnDeployment } from './pulumi-await.js';
import { isCandidateKubeEvent, isCandidatePod, isCandidateReplicaSet, podGroupUid, replicaSetOfRevision } from './relations.js';
import { EVENTS_PER_OBJECT, type NodeReadiness, type RolloutState, tracedDeployment } from './state.js';
import type { KindToObject, ObjectObservation, WorkloadKind } from './types.js';

type Draft = { -readonly [K in keyof RolloutState]: RolloutState[K] };
/** An upsert or delete of a workload object. */
type WorkloadObservation = Extract<ObjectObservation, { kind: WorkloadKind }>;

function recheckReplicaSet(s: Draft): void {
  if (!s.pulumi.reconciled) return;
  const rs = replicaSetOfRevision(s, s.pulumi.revision);
  s.pulumi = pulumiCheckReplicaSet(s.pulumi, rs, tracedDeployment(s), s.target.baselineRevision);
}

/** Whether `next` is the very version already cached (a re-list re-delivers unchanged objects). */
function sameVersion(
  cached: { metadata?: { resourceVersion?: string } } | undefined,
  next: { metadata?: { resourceVersion?: string } },
): boolean {
  const rv = next.metadata?.resourceVersion;
  return rv !== undefined && cached?.metadata?.resourceVersion === rv;
}

/**
 * Gone, or going: a workload whose `deletionTimestamp` is set can never finish its rollout (a
 * foreground delete, as the kubernetes provider sends when it replaces an object, keeps it
 * listed until its dependents are gone, and bumps its generation on the way).
 */
function beingDeleted(obs: { type: string; object: { metadata?: { deletionTimestamp?: unknown } } }): boolean {
  return obs.type === 'delete' || !!obs.object.metadata?.deletionTimestamp;
}

/**
 * Pulumi's Deployment awaiter follows each observation of the traced Deployment (pulumi-await.ts:
 * its reconcile gate, its conditions, its new ReplicaSet); a trace of another kind has no such
 * state.
 */
function awaitOnWorkload(s: Draft, w: WorkloadObservation['object'], type: 'upsert' | 'delete'): void {
  const d = tracedDeployment({ target: s.target, workload: w });
  if (!d) return;
  const min = s.target.minGeneration;
  if (type === 'delete') {
    s.pulumi = pulumiOnDeployment(s.pulumi, d, 'delete', min);
    return;
  }
  if (!s.pulumi.reconciled) {
    if (!passesReconcileGate(d, min)) return;
    s.pulumi = { ...s.pulumi, reconciled: true };
  }
  s.pulumi = pulumiOnDeployment(s.pulumi, d, 'upsert', min);
  recheckReplicaSet(s);
}

/** The value of `key`, created first when missing. */
function entryOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/**
 * An observation of a workload of any kind (a Deployment, StatefulSet, DaemonSet, Job, or any
 * registered kind): @returns whether it was about the target (of that kind and name). Its
 * generation below `minGeneration` is stale: from before the caller's write.
 */
function onWorkload(s: Draft, obs: WorkloadObservation): boolean {
  const w = obs.object;
  if (obs.kind !== s.target.kind || w.metadata?.name !== s.target.name) return false;
  if ((w.metadata?.namespace ?? s.target.namespace) !== s.target.namespace) return false;
  if (beingDeleted(obs)) {
    s.deleted = true;
    awaitOnWorkload(s, w, 'delete');
    return true;
  }
  const min = s.target.minGeneration;
  if (min !== undefined && (w.metadata?.generation ?? 0) < min) {
    s.staleGeneration = w.metadata?.generation ?? 0;
    return true;
  }
  if (sameVersion(s.workload, w)) return false;
  s.workload = w;
  awaitOnWorkload(s, w, 'upsert');
  return true;
}

/** Removes a pod from the cache and its index. */
function forgetPod(s: Draft, name: string): void {
  const cached = s.pods.get(name);
  if (!cached) return;
  s.pods.delete(name);
  const rsUid = podGroupUid(cached, s);
  const siblings = s.podsByOwner.get(rsUid);
  siblings?.delete(name);
  if (siblings?.size === 0) s.podsByOwner.delete(rsUid);
}

function rememberPod(s: Draft, pod: V1Pod, name: string): void {
  const cached = s.pods.get(name);
  const rsUid = podGroupUid(pod, s);
  if (cached && podGroupUid(cached, s) !== rsUid) forgetPod(s, name);
  s.pods.set(name, pod);
  entryOf(s.podsByOwner, rsUid, () => new Map()).set(name, pod);
}

function onPod(s: Draft, obs: Extract<ObjectObservation, { kind: 'Pod' }>, emit: Emit): Touched | undefined {
  const pod = obs.object;
  const name = pod.metadata?.name;
  if (!name) return undefined;
  const formerRs = s.ownedPods.get(name);
  const known = s.pods.has(name) || formerRs !== undefined;
  if (obs.type === 'upsert' && isCandidatePod(pod, s)) {
    if (sameVersion(s.pods.get(name), pod)) return undefined;
    rememberPod(s, pod, name);
    return { kind: 'Pod', name };
  }
  // Deleted, or released by its ReplicaSet (labels no longer match): orphaned.
  const cached = s.pods.get(name);
  // Its ReplicaSet's status may still count it Ready for a while (hold.ts).
  if (cached && isPodReady(cached)) s.memo.readyLost[podGroupUid(cached, s)] = true;
  const node = (cached ?? pod).spec?.nodeName;
  if (obs.type === 'delete' && node && known) s.memo.freedAt[node] = obs.at;
  forgetPod(s, name);
  if (obs.type === 'delete' && known) keepDepartedPod(s.memo, pod);
  if (formerRs !== undefined) {
    s.ownedPods.delete(name);
    if (obs.type !== 'delete') emit({ type: 'pod-orphaned', name, replicaSet: formerRs });
    // A pod counted in a refusal, not listed, is not listed gone either (ended-pods.ts).
    else if (!s.memo.folded[name]) emit({ type: 'pod-deleted', name, ...(formerRs !== '' ? { replicaSet: formerRs } : {}) });
    if (obs.type === 'delete') podDeparted(s, s.memo, name, obs.at);
  }
  return known ? { kind: 'Pod', name } : undefined;
}

function onEvent(s: Draft, obs: Extract<ObjectObservation, { kind: 'Event' }>): Touched | undefined {
  const e = obs.object;
  const uid = e.metadata?.uid ?? `${e.involvedObject?.name}/${e.reason}/${e.metadata?.name}`;
  if (obs.type === 'delete' || !isCandidateKubeEvent(e, s.target)) return undefined; // expired events are still history
  const cached = s.kubeEvents.get(uid);
  if (sameVersion(cached, e)) return undefined;
  const name = e.involvedObject?.name ?? '';
  if (cached === undefined) {
    const uids = entryOf(s.kubeEventsByObject, name, () => []);
    uids.push(uid);
    s.kubeEventArrival.set(uid, s.seq);
    if (uids.length > EVENTS_PER_OBJECT) forgetEvent(s, uids.shift() ?? '');
  }
  s.kubeEvents.set(uid, e);
  return { kind: 'Event', uid, name, event: e };
}

function forgetEvent(s: Draft, uid: string): void {
  s.kubeEvents.delete(uid);
  s.kubeEventArrival.delete(uid);
  delete s.memo.kubeEvents[uid];
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
function onNode(s: Draft, obs: Extract<ObjectObservation, { kind: 'Node' }>): Touched | undefined {
  const name = obs.object.metadata?.name;
  if (!name) return undefined;
  const perNode = moduleOf(s).keepsNodes === true;
  if (perNode) {
    if (obs.type === 'delete') s.nodes.delete(name);
    else s.nodes.set(name, obs.object);
  }
  const next = nodeReadiness(obs.object, obs.type);
  const prev = s.notReadyNodes[name];
  if (JSON.stringify(next) === JSON.stringify(prev)) return perNode ? { kind: 'Node', name, readinessChanged: false } : undefined;
  if (next) s.notReadyNodes[name] = next;
  else delete s.notReadyNodes[name];
  for (const p of s.pods.values()) if (p.spec?.nodeName === name) return { kind: 'Node', name, readinessChanged: true };
  return perNode ? { kind: 'Node', name, readinessChanged: true } : undefined;
}

function timeText(t: unknown): string | undefined {
  if (t instanceof Date) return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
  return typeof t === 'string' && t !== '' ? t : undefined;
}

/**
 * Applies an object observation to a draft state; may emit pod-deleted / pod-orphaned.
 *
 * @returns what changed, or undefined when the observation cannot concern the target (another
 *   Deployment's objects, an unchanged re-delivery, an expired event): the draft is then untouched
 *   and nothing was emitted, so the caller may skip deriving events from it.
 */
export function intake(s: Draft, obs: ObjectObservation, emit: Emit): Touched | undefined {
  switch (obs.kind) {
    case 'ReplicaSet': {
      const rs = obs.object;
      const uid = rs.metadata?.uid;
      if (!uid || !isCandidateReplicaSet(rs, s.target)) return undefined;
      if (obs.type === 'delete') {
        if (!s.replicaSets.delete(uid)) return undefined;
      } else {
        if (sameVersion(s.replicaSets.get(uid), rs)) return undefined;
        s.replicaSets.set(uid, rs);
      }
      recheckReplicaSet(s);
      return { kind: 'ReplicaSet' };
    }
    case 'Pod':
      return onPod(s, obs, emit);
    case 'Event':
      return onEvent(s, obs);
    case 'Node':
      return onNode(s, obs);
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return onWorkload(s, obs) ? { kind: obs.kind } : undefined;
    case 'PersistentVolumeClaim': {
      const name = obs.object.metadata?.name;
      if (!name) return undefined;
      if (obs.type === 'delete') {
        if (!s.pvcs.delete(name)) return undefined;
      } else {
        if (sameVersion(s.pvcs.get(name), obs.object)) return undefined;
        s.pvcs.set(name, obs.object);
      }
      return { kind: 'PersistentVolumeClaim' };
    }
    default: {
      // A kind registered beyond the built-in ones: its objects are workloads like these.
      const other = obs as unknown as WorkloadObservation;
      return onWorkload(s, other) ? ({ kind: other.kind } as Touched) : undefined;
    }
  }
}
