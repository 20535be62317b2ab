/**
 * What every demo scene shares: its title and narrative, and running the CLI as a user would (a
 * subprocess; `-o plain` when stdout is not a terminal).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The demo's namespace. */
export const NS = 'rollout-trace-demo';
const BIN = fileURLToPath(new URL('../bin/rollout-trace.js', import.meta.url));
const tty = process.stdout.isTTY === true;
/** Bold on a terminal. */
export const bold = (s: string) => (tty && !process.env.NO_COLOR ? `\u001b[1m${s}\u001b[22m` : s);
/** Dim on a terminal. */
export const dim = (s: string) => (tty && !process.env.NO_COLOR ? `\u001b[2m${s}\u001b[22m` : s);

/** The CLI processes running now (killed on Ctrl-C). */
export const children = new Set<ChildProcess>();

/** Prints one line. */
export function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

const SCENES = 11;

/** Prints scene `n`'s title and narrative. */
export function scene(n: number, title: string, narrative: string[]): void {
  const line = '─'.repeat(Math.max(10, 72 - title.length - 12));
  say('');
  say(bold(`── Scene ${n}/${SCENES}: ${title} ${line}`));
  for (const l of narrative) say(dim(`   ${l}`));
  say('');
}

/**
 * Runs the CLI like a user would (`target` is its first arguments: `deploy nginx`, `job migrate`);
 * resolves with its exit code. `afterVerdict` runs once the CLI
 * printed its verdict (`--watch-for` scenes): with plain output the demo reads the CLI's stdout
 * and forwards it; a live terminal view must own the terminal, so there it runs after a delay.
 */
export function rolloutTrace(
  target: string[],
  kubeconfig: string,
  hooks: { afterStart?: () => Promise<void>; afterVerdict?: () => Promise<void> } = {},
): Promise<number> {
  const { afterStart, afterVerdict } = hooks;
  const output = tty ? 'tty' : 'plain';
  const argv = [...target, '-n', NS, '--kubeconfig', kubeconfig, '-o', output];
  say(dim(`$ rollout-trace ${argv.filter((a) => a !== kubeconfig && a !== '--kubeconfig').join(' ')}`));
  const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', tty ? 'inherit' : 'pipe', 'inherit'] });
  children.add(child);
  const actions: Promise<void>[] = [];
  const once = (hook: (() => Promise<void>) | undefined) => {
    let done = false;
    return () => {
      if (done || !hook) return;
      done = true;
      actions.push(hook());
    };
  };
  const onStart = once(afterStart);
  const onVerdict = once(afterVerdict);
  if (tty) {
    const timers = [setTimeout(onStart, 3000), setTimeout(onVerdict, 8000)];
    child.on('exit', () => timers.forEach(clearTimeout));
  } else {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      seen += chunk.toString();
      if (/tracing rollout/.test(seen)) onStart();
      if (/SUCCEEDED|FAILED/.test(seen)) onVerdict();
    });
  }
  return new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      onStart(); // a change the CLI did not live to see still has to happen
      say(dim(`(exit code ${code ?? signal})`));
      Promise.all(actions).then(() => resolve(code ?? 1), reject);
    });
  });
}

/** Runs `rollout-trace replay ARGS` (no cluster) like a user would; resolves with its exit code. */
export function rolloutTraceReplay(args: string[]): Promise<number> {
  const argv = ['replay', ...args, '-o', tty ? 'tty' : 'plain'];
  say(dim(`$ rollout-trace ${argv.join(' ')}`));
  const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'inherit', 'inherit'] });
  children.add(child);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      children.delete(child);
      say(dim(`(exit code ${code ?? signal})`));
      resolve(code ?? 1);
    });
  });
}
