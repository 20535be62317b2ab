/**
 * `pulumi refresh --run-program` of a broken Deployment: the provider's Read checks readiness even
 * with `waitFor` (pk: await.go Read) and the engine keeps the failure as InitErrors; the program
 * runs with every custom resource answered from the refreshed state (pp: step_generator.go
 * refreshMode). The trace judges the live Deployment: never `unchanged` (healthy) while it is broken.
 * The same holds for the other kinds: pk runs each kind's read check.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { statefulSetOf } from '../helpers/workloads.js';
import { nginxArgs } from './harness/fixtures.js';
import { startStack } from './harness/langhost.js';

test('refresh --run-program: a broken Deployment is not reported healthy', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-refresh');
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const program = (seen: { outcome?: string; failure?: { class?: string } }) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const { trace } = lib.gatedDeployment('web', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'web'));
    trace.outcome.apply((o) => (seen.outcome = o));
    trace.failure.apply((f) => (seen.failure = f as { class?: string }));
  };
  const up = await stack.run(program({}));
  assert.notEqual(up.error, '');

  const seen: { outcome?: string; failure?: { class?: string } } = {};
  const refresh = await stack.run(program(seen), { refresh: true });
  const entry = [...stack.monitor.state.values()].find((e) => e.type === 'kubernetes:apps/v1:Deployment');
  assert.match(entry?.initErrors?.join() ?? '', /'web' is not ready/, 'the refresh kept the failure as InitErrors');
  assert.deepEqual(
    refresh.ops.filter((o) => o.op === 'create' || o.op === 'update'),
    [],
    'a refresh writes nothing',
  );
  assert.equal(seen.outcome, 'failed');
  assert.equal(seen.failure?.class, 'image-pull-not-found');
  assert.match(refresh.error, /./);
});

test("refresh --run-program: a broken StatefulSet keeps its failure too (each kind's read check runs even with waitFor)", async (t) => {
  const namespace = await withNamespace(t, 'pulumi-refresh-sts');
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const sts = statefulSetOf('db', { image: 'nginx:1.99-does-not-exist', replicas: 1 });
  const program = (seen: { outcome?: string }) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode: 'gate', timeoutSeconds: 60 });
    const db = new k8s.apps.v1.StatefulSet('db', { metadata: { name: 'db', namespace }, spec: sts.spec } as never);
    lib.rolloutOf(db)?.outcome.apply((o) => (seen.outcome = o));
  };
  const up = await stack.run(program({}));
  assert.notEqual(up.error, '');

  const seen: { outcome?: string } = {};
  const refresh = await stack.run(program(seen), { refresh: true });
  const entry = [...stack.monitor.state.values()].find((e) => e.type === 'kubernetes:apps/v1:StatefulSet');
  assert.match(entry?.initErrors?.join() ?? '', /'db' is not ready/, 'the refresh kept the failure as InitErrors');
  assert.equal(seen.outcome, 'failed');
  assert.match(refresh.error, /./);
});
