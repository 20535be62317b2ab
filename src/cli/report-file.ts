/**
 * `--report FILE.html`: the events the CLI rendered, kept, and written as the HTML report
 * (report/html-report.ts) once the trace or the replay ended. The path is checked before anything
 * is traced, so a directory that does not exist is a usage error, not a lost report.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RolloutEvent } from '../core/index.js';
import { htmlReport } from '../report/html-report.js';
import { UsageError } from './usage-error.js';

/** Collects events and writes the report. */
export interface ReportFile {
  add(e: RolloutEvent): void;
  /** Writes the report of every event added; the path written. */
  write(title: string): string;
}

/** A report to be written at `path`; throws a UsageError when it cannot be. */
export function reportFile(path: string): ReportFile {
  const full = resolve(path);
  const dir = dirname(full);
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(
      `--report ${JSON.stringify(path)}: the directory ${JSON.stringify(dir)} does not exist or cannot be written; give a path in a writable directory.`,
    );
  }
  const events: RolloutEvent[] = [];
  return {
    add: (e) => events.push(e),
    write: (title) => {
      writeFileSync(full, htmlReport(events, title));
      return full;
    },
  };
}
