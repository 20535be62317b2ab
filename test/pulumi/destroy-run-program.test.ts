/**
 * `pulumi destroy --run-program`: the engine runs the program with isDryRun() false, answers
 * every custom resource with a same step (its old outputs, no provider call) or a skipped create,
 * and deletes everything afterwards (pp: step_generator.go destroyMode). A rolled-out Deployment
 * says `no change`; one the program adds (a skipped create) is not traced, even with a broken image.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('destroy --run-program: no trace, no gate, no failure', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-destroy');
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const program = (withNew: boolean) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 1, 'web'));
    if (withNew) new k8s.apps.v1.Deployment('never', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'never'));
  };
  const up = await stack.run(program(false));
  assert.equal(up.error, '');

  const destroy = await stack.run(program(true), { destroy: true });
  console.log(
    destroy.logs
      .filter((l) => l.severity > 0)
      .map((l) => `${l.urn.split('::').pop()}: ${l.message}`)
      .join('\n'),
  );
  assert.equal(destroy.error, '');
  assert.ok(!destroy.logs.some((l) => l.severity === 3), 'no error');
  assert.match(linesOf(destroy, 'web-rollout').join('\n'), /^no change to Deployment .*\/web: revision 1, 1\/1 ready$/);
  assert.deepEqual(linesOf(destroy, 'never-rollout').slice(-1), [
    'not traced: the provider wrote no Deployment (as in `pulumi destroy --run-program`)',
  ]);
  assert.deepEqual(
    destroy.ops.filter((o) => o.op !== 'delete' && o.op !== 'delete-done'),
    [],
    'only deletes',
  );
  const left = await clients().apps.listNamespacedDeployment({ namespace });
  assert.deepEqual(
    left.items.map((d) => d.metadata?.name),
    [],
  );
});
