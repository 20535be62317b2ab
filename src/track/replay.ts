/**
 * Replaying one recorded trace (pure): its observations go through the same admission and the
 * same reducer as in the live tracker (track/decisions.ts, core `reduce`), under the recorded
 * policy or other policy flags, so a replay says what the trace said, or what it would have said.
 * The tracker's own events (log lines, warnings) are replayed as recorded, before the verdict;
 * the verdict gets the log tails the live trace read, for the problems it still names.
 */
import type { Observation, Policy, PolicyOverrides, RolloutEvent, Verdict } from '../core/index.js';
import { initialState, reduce, resolvePolicy, workloadOf } from '../core/index.js';
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
  let state = initialState(trace.target, policy, startedAt);
  let gate = INITIAL_GATE;
  const events: RolloutEvent[] = [];
  let reached: TimedVerdict | undefined;
  for (const item of trace.items) {
    if (item.kind === 'event') {
      events.push(item.event);
      continue;
    }
    const obs: Observation = item.obs;
    const admitted = admit(gate, obs);
    gate = admitted.gate;
    if (admitted.release) {
      reached = admitted.release;
      break;
    }
    const [next, out] = reduce(state, obs);
    state = next;
    for (const e of out) {
      if (e.type !== 'verdict') {
        events.push(e);
        continue;
      }
      const decided = onVerdict(gate, obs, { verdict: e.verdict, at: e.at });
      gate = decided.gate;
      reached = decided.publish;
      break;
    }
    if (reached) break;
  }
  const kind = trace.target.kind ?? 'Deployment';
  if (!reached)
    return {
      events: events.map((e) => (e.kind === undefined ? { ...e, kind } : e)),
      ...(trace.error !== undefined ? { error: trace.error } : {}),
    };
  const verdict = withRecordedLogs(reached.verdict, trace.verdict?.verdict);
  const workload = workloadOf(verdict);
  events.push({ type: 'verdict', verdict, at: reached.at, workload, deployment: verdict.deployment });
  // As the tracker publishes them: every event names its kind.
  return { events: events.map((e) => (e.kind === undefined ? { ...e, kind: workload.kind } : e)), verdict };
}

/** `verdict` with the log tails the live trace read (`recorded`), for the problems both name. */
function withRecordedLogs(verdict: Verdict, recorded: Verdict | undefined): Verdict {
  if (!recorded) return verdict;
  const tails = new Map(recorded.problems.filter((p) => p.logs).map((p) => [p.id, p.logs]));
  const problems = verdict.problems.map((p) => (tails.has(p.id) ? { ...p, logs: tails.get(p.id) } : p));
  return { ...verdict, problems, ...(recorded.logs ? { logs: recorded.logs } : {}) };
}
