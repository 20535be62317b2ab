/**
 * How a trace ends in `pulumi up`: its verdict said on the trace's row (a success as a permanent
 * line, a failure with its summary and the program line that declared the workload), the run's
 * outputs written (run-outputs.ts), and in gate mode the error that fails the component.
 */
import type { RolloutEvent, Verdict } from '../core/index.js';
import { rolloutFailureOf } from '../report/index.js';
import type { ChangeKind, TimeoutChoice } from './decisions.js';
import { positionWords } from './declared-at.js';
import type { RolloutResult, RolloutTraceArgs } from './rollout-trace-args.js';
import { traceEnded } from './run-outputs.js';
import { currentRun } from './run-state.js';
import type { StatusLine } from './status-lines.js';
import { verdictText } from './wording.js';

/** What {@link concludeTrace} needs. */
export interface Concluding {
  verdict: Verdict;
  change: ChangeKind;
  timeout: TimeoutChoice;
  gate: boolean;
  args: RolloutTraceArgs;
  /** The events of the tracker that reached the verdict (for the run's report). */
  events: readonly RolloutEvent[];
  /** Says a permanent line on the trace's row. */
  say: (line: StatusLine) => void;
}

/** The trace's result, and in gate mode for anything but a success the error to fail the component with. */
export function concludeTrace(c: Concluding): { result: RolloutResult; gateError?: string } {
  const { verdict, change, args } = c;
  const { revision } = verdict;
  const declaredAt = args.declaredAt;
  traceEnded(currentRun(), args, { verdict, events: c.events, ...(declaredAt ? { declaredAt } : {}) }, process.env, (text) =>
    c.say({ severity: 'warn', text }),
  );
  const timings = verdict.timings ? { timings: verdict.timings } : {};
  if (verdict.outcome === 'succeeded') {
    // Verdicts are permanent: they stay in the final summary (Diagnostics).
    c.say({ severity: 'info', text: verdict.summary });
    return { result: { outcome: 'succeeded', summary: verdict.summary, revision, change, ...timings } };
  }
  const result: RolloutResult = {
    outcome: verdict.outcome,
    summary: verdict.summary,
    revision,
    change,
    failure: rolloutFailureOf(verdict),
    ...timings,
  };
  if (verdict.outcome === 'cancelled') {
    c.say({ severity: 'warn', text: `trace stopped: ${verdict.summary}` });
    return { result, ...(c.gate ? { gateError: `rollout trace cancelled: ${verdict.summary}` } : {}) };
  }
  const where = declaredAt ? `\ndeclared at ${positionWords(declaredAt, process.env.GITHUB_WORKSPACE ?? process.cwd())}` : '';
  const text = `${verdictText(verdict, c.timeout, c.gate)}${where}`;
  if (c.gate) return { result, gateError: text };
  c.say({ severity: 'warn', text });
  return { result };
}
