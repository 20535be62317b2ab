/** Emitting change-only events derived from the cached objects. */
import type { CoreV1Event, V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import { REVISION_HISTORY_ANNOTATION, revisionOf, templateKey } from './k8s.js';
import { podView } from './pod-state.js';
import { pulumiProgressMessage, replicaSetReadiness } from './pulumi-await.js';
import { newReplicaSet, oldReplicaSets, ownedReplicaSets, podOf, podsOf } from './relations.js';
import type { EmittedMemo, RolloutState } from './state.js';
import { tracedDeployment } from './state.js';
import type { RolloutEvent, RolloutPhase } from './types.js';

/** Omit over each member of a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What an observation changed, so that deriving can look at just that. */
export type Touched =
  | { kind: 'Deployment' | 'ReplicaSet' | 'PersistentVolumeClaim' | 'StatefulSet' | 'DaemonSet' | 'Job' }
  | { kind: 'Pod'; name: string }
  | { kind: 'Node'; name: string; readinessChanged: boolean }
  /** `event`: the Event as this observation saw it (a later one in the same step may change it again). */
  | { kind: 'Event'; uid: string; name: string; event: CoreV1Event };

/** Emits one event (the reducer stamps `at`, `workload` and `deployment`). */
export type Emit = (e: DistributiveOmit<RolloutEvent, 'at' | 'deployment' | 'workload'>) => void;

/** Owned ReplicaSets whose whole pod template (without `pod-template-hash`) is the Deployment's current one. */
function sameTemplateReplicaSets(state: RolloutState): V1ReplicaSet[] {
  const template = templateKey(tracedDeployment(state)?.spec?.template);
  return ownedReplicaSets(state).filter((rs) => templateKey(rs.spec?.template) === template);
}

function isRollback(state: RolloutState, memo: EmittedMemo, revision: string): boolean {
  return sameTemplateReplicaSets(state).some((rs) => {
    const rev = revisionOf(rs);
    const before = memo.rsRevisions[rs.metadata?.uid ?? ''];
    return (
      rs.metadata?.annotations?.[REVISION_HISTORY_ANNOTATION] !== undefined ||
      (rev !== '' && Number(rev) < Number(revision)) ||
      (before !== undefined && before !== revision)
    );
  });
}

/**
 * The older revision whose pod template `revision` brings back, if any: the controller re-uses
 * that ReplicaSet and lists its earlier revisions in `revision-history` (or has not bumped it yet).
 */
function restoredRevision(state: RolloutState, revision: string): string | undefined {
  for (const rs of sameTemplateReplicaSets(state)) {
    const history = rs.metadata?.annotations?.[REVISION_HISTORY_ANNOTATION]?.split(',') ?? [];
    const older = [...history, revisionOf(rs)].map((r) => r.trim()).filter((r) => r !== '' && Number(r) < Number(revision));
    if (older.length > 0) return older.sort((a, b) => Number(a) - Number(b)).at(-1);
  }
  return undefined;
}

/** revision / superseded. */
export function emitRevision(state: RolloutState, memo: EmittedMemo, emit: Emit): void {
  const rev = revisionOf(tracedDeployment(state));
  if (rev === '' || rev === memo.revision) return;
  const base = state.target.baselineRevision;
  const previous = memo.revision ?? (base !== undefined && base !== rev ? base : undefined);
  if (memo.revision !== undefined) emit({ type: 'superseded', revision: memo.revision, by: rev });
  const change = previous === undefined ? 'initial' : isRollback(state, memo, rev) ? 'rollback' : 'new';
  const restores = change === 'new' ? undefined : restoredRevision(state, rev);
  emit({
    type: 'revision',
    revision: rev,
    ...(previous !== undefined ? { previous } : {}),
    change,
    ...(restores !== undefined ? { restores } : {}),
  });
  memo.revision = rev;
  memo.restores = restores;
  memo.oldReplicas = {};
}

/** paused / resumed, scaled, conditions. */
export function emitDeploymentChanges(state: RolloutState, memo: EmittedMemo, emit: Emit): void {
  const d = tracedDeployment(state);
  if (!d) return;
  const paused = d.spec?.paused === true;
  if (paused !== (memo.paused ?? false)) emit({ type: paused ? 'paused' : 'resumed' });
  memo.paused = paused;
  const replicas = d.spec?.replicas ?? 1;
  const template = templateKey(d.spec?.template);
  if (memo.replicas !== undefined && replicas !== memo.replicas && template === memo.template) {
    emit({ type: 'scaled', from: memo.replicas, to: replicas });
  }
  memo.replicas = replicas;
  memo.template = template;
  for (const c of d.status?.conditions ?? []) {
    const key = `${c.status}|${c.reason ?? ''}|${c.message ?? ''}`;
    if (memo.conditions[c.type] === key) continue;
    memo.conditions[c.type] = key;
    emit({
      type: 'condition',
      condition: c.type,
      status: c.status,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    });
  }
}

/**
 * A pod row's owner: its ReplicaSet's name and revision ('' name: a StatefulSet's, DaemonSet's or
 * Job's own pod); `readyIsRunning`: a Ready pod is said `running` (a Job's pods run to completion).
 */
export type Row = { name: string; revision: string; readyIsRunning?: boolean };

/** One pod's row, on change; a pod seen owned for the first time is added to `owned` and `opened`. */
export function emitPod(memo: EmittedMemo, pod: V1Pod, row: Row, owned: Map<string, string>, opened: string[], emit: Emit): void {
  const name = pod.metadata?.name ?? '';
  if (owned.get(name) !== row.name) {
    if (!owned.has(name)) opened.push(name);
    owned.set(name, row.name);
  }
  // Part of a refusal under node pressure that is counted, not listed (ended-pods.ts).
  if (memo.folded[name]) return;
  const seen = podView(pod);
  const v = row.readyIsRunning && seen.state === 'ready' ? { ...seen, state: 'running' as const } : seen;
  const key = `${v.state}|${v.detail ?? ''}|${v.node ?? ''}`;
  const prev = memo.pods[name];
  if (prev === key) return;
  memo.pods[name] = key;
  const previous = prev?.split('|')[0] as (typeof v)['state'] | undefined;
  emit({
    type: 'pod',
    name,
    ...(row.name !== '' ? { replicaSet: row.name, revision: row.revision } : row.revision !== '' ? { revision: row.revision } : {}),
    state: v.state,
    ...(previous && previous !== v.state ? { previous } : {}),
    ...(v.node ? { node: v.node } : {}),
    ...(v.detail ? { detail: v.detail } : {}),
  });
}

/**
 * replicaset rows and pod state transitions. The pods of a ReplicaSet are walked once, when it
 * is first seen owned; after that only the pods the observations touched are looked at.
 *
 * @returns involved-object names newly ours (ReplicaSets and pods), whose Events are now news.
 */
export function emitRows(
  state: RolloutState,
  memo: EmittedMemo,
  owned: Map<string, string>,
  touched: readonly Touched[],
  emit: Emit,
): string[] {
  const fresh = newReplicaSet(state);
  const opened: string[] = [];
  for (const rs of ownedReplicaSets(state).reverse()) {
    const uid = rs.metadata?.uid ?? '';
    const role = uid === fresh?.metadata?.uid ? 'new' : 'old';
    const row = {
      name: rs.metadata?.name ?? '',
      revision: revisionOf(rs),
      role,
      desired: rs.spec?.replicas ?? 1,
      ready: rs.status?.readyReplicas ?? 0,
      available: rs.status?.availableReplicas ?? 0,
    } as const;
    const key = `${row.name}|${row.revision}|${role}|${row.desired}|${row.ready}|${row.available}`;
    if (memo.replicaSets[uid] !== key) {
      emit({ type: 'replicaset', ...row, created: memo.replicaSets[uid] === undefined });
      memo.replicaSets[uid] = key;
    }
    memo.rsRevisions[uid] = row.revision;
    if (!memo.walked[uid]) {
      memo.walked[uid] = true;
      opened.push(row.name);
      for (const pod of podsOf(state, rs)) emitPod(memo, pod, row, owned, opened, emit);
    } else {
      for (const t of touched) {
        const pod = t.kind === 'Pod' ? podOf(state, rs, t.name) : undefined;
        if (pod) emitPod(memo, pod, row, owned, opened, emit);
      }
    }
  }
  return opened;
}

/** Whether any of `phases` was emitted for the current revision. */
export function phaseEmitted(memo: EmittedMemo, ...phases: RolloutPhase[]): boolean {
  return phases.some((p) => memo.phases.includes(`${memo.revision ?? ''}:${p}`));
}

/** Emits phase `p` once per revision. */
export function phase(memo: EmittedMemo, emit: Emit, p: RolloutPhase, message: string): void {
  const key = `${memo.revision ?? ''}:${p}`;
  if (memo.phases.includes(key)) return;
  memo.phases = [...memo.phases, key];
  emit({ type: 'phase', phase: p, message });
}

/** The kubespy phases: new ReplicaSet, scaling up, scaling down old; `complete` comes with success. */
export function emitPhases(state: RolloutState, memo: EmittedMemo, emit: Emit, succeeded: boolean): void {
  const rs = newReplicaSet(state);
  const rev = memo.revision ?? '';
  const anyPhase = memo.phases.some((k) => k.startsWith(`${rev}:`));
  // A paused Deployment's template change has no ReplicaSet yet: the revision's old one is not "new".
  const current = rs !== undefined && templateKey(rs.spec?.template) === templateKey(tracedDeployment(state)?.spec?.template);
  if (rs && current && !(succeeded && !anyPhase)) {
    const { ready, spec } = replicaSetReadiness(rs);
    phase(memo, emit, 'new-replicaset', `ReplicaSet ${rs.metadata?.name} holds revision ${rev}`);
    if (spec > 0) phase(memo, emit, 'scaling-up', `scaling up ReplicaSet ${rs.metadata?.name}: ${ready}/${spec} pods ready`);
  }
  for (const old of oldReplicaSets(state)) {
    const uid = old.metadata?.uid ?? '';
    const spec = old.spec?.replicas ?? 1;
    const first = memo.oldReplicas[uid];
    if (first === undefined) memo.oldReplicas = { ...memo.oldReplicas, [uid]: spec };
    const shrinking = (first !== undefined && spec < first) || (spec === 0 && (old.status?.replicas ?? 0) > 0);
    if (shrinking && !(succeeded && !anyPhase)) {
      phase(memo, emit, 'scaling-down-old', `scaling down old ReplicaSet ${old.metadata?.name} (revision ${revisionOf(old)}) to ${spec}`);
    }
  }
}

/** Pulumi-style progress line for the new ReplicaSet, on change. */
export function emitProgress(state: RolloutState, memo: EmittedMemo, emit: Emit): void {
  const rs = newReplicaSet(state);
  const d = tracedDeployment(state);
  if (!rs || !d) return;
  const { ready, spec } = replicaSetReadiness(rs);
  const updated = d.status?.updatedReplicas ?? 0;
  const available = rs.status?.availableReplicas ?? 0;
  const message = pulumiProgressMessage(rs);
  // 1.33+: old pods still shutting down (their grace period), counted by the controller.
  const terminating = d.status?.terminatingReplicas ?? undefined;
  const key = `${message}|${updated}|${available}|${terminating ?? ''}`;
  if (memo.progress === key) return;
  memo.progress = key;
  emit({ type: 'progress', desired: spec, ready, updated, available, ...(terminating ? { terminating } : {}), message });
}
