/**
 * The engine's `pulumi:autonaming` config names a new object by its own pattern (pk: naming.go
 * AssignNameIfAutonamable takes the engine's proposed name and still marks it
 * `pulumi.com/autonamed`). In observe mode the provider returns only after its await, so the trace
 * must find the new object in the cluster from the start: its live lines arrive while the
 * provider is still awaiting, not when it returns.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('observe: an object named by the autonaming config is followed from the start', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-autonaming');
  const stack = await startStack({ autoname: (name) => `acme-${name}-${randomBytes(2).toString('hex')}` });
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const args = nginxArgs(namespace, 'nginx:1.19', 1);
    // Ready only after 10 s: the provider's await lasts that long.
    args.spec.template.spec.containers[0]!.readinessProbe = { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 10, periodSeconds: 1 };
    lib.tracedDeployment('api', args);
  });
  assert.equal(run.error, '');
  const awaited = run.ops.find((o) => o.op === 'await');
  assert.match(awaited?.name ?? '', /^acme-api-[0-9a-f]{4}$/);
  const lines = run.logs.filter((l) => l.urn.endsWith('::api-rollout'));
  console.log(linesOf(run, 'api-rollout').join('\n'));
  const during = lines.filter((l) => l.at < (awaited?.at ?? 0) && /^pod acme-api-/.test(l.message));
  assert.ok(during.length >= 1, 'pod lines arrived while the provider was awaiting');
  assert.ok(linesOf(run, 'api-rollout').some((l) => /rolled out/.test(l)));
});
