/**
 * Observe mode after a failed await: the provider's failure is a partial error, the engine keeps
 * it as the Deployment's InitErrors and the next `pulumi up` sends an empty update to continue
 * awaiting (pp: step_generator.go hasInitErrors), though the pod template did not change. The
 * trace follows that await too: live lines and its verdict, not "no change".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, shown, startStack } from './harness/langhost.js';

test("observe: the engine's continue-awaiting update after a failed await is traced to a verdict", async (t) => {
  const namespace = await withNamespace(t, 'pulumi-observe-again');
  const stack = await startStack({ defaultAwaitSeconds: 15 });
  t.after(() => stack.stop());
  const program = (seen: { outcome?: string }) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const { trace } = lib.tracedDeployment('web', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 2, 'web'));
    trace.outcome.apply((o) => (seen.outcome = o));
  };
  const first: { outcome?: string } = {};
  const up1 = await stack.run(program(first));
  assert.notEqual(up1.error, '', "the provider's await failed");
  assert.equal(first.outcome, 'failed');

  const second: { outcome?: string } = {};
  const up2 = await stack.run(program(second));
  const lines = linesOf(up2, 'web-rollout');
  console.log(lines.join('\n'));
  assert.ok(
    up2.ops.some((o) => o.kind === 'Deployment' && o.op === 'update'),
    'the engine continued the await with an update step',
  );
  assert.notEqual(up2.error, '');
  assert.match(
    lines[0] ?? '',
    /^no change to Deployment \S+\/web, but it is not rolled out and healthy \(.*\): following it to a verdict$/,
  );
  assert.ok(
    lines.some((l) => /^pod web-\S+ \(revision 1\): waiting - (ErrImagePull|ImagePullBackOff)$/.test(l)),
    'live lines streamed',
  );
  const verdict = shown(up2).find((l) => l.urn.endsWith('::web-rollout') && l.severity === 2 && !l.ephemeral);
  assert.match(verdict?.message ?? '', /FAILED.*image "nginx:1\.99-does-not-exist" not found/);
  assert.equal(second.outcome, 'failed');
});
