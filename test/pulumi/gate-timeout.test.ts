/**
 * Gate mode, a rollout that is slow but not failing (image pull takes 60 s) with a 6 s
 * `pulumi.com/timeoutSeconds` annotation: the trace resource fails saying which timeout fired.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

test('gate: a timeout names the timeout that fired', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-timeout');
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const args = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
      Object.assign(args.metadata, { annotations: { 'pulumi.com/timeoutSeconds': '6' } });
      (args.spec.template.metadata as Record<string, unknown>).annotations = { 'sim.rollout-trace.dev/nginx': 'slow-start;seconds=60' };
      lib.gatedDeployment('web', args);
    },
  });
  const elapsed = (run.finishedAt - run.startedAt) / 1000;
  const errors = visible(run).filter((l) => l.severity === 3);
  console.log(errors.map((e) => e.message).join('\n'));
  console.log(`failed after ${elapsed.toFixed(1)}s`);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.urn, /::web-rollout$/);
  assert.match(errors[0]!.message, /^rollout-trace gave up after 6s: the Deployment's pulumi\.com\/timeoutSeconds annotation/);
  assert.match(errors[0]!.message, /TIMED OUT/);
  // From program start: includes loading @pulumi/kubernetes and tsx transpiling (slow under load).
  assert.ok(elapsed >= 6 && elapsed < 40, `${elapsed}s`);
});
