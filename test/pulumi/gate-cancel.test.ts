/**
 * Cancelling a gate: Ctrl-C (SIGINT) while the gate waits closes every watch, logs the trace's
 * `trace stopped` line and the process exits at once by the signal (as it would without rollout-trace); aborting the `signal` option ends the trace
 * as `cancelled`, fails the gate resource, and the program finishes (no watch left open).
 */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

test('Ctrl-C during a gated rollout: the program exits at once', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-sigint');
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'harness/cancel-child.ts'), namespace], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`child never started tracing: ${out}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('TRACING')) {
        clearTimeout(timer);
        ok();
      }
    });
  });
  const sentAt = Date.now();
  child.kill('SIGINT');
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
  const ms = Date.now() - sentAt;
  console.log(`exited ${ms} ms after SIGINT (code ${code}, signal ${signal})`);
  assert.equal(signal, 'SIGINT');
  assert.ok(ms < 5000, `took ${ms} ms`);
  assert.ok(!out.includes('PROGRAM-ENDED'));
  // The trace's cancelled line reached the engine before the signal was re-raised.
  assert.match(
    out,
    /^LOG 2 trace stopped: .*/m,
    out
      .split('\n')
      .filter((l) => l.startsWith('LOG'))
      .slice(-5)
      .join('\n'),
  );
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
