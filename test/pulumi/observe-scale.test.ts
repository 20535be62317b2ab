/**
 * Observe mode, scale-only update (replicas 2 → 4, same pod template): reported as "no new
 * rollout", the trace follows the scale-up on the current revision, and no new revision appears.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { applyReady, nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

test('observe: a scale-only update is reported as no new rollout', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-scale');
  await applyReady(namespace, 'nginx', 'nginx:1.11-alpine', 2);

  let outcome: string | undefined;
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const { trace } = lib.tracedDeployment('nginx', nginxArgs(namespace, 'nginx:1.11-alpine', 4, 'nginx'));
      trace.outcome.apply((o) => (outcome = o));
    },
  });
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt }));

  assert.deepEqual(run.errors, []);
  assert.equal(outcome, 'succeeded');
  assert.equal(run.provider.awaits[0]?.result, 'ready');
  const texts = visible(run)
    .filter((l) => l.urn.endsWith('::nginx-rollout'))
    .map((l) => l.message);
  assert.ok(texts.includes('scale-only update (2 → 4 replicas): no new rollout'), texts.join('\n'));
  assert.ok(!texts.some((m) => /new pod template|revision 2/.test(m)), texts.join('\n'));
  assert.ok(
    texts.some((m) => /ReplicaSet nginx-\w+ \(new, revision 1\).*4\/4 ready/.test(m)),
    texts.join('\n'),
  );
  // Only the verdict is permanent.
  assert.deepEqual(
    visible(run)
      .filter((l) => !l.ephemeral)
      .map((l) => l.message.replace(/ in \S+$/, '')),
    ['revision 1 rolled out: 4/4 pods ready'],
  );
  const live = await clients().apps.readNamespacedDeployment({ name: 'nginx', namespace });
  assert.equal(live.metadata?.annotations?.['deployment.kubernetes.io/revision'], '1');
});
