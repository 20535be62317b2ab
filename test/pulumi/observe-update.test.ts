/**
 * Observe mode, successful update with a revision change (the kubespy nginx example: image
 * nginx:1.11-alpine → nginx:1.12-alpine). The provider stand-in runs Pulumi's await; rollout-trace's
 * ReplicaSet/pod lines must reach the engine WHILE it runs, in order, as ephemeral messages on the
 * trace's row, and leave nothing in Diagnostics.
 */

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { appLabels, applyReady, nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

test('observe: live ReplicaSet/pod lines during the provider await of a revision change', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-observe');
  // Each new pod stays ContainerCreating for a second: the rollout lasts seconds, so that its lines
  // can be seen arriving during the provider's await even on a loaded machine.
  const slow = 'slow-start;seconds=1';
  await applyReady(namespace, 'nginx', 'nginx:1.11-alpine', 3, slow);

  let outcome: string | undefined;
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments();
      const deployment = new k8s.apps.v1.Deployment('nginx', nginxArgs(namespace, 'nginx:1.12-alpine', 3, 'nginx', appLabels, slow));
      lib.rolloutOf(deployment)!.outcome.apply((o) => (outcome = o));
    },
  });
  const transcript = renderTranscript(run.logs, { startedAt: run.startedAt });
  console.log(transcript);
  if (process.env.ROLLOUT_TRACE_WRITE_TRANSCRIPT) writeFileSync('docs/dev/pulumi-transcript.txt', `${transcript}\n`);

  assert.deepEqual(run.errors, []);
  assert.equal(outcome, 'succeeded');
  const [await_] = run.provider.awaits;
  assert.equal(await_?.result, 'ready');
  const lines = visible(run).filter((l) => l.urn.endsWith('::nginx-rollout'));
  const texts = lines.map((l) => l.message);
  // On success only the verdict is permanent: Diagnostics holds that one line.
  const permanent = visible(run).filter((l) => !l.ephemeral);
  assert.equal(permanent.length, 1, permanent.map((l) => l.message).join('\n'));
  assert.match(permanent[0]!.message, /^revision 2 rolled out/);
  // The story, in order (the watch may merge intermediate states under load, so only the
  // milestones that must appear are checked, each after the previous one).
  const index = (re: RegExp, from = 0) => texts.findIndex((m, i) => i >= from && re.test(m));
  const milestones = [
    /^pod template changed \(spec\.containers\[nginx\]\.image: "nginx:1\.11-alpine" → "nginx:1\.12-alpine"\): tracing the rollout from revision 1$/,
    /^ReplicaSet nginx-\w+ \(new, revision 2\): [0-2]\/[1-3] ready/,
    /^ReplicaSet nginx-\w+ \(new, revision 2\): 3\/3 ready/,
    /^revision 2 rolled out: 3\/3 pods ready/,
  ];
  let from = 0;
  for (const re of milestones) {
    const i = index(re, from);
    assert.ok(i >= 0, `missing ${re} after line ${from}:\n${texts.join('\n')}`);
    from = i + 1;
  }
  assert.equal(texts.at(-1), texts[from - 1], 'the success summary is the last line');
  const revisionLine = index(/^new revision 2 \(was 1\): rollout started$/);
  assert.ok(revisionLine > 0 && revisionLine < from - 1, 'revision 2 announced before the summary');
  // Pulumi's predicate does not wait for the old ReplicaSet to reach 0, so only its scale-down start is certain.
  assert.ok(
    texts.some((m) => /^ReplicaSet nginx-\w+ \(old, revision 1\): \d+ ready, scaling down to \d+, \d+ available$/.test(m)),
    'old ReplicaSet scaling down',
  );
  // A pod scheduled and ready within one read batch is said ready with its node.
  assert.ok(texts.filter((m) => /^pod nginx-\w+-\w+ \(revision 2\): ready( on \S+)?$/.test(m)).length >= 3, 'three new pods ready');
  // Live: the ReplicaSet/pod lines arrived while the provider's await was still running.
  const during = lines.filter((l) => l.at >= await_!.start && l.at < await_!.end && /^(ReplicaSet|pod) /.test(l.message));
  console.log(
    `provider await ${await_!.end - await_!.start} ms; ${during.length} ReplicaSet/pod lines during it; ${lines.length} lines in all`,
  );
  assert.ok(during.length >= 4, `only ${during.length} ReplicaSet/pod lines arrived during the provider's await`);
  assert.ok(lines.every((l) => (l.ephemeral || /^revision 2 rolled out/.test(l.message)) && l.severity >= 1));
});
