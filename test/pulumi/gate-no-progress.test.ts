/**
 * Gate mode, a pod stuck in ContainerCreating (image pull takes 60 s) with
 * `noProgressTimeoutSeconds: 5` and a long overall timeout: the trace resource fails saying the
 * no-progress timeout fired, long before the overall one.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

test('gate: the no-progress timeout fails the resource and is named', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-noprogress');
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const args = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
      (args.spec.template.metadata as Record<string, unknown>).annotations = { 'sim.rollout-trace.dev/nginx': 'slow-start;seconds=60' };
      lib.gatedDeployment('web', args, {}, { timeoutSeconds: 300, noProgressTimeoutSeconds: 5 });
    },
  });
  const elapsed = (run.finishedAt - run.startedAt) / 1000;
  const errors = visible(run).filter((l) => l.severity === 3);
  t.diagnostic(`failed after ${elapsed.toFixed(1)}s`);
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.urn, /::web-rollout$/);
  assert.match(errors[0]!.message, /^rollout-trace gave up after 5s without progress: the noProgressTimeoutSeconds option/);
  assert.match(errors[0]!.message, /no progress for 5s/);
  assert.ok(elapsed >= 5 && elapsed < 40, `${elapsed}s`);
});
