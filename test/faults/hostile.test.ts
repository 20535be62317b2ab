/**
 * Fault suite on the shared cluster: hostile terminals and hostile cluster text. A pseudo-terminal
 * 0 columns wide, escape bytes in a container's logs and termination message, a secret in a
 * termination message with --redact, and durations beyond Node's 24.8-day timer limit.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isAlive } from '../../local-cluster/processes.js';
import { withNamespace } from '../helpers/cluster.js';
import { deployArgs, expectVerdict, type FaultRun, figure, outputOf, traceCli } from '../helpers/faults.js';
import { createDeployment } from '../integration/track/helpers.js';

/** Runs the CLI on a pseudo-terminal (`script`) after `stty` settings; kills it if it outlives the test. */
async function onTerminal(args: string[], stty: string, timeoutMs: number): Promise<FaultRun> {
  const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'rt-pty-')), 'pid');
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  try {
    return await traceCli(args, [], {
      env: { TERM: 'xterm-256color' },
      timeoutMs,
      wrap: (argv) => ['script', '-qfec', `stty ${stty}; echo $$ > ${quote(pidFile)}; exec ${argv.map(quote).join(' ')}`, '/dev/null'],
    });
  } finally {
    // A CLI stuck redrawing outlives a killed `script`: never leave it behind.
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}

/** The same run through every sink: plain lines, GitHub Actions lines, JSON lines (in parallel), then a TTY. */
async function everySink(args: string[]): Promise<Record<'plain' | 'github' | 'json' | 'tty', FaultRun>> {
  const [plain, github, json] = await Promise.all([
    traceCli(args),
    traceCli(args, [], { env: { GITHUB_ACTIONS: 'true', CI: 'true' } }),
    traceCli([...args, '-o', 'json']),
  ]);
  return { plain, github, json, tty: await onTerminal(args, 'cols 120', 300_000) };
}

/** A container that never starts (the rollout stays under way). */
const NEVER_READY = { app: 'slow-start;seconds=600' };

/** Control bytes that must never reach a CI log or a pipe raw: C0 (but \t and \n), DEL, C1. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/;

/** Log lines a hostile container prints (`;` and `|` cannot appear: they separate the annotation's fields). */
const HOSTILE_LINES = [
  '\u001b[2J\u001b[31mclear-screen-and-red',
  'nul\u0000byte',
  'back\u0008\u0008space',
  'bare\rcarriage-return',
  'eight-bit\u009b31mcsi',
  '::error::injected-by-a-log-line',
  'bell\u0007ring',
];

describe('fault: hostile terminals and text', { concurrency: true }, () => {
  it('a pseudo-terminal 0 columns wide: --timeout still ends the run (exit 70), output stays small', async (t) => {
    const ns = await withNamespace(t, 'fault-cols0');
    await createDeployment(ns, 'web', { behaviour: NEVER_READY });
    const run = await onTerminal(deployArgs(ns, 'web', '--timeout', '8s'), 'cols 0', 120_000);
    figure(t, '0-column TTY', run, `${run.stdout.length} characters of output`);
    expectVerdict(run, { code: 70, verdict: /TIMED OUT/ });
    assert.ok(run.stdout.length < 200_000, `${run.stdout.length} characters written in ${run.ms} ms`);
  });

  it('escape bytes in container logs and the termination message are neutralised in every sink', async (t) => {
    const ns = await withNamespace(t, 'fault-hostile');
    const message = 'boom\u001b[2J\u009b2Jgone';
    await createDeployment(ns, 'api', {
      behaviour: { app: `crash;exitCode=3;after=2;message=${message};logs=${HOSTILE_LINES.join('|')}` },
      // Never Ready, so the crash (not a brief readiness) decides.
      container: { readinessProbe: { httpGet: { path: '/ready', port: 80 }, initialDelaySeconds: 120 } },
    });
    const args = deployArgs(ns, 'api', '--timeout', '90s', '--follow-logs');
    const { plain, github, json, tty } = await everySink(args);
    figure(t, 'hostile log bytes (plain)', plain);
    figure(t, 'hostile log bytes (GitHub Actions)', github);
    figure(t, 'hostile log bytes (TTY)', tty);
    expectVerdict(plain, { code: 1, verdict: /FAILED/ });
    expectVerdict(github, { code: 1, verdict: /FAILED/ });
    expectVerdict(tty, { code: 1, verdict: /FAILED/ });
    assert.ok(json.code === 1, outputOf(json));
    assert.ok(/clear-screen-and-red/.test(plain.stdout), `the hostile lines were streamed (neutralised)\n${outputOf(plain)}`);
    for (const [name, out] of [
      ['plain', plain.stdout],
      ['GitHub Actions', github.stdout],
      ['JSON', json.stdout],
    ] as const) {
      const bad = RAW_CONTROL.exec(out);
      assert.ok(bad === null, `${name}: raw control byte U+${bad?.[0].codePointAt(0)?.toString(16).padStart(4, '0')} at ${bad?.index}`);
    }
    const commands = github.stdout
      .split('\n')
      .filter((l) => l.startsWith('::') && !/^::(error title=Deployment |group::|endgroup::)/.test(l));
    assert.deepEqual(commands, [], 'no line from the cluster becomes a GitHub Actions command');
    for (const seq of ['\u001b[2J', '\u001b[31mclear', '\u009b', '\u0000', '\u0008', '\u0007ring'])
      assert.ok(!tty.stdout.includes(seq), `TTY: ${JSON.stringify(seq)} reached the terminal`);
  });

  it('a secret in a termination message is redacted everywhere with --redact', async (t) => {
    const ns = await withNamespace(t, 'fault-secret');
    await createDeployment(ns, 'api', {
      behaviour: { app: 'crash;exitCode=3;after=1;message=fatal: auth failed password=hunter2 url=postgres://u:pw@db/x' },
      container: { readinessProbe: { httpGet: { path: '/ready', port: 80 }, initialDelaySeconds: 120 } },
    });
    const args = deployArgs(ns, 'api', '--timeout', '90s', '--redact', 'hunter2');
    const { plain, github, json, tty } = await everySink(args);
    figure(t, 'secret in a termination message (plain)', plain);
    expectVerdict(plain, { code: 1, verdict: /FAILED/ });
    expectVerdict(github, { code: 1, verdict: /FAILED/ });
    expectVerdict(tty, { code: 1, verdict: /FAILED/ });
    assert.ok(json.code === 1, outputOf(json));
    assert.ok(/auth failed/.test(plain.stdout), `the termination message is shown\n${outputOf(plain)}`);
    for (const [name, run] of [
      ['plain', plain],
      ['GitHub Actions', github],
      ['JSON', json],
      ['TTY', tty],
    ] as const) {
      assert.ok(!`${run.stdout}${run.stderr}`.includes('hunter2'), `${name}: the secret is printed:\n${outputOf(run)}`);
    }
  });

  it('huge durations: --timeout 600h --no-progress-timeout 600h on a healthy Deployment succeeds, no TimeoutOverflowWarning', async (t) => {
    const ns = await withNamespace(t, 'fault-huge');
    await createDeployment(ns, 'web', { replicas: 2 });
    // A bounded run: the overflow bug floods stderr and burns CPU until killed.
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '600h', '--no-progress-timeout', '600h'), [], { timeoutMs: 120_000 });
    figure(t, 'huge durations', run);
    expectVerdict(run, { code: 0, verdict: /SUCCEEDED - revision 1 rolled out: 2\/2 pods ready/ });
    assert.ok(!run.stderr.includes('TimeoutOverflowWarning'), `TimeoutOverflowWarning on stderr:\n${outputOf(run)}`);
  });
});
