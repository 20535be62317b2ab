/**
 * Replaying one recorded trace (pure): its observations go through the same admission and the
 * same reducer as in the live tracker (track/decisions.ts, core `reduceBatch`), under the recorded
 * policy or other policy flags, so a replay says what the trace said, or what it would have said.
 * The tracker's own events (log lines, warnings) are replayed as recorded, before the verdict;
 * the verdict gets the log tails the live trace read, for the problems it still names.
 */
import type { Observation, Policy, PolicyOverrides, RolloutEvent, RolloutState, Verdict } from '../core/index.js';
import { initialState, reduceBatch, resolvePolicy, watchedOn, workloadOf } from '../core/index.js';
import type { Recording } from '../record/index.js';
import { admit, INITIAL_GATE, onVerdict, type TimedVerdict } from './decisions.js';

/** A replayed trace: its events in order (the verdict last, when one was reached). */
export interface ReplayedTrace {
  events: RolloutEvent[];
  verdict?: Verdict;
  /** The live trace's error, when it ended with one (no verdict). */
  error?: string;
}

/** The policy of a replay: the recorded one, with `flags` over it (a class's fields one by one). */
export function replayPolicy(recorded: Recording['traces'][number]['policy'], flags: PolicyOverrides | undefined): Policy {
  const classes: Record<string, object> = { ...recorded.classes };
  for (const [name, o] of Object.entries(flags?.classes ?? {})) classes[name] = { ...classes[name], ...o };
  return resolvePolicy({
    classes: classes as PolicyOverrides['classes'],
    success: flags?.success ?? recorded.success,
    settleSeconds: flags?.settleSeconds ?? recorded.settleSeconds,
    ...(flags?.classifiers ? { classifiers: flags.classifiers } : {}),
  });
}

/** Replays `trace` under `policy`, from `startedAt` (the recording's start). */
export function replayTrace(trace: Recording['traces'][number], policy: Policy, startedAt: number): ReplayedTrace {
  const { kind } = trace.target;
  const withKind = (events: RolloutEvent[]) => events.map((e) => (e.kind === undefined ? { ...e, kind } : e));
  const before = untilVerdict(trace, initialState(trace.target, policy, startedAt));
  const { reached } = before;
  if (!reached) return { events: withKind(before.events), ...(trace.error !== undefined ? { error: trace.error } : {}) };
  const verdict = withRecordedLogs(reached.verdict, trace.verdict?.verdict);
  const workload = workloadOf(verdict);
  const verdictEvent: RolloutEvent = { type: 'verdict', verdict, at: reached.at, workload, deployment: verdict.deployment };
  const after = watchedAfter(trace.items.slice(before.next), before.state);
  // As the tracker publishes them: every event names its kind.
  return { events: withKind([...before.events, verdictEvent, ...after]), verdict };
}

/** The trace up to its verdict, as the tracker admits and reduces it; `next`: the first item after. */
function untilVerdict(trace: Recording['traces'][number], initial: RolloutState) {
  let state = initial;
  let gate = INITIAL_GATE;
  const events: RolloutEvent[] = [];
  for (let i = 0; i < trace.items.length; i++) {
    const item = trace.items[i]!;
    if (item.kind === 'event') events.push(item.event);
    const batch = observationsOf(item);
    if (batch.length === 0) continue;
    for (const obs of batch) {
      const admitted = admit(gate, obs);
      gate = admitted.gate;
      if (admitted.release) return { events, state, reached: admitted.release, next: i + 1 };
    }
    const [next, out] = reduceBatch(state, batch);
    state = next;
    for (const e of out) {
      if (e.type !== 'verdict') {
        events.push(e);
        continue;
      }
      const decided = onVerdict(gate, batch.at(-1)!, { verdict: e.verdict, at: e.at });
      gate = decided.gate;
      if (decided.publish) return { events, state, reached: decided.publish, next: i + 1 };
      break;
    }
  }
  return { events, state, reached: undefined as TimedVerdict | undefined, next: trace.items.length };
}

/**
 * After the verdict: what the live reducer took while the verdict was being published (no event),
 * then, from the `watch` mark (`--watch`), what the watch after the verdict said (verdict-watch.ts).
 */
function watchedAfter(items: Recording['traces'][number]['items'], final: RolloutState): RolloutEvent[] {
  let state = final;
  let watching = false;
  const events: RolloutEvent[] = [];
  for (const item of items) {
    if (item.kind === 'watch') {
      state = watchedOn(state);
      watching = true;
    }
    const batch = observationsOf(item);
    if (batch.length === 0) continue;
    const [next, out] = reduceBatch(state, batch);
    if (!watching) {
      state = next;
      continue;
    }
    state = next.verdict === undefined ? next : watchedOn(next);
    events.push(...out.filter((e) => e.type !== 'verdict'));
  }
  return events;
}

/** The observations an item fed the reducer as one step (none for the tracker's events and marks). */
function observationsOf(item: Recording['traces'][number]['items'][number]): readonly Observation[] {
  if (item.kind === 'observation') return [item.obs];
  return item.kind === 'batch' ? item.observations : [];
}

/** `verdict` with the log tails the live trace read (`recorded`), for the problems both name. */
function withRecordedLogs(verdict: Verdict, recorded: Verdict | undefined): Verdict {
  if (!recorded) return verdict;
  const tails = new Map(recorded.problems.filter((p) => p.logs).map((p) => [p.id, p.logs]));
  const problems = verdict.problems.map((p) => (tails.has(p.id) ? { ...p, logs: tails.get(p.id) } : p));
  return { ...verdict, problems, ...(recorded.logs ? { logs: recorded.logs } : {}) };
}
