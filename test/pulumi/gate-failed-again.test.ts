/**
 * A failed gate stays failed on the next `pulumi up`. The provider's own await behaves so: its
 * failure is a partial error, the engine keeps it as the resource's InitErrors and every later
 * update continues awaiting (pp: step_generator.go hasInitErrors). In gate mode the provider's
 * await (waitFor on the name) succeeded, so the engine sends no step at all for the unchanged
 * Deployment: the trace judges its live state. up (fails) → up again (fails again, fast, same
 * cause, dependents not created) → fix → up (succeeds) → up again (unchanged, one line).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, type RunResult, startStack } from './harness/langhost.js';
import { renderTranscript } from './harness/transcript.js';

interface Seen {
  outcome?: string;
  failure?: { class?: string };
}

test('gate: a failed rollout fails again on the next up, fast and with the same cause, until it is fixed', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-gate-again');
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const program = (image: string, seen: Seen) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    const { trace } = lib.gatedDeployment('web', nginxArgs(namespace, image, 2, 'web'));
    trace.outcome.apply((o) => (seen.outcome = o));
    trace.failure.apply((f) => (seen.failure = f as Seen['failure']));
    new k8s.core.v1.ConfigMap(
      'after-rollout',
      { metadata: { name: 'after-rollout', namespace }, data: { ready: 'yes' } },
      { dependsOn: [trace.ready] },
    );
  };
  const configMaps = async () => (await clients().core.listNamespacedConfigMap({ namespace })).items.map((c) => c.metadata?.name);
  const errorsOf = (run: RunResult) => run.logs.filter((l) => l.severity === 3 && l.urn.endsWith('::web-rollout'));
  const broken = 'nginx:1.99-does-not-exist';

  const first: Seen = {};
  const up1 = await stack.run(program(broken, first));
  assert.notEqual(up1.error, '');
  assert.equal(first.failure?.class, 'image-pull-not-found');
  assert.equal(errorsOf(up1).length, 1);

  const second: Seen = {};
  const existing = new Set(stack.monitor.state.keys());
  const up2 = await stack.run(program(broken, second));
  // The display draws `+` for the trace's row on the first up (created), no symbol on the second.
  const row = (transcript: string) => transcript.split('\n').find((l) => /RolloutTrace\s+web-rollout/.test(l)) ?? '';
  assert.match(row(renderTranscript(up1.logs, { startedAt: up1.startedAt })), /^ \+ {3}rollout-trace:pulumi:RolloutTrace/);
  assert.match(row(renderTranscript(up2.logs, { startedAt: up2.startedAt, existing })), /^ {5}rollout-trace:pulumi:RolloutTrace/);
  const lines = linesOf(up2, 'web-rollout');
  console.log(lines.join('\n'));
  const elapsed = (up2.finishedAt - up2.startedAt) / 1000;
  console.log(`second up failed after ${elapsed.toFixed(1)}s`);
  assert.deepEqual(
    up2.ops.filter((o) => o.kind === 'Deployment' && (o.op === 'create' || o.op === 'update')),
    [],
    'the engine sent no step for the unchanged Deployment',
  );
  assert.notEqual(up2.error, '', 'the second up fails too');
  assert.equal(second.outcome, 'failed');
  assert.equal(second.failure?.class, 'image-pull-not-found', 'with the same cause');
  const [error] = errorsOf(up2);
  assert.match(error?.message ?? '', /nginx:1\.99-does-not-exist/);
  assert.match(
    lines[0] ?? '',
    /^no change to Deployment \S+\/web, but it is not rolled out and healthy \(.*\): following it to a verdict$/,
  );
  assert.ok(elapsed < 40, `fast: ${elapsed}s`);
  assert.deepEqual(await configMaps().then((n) => n.filter((x) => x === 'after-rollout')), [], 'dependents never created');

  const fixed: Seen = {};
  const up3 = await stack.run(program('nginx:1.19', fixed));
  assert.equal(up3.error, '');
  assert.equal(fixed.outcome, 'succeeded');
  assert.ok((await configMaps()).includes('after-rollout'));

  const again: Seen = {};
  const up4 = await stack.run(program('nginx:1.19', again));
  assert.equal(up4.error, '');
  assert.equal(again.outcome, 'unchanged');
  assert.deepEqual(linesOf(up4, 'web-rollout'), [`no change to Deployment ${namespace}/web: revision 2, 2/2 ready`]);

  // Broken again: the program fails before it registers the dependent, and the engine then deletes
  // nothing (pp deployment_executor.go: a failed program or step bails out before performDeletes).
  // The dependent made by the earlier, successful up survives, in the cluster and in the state.
  const broken2: Seen = {};
  const up5 = await stack.run(program(broken, broken2));
  assert.notEqual(up5.error, '');
  assert.equal(broken2.outcome, 'failed');
  assert.ok(!up5.registrations.some((r) => r.name === 'after-rollout'), 'the failed gate held the dependent back');
  assert.ok((await configMaps()).includes('after-rollout'), 'the existing dependent survives the failed up');
  assert.ok(
    [...stack.monitor.state.keys()].some((urn) => urn.endsWith('::after-rollout')),
    'and stays in the state',
  );
});
