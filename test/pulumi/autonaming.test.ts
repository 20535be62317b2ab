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
import { kubeconfigPath, withNamespace } from '../helpers/cluster.js';
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

test('observe: an object named by the apiserver from metadata.generateName is followed from the start', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-generate-name');
  const stack = await startStack();
  t.after(() => stack.stop());
  const program = (image: string) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments();
    // generateName needs the provider's client-side apply mode (pk: provider.go Check).
    const provider = new k8s.Provider('csa', { kubeconfig: kubeconfigPath(), enableServerSideApply: false });
    const args = nginxArgs(namespace, image, 1);
    // Ready only after 10 s: the provider's await lasts that long.
    args.spec.template.spec.containers[0]!.readinessProbe = { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 10, periodSeconds: 1 };
    new k8s.apps.v1.Deployment('api', { ...args, metadata: { namespace, generateName: 'api-gen-' } }, { provider });
  };
  const run = await stack.run(program('nginx:1.19'));
  assert.equal(run.error, '');
  const awaited = run.ops.find((o) => o.op === 'await');
  assert.match(awaited?.name ?? '', /^api-gen-[a-z0-9]{5}$/);
  console.log(linesOf(run, 'api-rollout').join('\n'));
  const lines = run.logs.filter((l) => l.urn.endsWith('::api-rollout'));
  const during = lines.filter((l) => l.at < (awaited?.at ?? 0) && /^pod api-gen-/.test(l.message));
  assert.ok(during.length >= 1, 'pod lines arrived while the provider was awaiting');
  assert.match(linesOf(run, 'api-rollout')[0] ?? '', /^new Deployment \S+\/api-gen-\*: tracing its first rollout$/);

  // The next update finds the generated object as the baseline: a new template is a rollout of it.
  const update = await stack.run(program('nginx:1.20'));
  assert.equal(update.error, '');
  assert.match(linesOf(update, 'api-rollout')[0] ?? '', /^pod template changed .*: tracing the rollout from revision 1$/);
  assert.ok(linesOf(update, 'api-rollout').some((l) => /^revision 2 rolled out/.test(l)));
});
