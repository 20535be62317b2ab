/**
 * Runs test files with node:test the way `npm test` does (spec output, process isolation, a
 * concurrency), records every test's outcome and every file's wall time (scripts/test-timings.ts),
 * and keeps the `✖ failing tests:` section for a recap. Shared by `npm test` (run-tests.ts) and the
 * stress command (stress.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FileRecord, TestRecord } from './test-timings.js';

/** The files `npm test` runs first; the fault suite comes after them. */
export const DEFAULT_GLOBS = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/pulumi/**/*.test.ts'];
/** The fault files that take longest (one case at a time, minutes each): started first. */
const LONGEST_FAULT_FILES = ['test/faults/workloads.test.ts', 'test/faults/etcd-kubelet.test.ts'];

/**
 * The fault suite's files (test/faults/), the longest first. The suite runs after the rest, two
 * files at a time: its cases assert an exit within 1 s of the verdict, which measures the tool
 * only when the machine is not also running 3 other files; and a long file started last would run
 * alone at the end.
 */
export function faultFiles(): string[] {
  const all = readdirSync('test/faults')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/faults/${f}`)
    .sort();
  return [...LONGEST_FAULT_FILES.filter((f) => all.includes(f)), ...all.filter((f) => !LONGEST_FAULT_FILES.includes(f))];
}

/** How one node:test run went. */
export interface RunResult {
  code: number;
  tests: TestRecord[];
  files: FileRecord[];
  /** The spec reporter's failing-tests section, without stack frames. */
  failures: string[];
}

/** Options of {@link runNodeTest}. */
export interface RunOptions {
  env: NodeJS.ProcessEnv;
  /** One process per file (default); false runs every file in one process (unit tests). */
  isolate?: boolean;
  /** Files run at once (default `ROLLOUT_TRACE_TEST_CONCURRENCY` or 3). */
  concurrency?: string;
  /** Where the spec output goes (default: this process's stdout). */
  write?: (text: string) => void;
}

/** A folder argument (`test/faults/`) means every test file under it. */
export function expandFolders(args: string[]): string[] {
  return args.map((a) => (!a.startsWith('-') && existsSync(a) && statSync(a).isDirectory() ? `${a.replace(/\/+$/, '')}/**/*.test.ts` : a));
}

/** The file arguments (not flags) among `args`. */
export function fileArgs(args: string[]): string[] {
  return args.filter((a) => !a.startsWith('-'));
}

/** Runs `given` (files, folders and node --test flags; none: {@link DEFAULT_GLOBS}) and says how it went. */
export function runNodeTest(given: string[], options: RunOptions): Promise<RunResult> {
  const args = expandFolders(given);
  const dir = mkdtempSync(join(tmpdir(), 'rollout-trace-timings-'));
  const timings = join(dir, 'timings.jsonl');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/test-timings.ts',
      `--test-reporter-destination=${timings}`,
      `--test-concurrency=${options.concurrency ?? process.env.ROLLOUT_TRACE_TEST_CONCURRENCY ?? '3'}`,
      // A fault file starts its own control plane and runs its cases one by one: minutes on 2 cores.
      '--test-timeout=900000',
      // Never --test-force-exit: a file's process then exits before the runner has its last
      // results (under load a file reported 15 of its 38 tests), so a failure could go unseen.
      // Unit tests share one process (one tsx start-up instead of one per file: ~8x less CPU).
      ...(options.isolate === false ? ['--experimental-test-isolation=none'] : []),
      ...args,
      ...(fileArgs(args).length ? [] : DEFAULT_GLOBS),
    ],
    { stdio: ['inherit', 'pipe', 'inherit'], env: options.env },
  );
  const recap = new FailureRecap();
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  child.stdout.on('data', (chunk: Buffer) => {
    write(chunk.toString('utf8'));
    recap.add(chunk.toString('utf8'));
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise<RunResult>((resolve) =>
    child.on('close', (c, s) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      const { tests, files } = readTimings(timings);
      rmSync(dir, { recursive: true, force: true });
      resolve({ code: c ?? (s ? 130 : 1), tests, files, failures: recap.text() });
    }),
  );
}

function readTimings(path: string): { tests: TestRecord[]; files: FileRecord[] } {
  const tests: TestRecord[] = [];
  const files: FileRecord[] = [];
  if (!existsSync(path)) return { tests, files };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const parsed = JSON.parse(line) as { test?: TestRecord; file?: FileRecord };
    if (parsed.test) tests.push({ ...parsed.test, file: relative(process.cwd(), parsed.test.file) });
    if (parsed.file) files.push({ ...parsed.file, file: relative(process.cwd(), parsed.file.file) });
  }
  return { tests, files };
}

/** The `n` slowest files, one line each (`  412.3 s  test/faults/apiserver.test.ts`). */
export function slowestFiles(files: FileRecord[], n = 10): string[] {
  return [...files]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
}

const MAX_RECAP_LINES = 400;

/**
 * The spec reporter's `✖ failing tests:` section of one run, without stack frames. The run prints
 * it after its own summary; the fault suite runs next, so the whole run repeats every section at
 * its very end, where a CI log's tail shows it.
 */
class FailureRecap {
  private pending = '';
  private readonly lines: string[] = [];
  private inSection = false;

  add(text: string): void {
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop() ?? '';
    for (const line of parts) {
      if (/^✖ failing tests:/.test(line)) this.inSection = true;
      else if (this.inSection && !/^\s+at /.test(line) && this.lines.length < MAX_RECAP_LINES) this.lines.push(line);
    }
  }

  text(): string[] {
    return this.lines;
  }
}
