/**
 * The provider's timeout order and `pulumi.com/waitFor`:
 * - `customTimeouts` first (over `pulumi.com/timeoutSeconds`), as pk: metadata/overrides.go;
 * - a program's own `pulumi.com/waitFor` is kept in gate mode: the provider waits for that
 *   condition instead of its Deployment await, and the gate judges the rollout as well.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('customTimeouts win over pulumi.com/timeoutSeconds', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-timeouts');
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const args = nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'web');
    lib.gatedDeployment(
      'web',
      { ...args, metadata: { ...args.metadata, annotations: { 'pulumi.com/timeoutSeconds': '300' } } },
      { customTimeouts: { create: '8s' } },
      { policy: { classes: { 'image-pull-not-found': { afterSeconds: 600 } } } },
    );
  });
  const errors = run.logs.filter((l) => l.severity === 3);
  assert.equal(errors.length, 1, run.error);
  assert.match(errors[0]!.message, /^rollout-trace gave up after 8s: the Deployment's customTimeouts\.create/);
});

test("a program's pulumi.com/waitFor is honoured in gate mode", async (t) => {
  const namespace = await withNamespace(t, 'pulumi-waitfor');
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const args = nginxArgs(namespace, 'nginx:1.19', 2, 'web');
    lib.gatedDeployment('web', { ...args, metadata: { ...args.metadata, annotations: { 'pulumi.com/waitFor': 'condition=Available' } } });
  });
  assert.equal(run.error, '');
  const live = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
  assert.equal(live.metadata?.annotations?.['pulumi.com/waitFor'], 'condition=Available');
  const awaited = run.ops.find((o) => o.op === 'await');
  assert.equal(awaited?.how, 'waitFor');
  assert.equal(awaited?.result, 'ready');
  assert.ok(linesOf(run, 'web-rollout').some((l) => /^revision 1 rolled out: 2\/2 pods ready/.test(l)));
});
