/**
 * The `k8s-event`s: Warning Events (and a few Normal ones) about the traced objects, once per
 * distinct message. Part of the pipeline: which claims are ours is the kind's (`claimNames`).
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import { claimNames } from './current-pods.js';
import { digestEvent } from './diagnose/events.js';
import type { Emit, Touched } from './emit.js';
import { eventTime } from './k8s.js';
import { aboutCurrentTarget, ownedReplicaSets } from './relations.js';
import type { EmittedMemo, RolloutState } from './state.js';

/** Normal events worth showing; every Warning is shown. */
const NORMAL_REASONS = new Set(['ScalingReplicaSet', 'SuccessfulCreate', 'SuccessfulDelete', 'TriggeredScaleUp']);
/** Events older than this before tracking started are history, not news (krane uses 5 s). */
const EVENT_HISTORY_SLACK_MS = 5_000;

/** Whether an Event about `name` is about our objects (the target, its ReplicaSets and pods, its PVCs). */
function isOurs(state: RolloutState, owned: Map<string, string>, name: string): boolean {
  return (
    name === state.target.name ||
    owned.has(name) ||
    ownedReplicaSets(state).some((rs) => rs.metadata?.name === name) ||
    claimNames(state).includes(name)
  );
}

/**
 * Warning events (and a few Normal ones) about our objects, once per distinct message: the Events
 * the observations touched, and the backlog of objects that just became ours (`opened`).
 */
export function emitK8sEvents(
  state: RolloutState,
  memo: EmittedMemo,
  owned: Map<string, string>,
  opened: string[],
  touched: readonly Touched[],
  emit: Emit,
): void {
  const candidates: Array<[string, CoreV1Event]> = [];
  for (const name of [state.target.name, ...claimNames(state), ...opened]) {
    if (memo.eventNames[name]) continue;
    memo.eventNames[name] = true;
    for (const uid of state.kubeEventsByObject.get(name) ?? []) {
      const e = state.kubeEvents.get(uid);
      if (e) candidates.push([uid, e]);
    }
  }
  // Each version a step saw, in order: an Event updated twice within it says both messages.
  const backlog = new Set(candidates.map(([uid]) => uid));
  for (const t of touched) {
    if (t.kind === 'Event' && !backlog.has(t.uid) && isOurs(state, owned, t.name)) candidates.push([t.uid, t.event]);
  }
  const fresh = candidates
    .filter(([, e]) => (e.type === 'Warning' || NORMAL_REASONS.has(e.reason ?? '')) && aboutCurrentTarget(state, e))
    .filter(([, e]) => eventTime(e) >= state.startedAt - EVENT_HISTORY_SLACK_MS)
    .filter(([, e]) => !(e.involvedObject?.kind === 'Pod' && memo.folded[e.involvedObject.name ?? '']))
    .sort(([u, a], [v, b]) => eventTime(a) - eventTime(b) || (state.kubeEventArrival.get(u) ?? 0) - (state.kubeEventArrival.get(v) ?? 0));
  for (const [uid, e] of fresh) {
    const key = `${e.reason}|${e.message}`;
    if (memo.kubeEvents[uid] === key) continue;
    memo.kubeEvents[uid] = key;
    emit({ type: 'k8s-event', event: digestEvent(e) });
  }
}
