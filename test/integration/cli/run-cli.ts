/** Runs the real `rollout-trace` executable (bin/rollout-trace.js) as a subprocess. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/rollout-trace.js', import.meta.url));

/** What the process printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the CLI with `args`; `env` is added to a CI-like environment (no TTY, no colours).
 * `interruptWhen`: send SIGINT once stdout matches it.
 */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000, interruptWhen?: RegExp): Promise<CliRun> {
  const started = Date.now();
  const base = { ...process.env };
  for (const k of ['FORCE_COLOR', 'NO_COLOR', 'GITHUB_ACTIONS', 'CI']) delete base[k];
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    if (interruptWhen && !interrupted && interruptWhen.test(stdout)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Asserts-friendly check that stderr is one paragraph without a stack trace. */
export function isOneParagraph(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && !t.includes('\n') && !/\n\s+at /.test(text) && !/\bat .*\.(ts|js):\d+/.test(text);
}
