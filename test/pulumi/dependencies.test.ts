/**
 * `dependsOn: [trace.ready]` records the Deployment in the state. The SDK turns a dependency on a
 * component into dependencies on its custom children (sdk: runtime/resource.ts
 * getAllTransitivelyReferencedResourceURNs), and a trace has none: without the Deployment in the
 * dependencies, destroy order, `--target-dependents` and replacements lose the link. The engine
 * double records what RegisterResource carried.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { startStack } from './harness/langhost.js';

test('dependsOn: [trace.ready] records a dependency on the Deployment (gatedDeployment and traceDeployments)', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-deps');
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    const { trace } = lib.gatedDeployment('web', nginxArgs(namespace, 'nginx:1.19', 1, 'web'));
    new k8s.core.v1.ConfigMap('after-web', { metadata: { namespace }, data: { a: 'b' } }, { dependsOn: [trace.ready] });
    const api = new k8s.apps.v1.Deployment('api', nginxArgs(namespace, 'nginx:1.19', 1, 'api', { app: 'api' }));
    new k8s.core.v1.ConfigMap('after-api', { metadata: { namespace }, data: { a: 'b' } }, { dependsOn: [lib.rolloutOf(api)!.ready] });
  });
  assert.equal(run.error, '');
  const urnOf = (name: string) => run.registrations.find((r) => r.name === name && r.type === 'kubernetes:apps/v1:Deployment')?.urn;
  const depsOf = (name: string) => run.registrations.find((r) => r.name === name)?.dependencies ?? [];
  assert.ok(urnOf('web') && urnOf('api'));
  assert.ok(depsOf('after-web').includes(urnOf('web')!), JSON.stringify(depsOf('after-web')));
  assert.ok(depsOf('after-api').includes(urnOf('api')!), JSON.stringify(depsOf('after-api')));
});
