/**
 * Cancelling a gate, as it really happens:
 * - under `pulumi up` the program runs in the language host's process group, not the terminal's;
 *   on cancel the Node.js language host sends the program process SIGINT and SIGKILLs it 5 s later
 *   (pp: sdk/nodejs/cmd/pulumi-language-nodejs/main.go, exec.Cmd Cancel + WaitDelay). Modelled:
 *   the program in its own process group gets SIGINT from its parent, SIGKILL after 5 s. It must
 *   close its watches, log `trace stopped`, and exit by the signal before the kill;
 * - in an Automation API app the program runs inside the app, which handles SIGINT itself: the
 *   traces stop, and no SIGINT is re-raised into the app (it keeps running, the run ends);
 * - aborting the `signal` option ends the trace as `cancelled` and fails the gate resource.
 */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

/** Starts the child in its own process group and resolves once it is tracing. */
async function startTracing(namespace: string, app: boolean) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(import.meta.dirname, 'harness/cancel-child.ts'), namespace, ...(app ? ['app'] : [])],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  const state = { out: '' };
  child.stdout.on('data', (d) => (state.out += d));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
  await new Promise<void>((ok, fail) => {
    const timer = setInterval(() => {
      if (state.out.includes('TRACING')) clearInterval(timer), ok();
    }, 100);
    setTimeout(() => (clearInterval(timer), fail(new Error(`child never started tracing: ${state.out}`))), 90_000).unref();
  });
  return { child, state, exited };
}

test('the language host cancels the program: watches close, it exits by SIGINT before the 5 s kill', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-sigint');
  const { child, state, exited } = await startTracing(namespace, false);
  const sentAt = Date.now();
  child.kill('SIGINT');
  const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
  const [code, signal] = await exited;
  clearTimeout(kill);
  const ms = Date.now() - sentAt;
  console.log(`exited ${ms} ms after SIGINT (code ${code}, signal ${signal})`);
  assert.equal(signal, 'SIGINT', 'ended by the host SIGINT, not the 5 s SIGKILL');
  assert.ok(ms < 5000, `took ${ms} ms`);
  assert.ok(!state.out.includes('RUN-ENDED'));
  assert.match(state.out, /^LOG 2 permanent trace stopped: .*/m, state.out.split('\n').slice(-5).join('\n'));
});

test('Automation API app: SIGINT stops the traces, none is re-raised into the app', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-app-sigint');
  const { child, state, exited } = await startTracing(namespace, true);
  child.kill('SIGINT');
  const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = await exited;
  clearTimeout(kill);
  console.log(state.out.split('\n').slice(-4).join('\n'));
  assert.equal(signal, null, 'not killed by a re-raised SIGINT');
  assert.equal(code, 0);
  assert.match(state.out, /^APP-SIGINT$/m, "the app's own handler ran");
  assert.match(state.out, /^LOG 2 permanent trace stopped: .*/m);
  assert.match(state.out, /^RUN-ENDED .*rollout trace cancelled/m, 'the run ended with the cancelled gate');
});

test('aborting the signal option cancels the gate and the program ends', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-abort');
  const controller = new AbortController();
  let abortedAt = 0;
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const { trace } = lib.gatedDeployment(
        'web',
        nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'web'),
        {},
        {
          policy: { classes: { 'image-pull-not-found': { afterSeconds: 600 } } },
          signal: controller.signal,
        },
      );
      trace.urn.apply(() =>
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort();
        }, 4000),
      );
    },
  });
  const ms = run.finishedAt - abortedAt;
  console.log(`program ended ${ms} ms after abort`);
  assert.ok(abortedAt > 0 && ms < 3000, `took ${ms} ms`);
  const errors = visible(run).filter((l) => l.severity === 3);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.urn, /::web-rollout$/);
  assert.match(errors[0]!.message, /rollout trace cancelled/);
});
