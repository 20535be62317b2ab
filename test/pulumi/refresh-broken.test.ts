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
import { daemonSetOf, jobOf, statefulSetOf } from '../helpers/workloads.js';
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

const BROKEN_IMAGE = 'nginx:1.99-does-not-exist';
const kinds = [
  {
    kind: 'StatefulSet',
    type: 'kubernetes:apps/v1:StatefulSet',
    name: 'db',
    spec: statefulSetOf('db', { image: BROKEN_IMAGE, replicas: 1 }).spec,
  },
  { kind: 'DaemonSet', type: 'kubernetes:apps/v1:DaemonSet', name: 'agent', spec: daemonSetOf('agent', { image: BROKEN_IMAGE }).spec },
  {
    kind: 'Job',
    type: 'kubernetes:batch/v1:Job',
    name: 'migrate',
    spec: jobOf('migrate', { behaviour: { app: 'crash;exitCode=3;after=1' }, backoffLimit: 0 }).spec,
  },
] as const;

for (const w of kinds) {
  test(`refresh --run-program: a broken ${w.kind} keeps its failure too (each kind's read check runs even with waitFor)`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-refresh-${w.kind.toLowerCase()}`);
    const stack = await startStack({ defaultAwaitSeconds: 20 });
    t.after(() => stack.stop());
    const program = (seen: { outcome?: string }) => async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceWorkloads({ mode: 'gate', timeoutSeconds: 60 });
      const args = { metadata: { name: w.name, namespace }, spec: w.spec } as never;
      const declared =
        w.kind === 'Job'
          ? new k8s.batch.v1.Job(w.name, args)
          : w.kind === 'DaemonSet'
            ? new k8s.apps.v1.DaemonSet(w.name, args)
            : new k8s.apps.v1.StatefulSet(w.name, args);
      lib.rolloutOf(declared)?.outcome.apply((o) => (seen.outcome = o));
    };
    const up = await stack.run(program({}));
    assert.notEqual(up.error, '');

    const seen: { outcome?: string } = {};
    const refresh = await stack.run(program(seen), { refresh: true });
    const entry = [...stack.monitor.state.values()].find((e) => e.type === w.type);
    assert.match(entry?.initErrors?.join() ?? '', new RegExp(`'${w.name}' is not ready`), 'the refresh kept the failure as InitErrors');
    assert.ok(
      refresh.ops.some((o) => o.op === 'read' && o.kind === w.kind),
      "the provider ran the kind's read check",
    );
    assert.deepEqual(
      refresh.ops.filter((o) => o.op === 'create' || o.op === 'update'),
      [],
      'a refresh writes nothing',
    );
    assert.equal(seen.outcome, 'failed');
    assert.match(refresh.error, /./);
  });
}
