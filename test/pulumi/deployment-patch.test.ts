/**
 * `k8s.apps.v1.DeploymentPatch` goes through the same provider await as a Deployment (pk:
 * await.go): a patch of a Deployment someone else manages is traced like an update, with live
 * lines and a verdict. Even in gate mode it is observed: the gate's `pulumi.com/waitFor` would stay
 * on the other owner's Deployment and change its await, so the provider's own await stays.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { applyReady } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('DeploymentPatch is traced', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-patch');
  await applyReady(namespace, 'web', 'nginx:1.19', 2);
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    new k8s.apps.v1.DeploymentPatch('web-patch', {
      metadata: { name: 'web', namespace },
      spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.20' }] } } },
    });
  });
  const lines = linesOf(run, 'web-patch-rollout');
  console.log(lines.join('\n'));
  assert.equal(run.error, '');
  assert.match(lines[0] ?? '', /^pod template changed \(.*"nginx:1\.19" → "nginx:1\.20"\): tracing the rollout from revision 1$/);
  assert.ok(
    lines.some((l) => /^revision 2 rolled out: 2\/2 pods ready/.test(l)),
    lines.join('\n'),
  );
  const live = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
  assert.equal(live.spec?.template.spec?.containers[0]?.image, 'nginx:1.20');
  assert.equal(live.metadata?.annotations?.['pulumi.com/waitFor'], undefined, 'no gate annotation left on the Deployment');
  assert.deepEqual(
    run.ops.filter((o) => o.op === 'await').map((o) => o.how),
    ['deployment'],
    "the provider's own await ran",
  );
});
