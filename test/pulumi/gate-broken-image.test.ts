/**
 * Gate mode, broken image: `gatedDeployment` adds `pulumi.com/waitFor` on the name, so the provider
 * returns at once and rollout-trace owns the await. The image does not exist, so the trace
 * resource must fail within the policy window (image-pull-not-found: 10 s) with the full summary,
 * and a resource that depends on `trace.ready` must never be created.
 */

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { applyReady, nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

test('gate: a broken image fails the trace resource within the policy window', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-gate');
  await applyReady(namespace, 'web', 'nginx:1.19');

  let downstreamCreated = false;
  let gateOutcome: string | undefined;
  let gateFailure: unknown = 'unset';
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      const { trace } = lib.gatedDeployment('web', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 3, 'web'));
      trace.outcome.apply((o) => (gateOutcome = o));
      trace.failure.apply((f) => (gateFailure = f));
      const cm = new k8s.core.v1.ConfigMap(
        'after-rollout',
        { metadata: { namespace }, data: { ready: 'yes' } },
        { dependsOn: [trace.ready] },
      );
      cm.id.apply(() => (downstreamCreated = true));
    },
  });
  const elapsed = (run.finishedAt - run.startedAt) / 1000;
  const transcript = renderTranscript(run.logs, { startedAt: run.startedAt });
  console.log(transcript);
  if (process.env.ROLLOUT_TRACE_WRITE_TRANSCRIPT) writeFileSync('docs/dev/pulumi-transcript-gate.txt', `${transcript}\n`);
  console.log(`gate failed the update after ${elapsed.toFixed(1)}s (program start → program end)`);

  // The provider ran no Deployment await (waitFor), the gate did.
  assert.equal(run.provider.writes, 1);
  assert.deepEqual(run.provider.awaits, []);
  // Exactly one error, attributed to the trace resource, with the krane-style summary.
  const errors = visible(run).filter((l) => l.severity === 3);
  assert.equal(errors.length, 1, errors.map((e) => e.message).join('\n---\n'));
  const [error] = errors;
  assert.match(error!.urn, /::web-rollout$/);
  assert.equal(error!.ephemeral, false);
  assert.match(error!.message, /nginx:1\.99-does-not-exist/);
  assert.match(error!.message, /kubectl .*-n \S+/);
  // Within the policy window (10 s) plus scheduling/pull time, far below the provider's 10 min.
  assert.ok(elapsed < 40, `took ${elapsed}s`);
  // Live lines came before the verdict: the pull failure was visible while it was happening.
  const live = visible(run).filter((l) => l.ephemeral && l.urn.endsWith('::web-rollout'));
  assert.ok(
    live.some((l) => l.severity === 2 && /ErrImagePull|ImagePullBackOff|does not exist|not found/i.test(l.message)),
    live.map((l) => l.message).join('\n'),
  );
  assert.ok(live.every((l) => l.at <= error!.at));
  // Downstream never ran; the gate's outcome output says failed.
  assert.equal(downstreamCreated, false);
  assert.equal(gateOutcome, 'failed');
  // The machine-readable cause, as a stack output would carry it.
  const failure = gateFailure as {
    class?: string;
    pod?: string;
    container?: string;
    reason?: string;
    resource?: { kind: string };
    hint?: string;
    deployment?: { namespace: string };
  };
  assert.equal(failure.class, 'image-pull-not-found');
  assert.match(failure.pod ?? '', /^web-/);
  assert.equal(failure.container, 'nginx');
  assert.match(failure.reason ?? '', /^(ErrImagePull|ImagePullBackOff)$/);
  assert.equal(failure.resource?.kind, 'Pod');
  assert.equal(failure.deployment?.namespace, namespace);
  assert.match(failure.hint ?? '', /^kubectl -n \S+ describe pod web-/);
  assert.equal(run.errors.length, 1);
});
