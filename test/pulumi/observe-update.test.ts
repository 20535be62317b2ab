/**
 * Observe mode, successful update with a revision change (the kubespy nginx example: image
 * nginx:1.11-alpine → nginx:1.12-alpine). The provider stand-in runs Pulumi's await; rollout-trace's
 * ReplicaSet/pod lines must reach the engine WHILE it runs, in order, as ephemeral messages on the
 * trace's row, and leave nothing in Diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { withNamespace } from '../helpers/cluster.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';
import { applyReady, nginxArgs } from './harness/fixtures.js';

test('observe: live ReplicaSet/pod lines during the provider await of a revision change', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-observe');
  await applyReady(namespace, 'nginx', 'nginx:1.11-alpine');

  let outcome: string | undefined;
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments();
      const deployment = new k8s.apps.v1.Deployment('nginx', nginxArgs(namespace, 'nginx:1.12-alpine', 3, 'nginx'));
      lib.rolloutOf(deployment)!.outcome.apply((o) => (outcome = o));
    },
  });
  const transcript = renderTranscript(run.logs, { startedAt: run.startedAt });
  console.log(transcript);
  if (process.env.ROLLOUT_TRACE_WRITE_TRANSCRIPT) writeFileSync('docs/pulumi-transcript.txt', `${transcript}\n`);

  assert.deepEqual(run.errors, []);
  assert.equal(outcome, 'succeeded');
  const [await_] = run.provider.awaits;
  assert.equal(await_?.result, 'ready');
  const lines = visible(run).filter((l) => l.urn.endsWith('::nginx-rollout'));
  const texts = lines.map((l) => l.message);
  // Nothing permanent on success: Diagnostics stays empty.
  assert.deepEqual(visible(run).filter((l) => !l.ephemeral), []);
  // The story, in order.
  const index = (re: RegExp) => texts.findIndex((m) => re.test(m));
  const order = [
    /pod template changed \(spec\.containers\[nginx\]\.image: "nginx:1\.11-alpine" → "nginx:1\.12-alpine"\): tracing the rollout from revision 1/,
    /revision 2: new pod template/,
    /ReplicaSet nginx-\w+ \(rev 2, new\): 0\/1 ready/,
    /ReplicaSet nginx-\w+ \(rev 2, new\).*: 3\/3 ready/,
    /revision 2 rolled out/,
  ];
  const at = order.map(index);
  assert.ok(at.every((i) => i >= 0), `missing lines: ${order.filter((_, i) => at[i]! < 0).join(', ')}\n${texts.join('\n')}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, `out of order:\n${texts.join('\n')}`);
  assert.ok(texts.some((m) => /ReplicaSet nginx-\w+ \(rev 1, old\).*: 0\/0 ready/.test(m)), 'old ReplicaSet scaled down');
  assert.ok(texts.filter((m) => /^pod nginx-\w+-\w+ \(rev 2\): .*ready/.test(m)).length >= 3, 'three new pods ready');
  // Live: the ReplicaSet/pod lines arrived while the provider's await was still running.
  const during = lines.filter((l) => l.at >= await_!.start && l.at < await_!.end && /^(ReplicaSet|pod) /.test(l.message));
  console.log(`provider await ${await_!.end - await_!.start} ms; ${during.length} ReplicaSet/pod lines during it; ${lines.length} lines in all`);
  assert.ok(during.length >= 4, `only ${during.length} ReplicaSet/pod lines arrived during the provider's await`);
  assert.ok(lines.every((l) => l.ephemeral && l.severity >= 1));
});
