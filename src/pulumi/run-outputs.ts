/**
 * What a `pulumi up` leaves behind besides its lines, as each trace ends: the HTML report of the
 * run's traces (`report` option, rewritten as traces end), the JUnit XML report (`junit`), and on
 * GitHub Actions each trace's Markdown summary appended to `$GITHUB_STEP_SUMMARY` and, for a
 * failure, an `::error` annotation on the program line that declared the workload.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { RolloutEvent, Verdict } from '../core/index.js';
import { htmlReport, junitReport, markdownSummary } from '../report/index.js';
import { githubAnnotation, type SourcePosition } from './declared-at.js';
import type { TraceOptions } from './options.js';
import type { RunState } from './run-state.js';

/** One trace's end, for the run's outputs. */
export interface TraceEnded {
  verdict: Verdict;
  /** The trace's events (kept only when a report is asked for). */
  events: readonly RolloutEvent[];
  declaredAt?: SourcePosition;
}

/**
 * Records `ended` in the run and writes the run's outputs. A file that cannot be written is a
 * warning (`warn`), never a failed update.
 */
export function traceEnded(
  run: RunState,
  options: TraceOptions,
  ended: TraceEnded,
  env: NodeJS.ProcessEnv,
  warn: (text: string) => void,
): void {
  run.ended.verdicts.push(ended.verdict);
  if (options.report !== undefined) run.ended.events.push(...ended.events);
  const write = (what: string, path: string, text: string, append = false) => {
    try {
      (append ? appendFileSync : writeFileSync)(path, text);
    } catch (err) {
      warn(`rollout-trace could not write the ${what} to ${path}: ${(err as Error).message}`);
    }
  };
  if (options.report !== undefined) write('report', options.report, htmlReport(run.ended.events, 'rollout-trace: pulumi up'));
  if (options.junit !== undefined) write('JUnit report', options.junit, junitReport(run.ended.verdicts));
  if (env.GITHUB_ACTIONS !== 'true') return;
  if (env.GITHUB_STEP_SUMMARY)
    write('job summary', env.GITHUB_STEP_SUMMARY, markdownSummary([ended.verdict], 'rollout-trace (pulumi up)'), true);
  if (ended.verdict.outcome !== 'succeeded' && ended.verdict.outcome !== 'cancelled' && ended.declaredAt) {
    const w = ended.verdict.workload;
    // The runner reads workflow commands from the step's output: the program's stdout reaches it.
    process.stdout.write(
      `${githubAnnotation(ended.declaredAt, env.GITHUB_WORKSPACE ?? process.cwd(), `${w.kind} ${w.namespace}/${w.name}`, ended.verdict.summary)}\n`,
    );
  }
}
