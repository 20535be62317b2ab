/**
 * Observe mode, broken image: the kubernetes provider keeps awaiting (here its stand-in times out
 * after 30 s, standing for the real 10 minutes), but rollout-trace reports the reason while that
 * await is still running: live warnings first, then a permanent summary in Diagnostics.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { applyReady, nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

test('observe: a broken image is explained while the provider is still awaiting', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-observe-broken');
  await applyReady(namespace, 'nginx', 'nginx:1.11-alpine', 2);

  const run = await runProgram({
    awaitTimeoutMs: 30_000,
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      lib.tracedDeployment('nginx', nginxArgs(namespace, 'nginx:1.12-does-not-exist', 2, 'nginx'));
    },
  });
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt }));

  const [await_] = run.provider.awaits;
  assert.equal(await_?.result, 'timeout', 'the provider stand-in waited until its own timeout');
  const summary = visible(run).find((l) => !l.ephemeral && l.urn.endsWith('::nginx-rollout'));
  assert.ok(summary, 'a permanent summary on the trace row');
  assert.equal(summary.severity, 2);
  assert.match(summary.message, /FAILED/);
  assert.match(summary.message, /image "nginx:1\.12-does-not-exist" not found/);
  assert.match(summary.message, /kubectl -n \S+ describe pod nginx-/);
  assert.match(summary.message, /observe mode: the kubernetes provider keeps waiting/);
  const reportedAfter = (summary.at - await_!.start) / 1000;
  console.log(
    `reason reported ${reportedAfter.toFixed(1)}s into the provider's await (which ran ${((await_!.end - await_!.start) / 1000).toFixed(1)}s)`,
  );
  assert.ok(summary.at < await_!.end, 'reported while the provider was still awaiting');
  assert.ok(reportedAfter < 25);
  // The live warning came even earlier, as an ephemeral line.
  const firstWarning = visible(run).find((l) => l.ephemeral && l.severity === 2 && /not found/.test(l.message));
  assert.ok(firstWarning && firstWarning.at < summary.at);
  // The update still fails, but because of the provider (as without rollout-trace), not because of us.
  assert.ok(
    run.errors.some((e) => /timed out waiting to be Ready/.test(e.message)),
    JSON.stringify(run.errors),
  );
  assert.ok(run.errors.every((e) => !/rollout-trace|FAILED/.test(e.message)));
});
