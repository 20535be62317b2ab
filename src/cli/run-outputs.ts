/**
 * What a run leaves behind besides its output, once the traces (or the replay) ended: the HTML
 * report (`--report FILE.html`), the JUnit XML report (`--junit FILE`), and on GitHub Actions the
 * Markdown job summary appended to `$GITHUB_STEP_SUMMARY`. The paths are checked before anything is
 * traced: a directory that does not exist is a usage error, not a lost report.
 */
import { accessSync, appendFileSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RolloutEvent, Verdict } from '../core/index.js';
import { junitReport, markdownSummary } from '../report/ci-summary.js';
import { htmlReport } from '../report/html-report.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/** The files asked for. */
export interface RunOutputFiles {
  report?: string;
  junit?: string;
}

/** Collects the events, writes the files at the end. */
export interface RunOutputs {
  add(e: RolloutEvent): void;
  /** Writes every file asked for, and the job summary on GitHub Actions; says where on stderr. */
  finish(verdicts: readonly Verdict[], title: string, io: CliIo): void;
}

/** A path whose directory exists and can be written, made absolute; else a usage error naming the flag. */
function writablePath(flag: string, path: string): string {
  const full = resolve(path);
  const dir = dirname(full);
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(
      `${flag} ${JSON.stringify(path)}: the directory ${JSON.stringify(dir)} does not exist or cannot be written; give a path in a writable directory.`,
    );
  }
  return full;
}

/** The outputs of a run with `files` (checked now) in the environment `env`. */
export function runOutputs(files: RunOutputFiles, env: Record<string, string | undefined>): RunOutputs {
  const report = files.report !== undefined ? writablePath('--report', files.report) : undefined;
  const junit = files.junit !== undefined ? writablePath('--junit', files.junit) : undefined;
  const summary = env.GITHUB_ACTIONS === 'true' ? env.GITHUB_STEP_SUMMARY : undefined;
  const events: RolloutEvent[] = [];
  return {
    add: (e) => {
      if (report) events.push(e);
    },
    finish: (verdicts, title, io) => {
      if (report) {
        writeFileSync(report, htmlReport(events, title));
        io.stderr.write(`rollout-trace: report written to ${report}\n`);
      }
      if (junit) {
        writeFileSync(junit, junitReport(verdicts));
        io.stderr.write(`rollout-trace: JUnit report written to ${junit}\n`);
      }
      if (summary) {
        try {
          appendFileSync(summary, markdownSummary(verdicts, title));
        } catch (err) {
          io.stderr.write(`rollout-trace: could not append the job summary to GITHUB_STEP_SUMMARY (${(err as Error).message})\n`);
        }
      }
    },
  };
}
