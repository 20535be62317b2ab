/** Runs the real `rollout-trace` executable (bin/rollout-trace.js) as a subprocess. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/rollout-trace.js', import.meta.url));

/** What the process printed and how it ended. */
export interface CliRun {
  code: number | null;
  /** The signal that ended the process (then `code` is null), e.g. SIGKILL. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** When the process exited (ms since the epoch; its output may still have been flushing). */
  exitedAt: number;
}

/** Options of {@link runCli}. */
export interface RunOptions {
  /** Added to a CI-like environment (no TTY, no colours, no CI/GitHub/GitLab variables). */
  env?: Record<string, string>;
  /** Kill the process after this long (the test then fails on the exit code). Default 120 s. */
  timeoutMs?: number;
  /** Called with the stdout so far each time it grows (to act at a given point of the trace). */
  onStdout?: (stdout: string, child: ChildProcess) => void;
  /** Called with the stderr so far each time it grows. */
  onStderr?: (stderr: string, child: ChildProcess) => void;
  /**
   * Runs something else than `node bin/rollout-trace.js ARGS`: gets that argv, returns the one to
   * spawn (e.g. the same under `script` for a pseudo-terminal).
   */
  wrap?: (argv: string[]) => string[];
}

/** Runs the CLI with `args`. */
export function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  const started = Date.now();
  const base = { ...process.env };
  for (const k of ['FORCE_COLOR', 'NO_COLOR', 'GITHUB_ACTIONS', 'GITLAB_CI', 'CI']) delete base[k];
  const [command, ...argv] = options.wrap?.([process.execPath, BIN, ...args]) ?? [process.execPath, BIN, ...args];
  const child = spawn(command!, argv, { env: { ...base, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let exitedAt = 0;
  child.on('exit', () => (exitedAt = Date.now()));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    options.onStdout?.(stdout, child);
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    options.onStderr?.(stderr, child);
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, exitedAt: exitedAt || Date.now() });
    });
  });
}

/** True when `text` is one paragraph without a stack trace. */
export function isOneParagraph(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && !t.includes('\n') && !/\n\s+at /.test(text) && !/\bat .*\.(ts|js):\d+/.test(text);
}

/**
 * Runs the CLI's `runCli` in this process (no Node start-up, no tsx compile): for timing what the
 * CLI itself does, e.g. that an error that cannot go away is reported at once. No TTY, CI-like env.
 */
export async function runCliInProcess(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const { runCli: run } = await import('../../../src/cli/run.js');
  const { PassThrough } = await import('node:stream');
  const started = Date.now();
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await run(args, { stdout: out, stderr: err, env: { TERM: 'dumb', ...env }, onInterrupt: () => () => undefined });
  return { code, signal: null, stdout, stderr, ms: Date.now() - started, exitedAt: Date.now() };
}

/** How a run on a pseudo-terminal ended: {@link CliRun} plus the output size and the CLI's pid. */
export interface PtyRun extends CliRun {
  /** Bytes the CLI wrote to the terminal (stdout and stderr together; only the last 64 KB are kept in `stdout`). */
  bytes: number;
}

/** Options of {@link runCliInPty}. */
export interface PtyOptions extends RunOptions {
  /** What `stty` sets before the CLI starts (0 columns: the size some CI pseudo-terminals report). */
  columns?: number;
  rows?: number;
  /** Called with the pid of the CLI process (inside the terminal) once it is known. */
  onPid?: (pid: number) => void;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`) of the given size, with a TTY-like
 * environment (no CI variables), so `-o auto` draws the live tree. The CLI is exec'ed by the shell
 * `script` starts, so its pid is that shell's; it is SIGKILLed with `script` at `timeoutMs`.
 */
export function runCliInPty(args: string[], options: PtyOptions = {}): Promise<PtyRun> {
  const started = Date.now();
  const base: Record<string, string | undefined> = { ...process.env, TERM: 'xterm-256color' };
  for (const k of ['FORCE_COLOR', 'NO_COLOR', 'GITHUB_ACTIONS', 'GITLAB_CI', 'CI']) delete base[k];
  const command = `stty cols ${options.columns ?? 0} rows ${options.rows ?? 0}; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  // stdin stays open: `script` would end the session at its EOF.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...base, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let pid: number | undefined;
  const findPid = setInterval(() => {
    const ps = spawnSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' });
    pid = Number(ps.stdout.trim().split('\n')[0]) || undefined;
    if (pid !== undefined) {
      clearInterval(findPid);
      options.onPid?.(pid);
    }
  }, 100);
  let bytes = 0;
  let tail = '';
  child.stdout.on('data', (c: Buffer) => {
    bytes += c.length;
    tail = (tail + c.toString()).slice(-65_536);
    options.onStdout?.(tail, child);
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const killer = setTimeout(() => {
    // The CLI may outlive `script` (the bug this guards against): kill both.
    if (pid !== undefined) killQuietly(pid);
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 120_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      clearInterval(findPid);
      child.stdin.destroy();
      resolve({ code, signal, stdout: tail, stderr, ms: Date.now() - started, exitedAt: Date.now(), bytes });
    });
  });
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
