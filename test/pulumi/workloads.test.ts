/**
 * `traceWorkloads()`: StatefulSets, DaemonSets and Jobs in `pulumi up`, like Deployments. Gate
 * mode gives each the same `pulumi.com/waitFor` (the provider's await returns once it is written,
 * pk: await.go runs its built-in await only without it) and the trace owns the await:
 * - a StatefulSet whose first pod cannot pull its image fails the `<name>-statefulset-rollout`
 *   resource within the policy window, naming the pod; its dependents are not created;
 * - a failing Job fails with its pod's exit code and last log line; a Job that completes lets its
 *   dependents go on, and the next `up` says `no change` from its live state;
 * - observe mode: a DaemonSet's live lines and its verdict while the provider awaits it;
 * - preview: a StatefulSet that does not exist yet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { daemonSetOf, jobOf, statefulSetOf } from '../helpers/workloads.js';
import { linesOf, type RunResult, shown, startStack } from './harness/langhost.js';

type Lib = typeof import('../../src/pulumi/index.js');
type K8s = typeof import('@pulumi/kubernetes');

/** The Pulumi args of a builder's object: its metadata in `namespace`, its spec. */
function argsOf(namespace: string, obj: { metadata?: { name?: string }; spec?: unknown }) {
  return { metadata: { name: obj.metadata?.name, namespace }, spec: obj.spec } as never;
}

/** The one permanent error of `run`, on the row `row`. */
function errorOn(run: RunResult, row: string): string {
  const errors = shown(run).filter((l) => l.severity === 3 && !l.ephemeral);
  assert.ok(
    errors.some((e) => e.urn.endsWith(`::${row}`)),
    errors.map((e) => `${e.urn}: ${e.message}`).join('\n'),
  );
  return errors.find((e) => e.urn.endsWith(`::${row}`))?.message ?? '';
}

/** A program that declares `declare`'s workload under `traceWorkloads()` and a ConfigMap waiting for its trace. */
function withDependent(namespace: string, mode: 'gate' | 'observe', declare: (k8s: K8s) => unknown, seen: { dependent?: boolean }) {
  return async () => {
    const lib: Lib = await import('../../src/pulumi/index.js');
    const k8s: K8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode, timeoutSeconds: 60 });
    const workload = declare(k8s) as import('@pulumi/pulumi').Resource;
    const trace = lib.rolloutOf(workload);
    assert.ok(trace, 'the workload is traced');
    const cm = new k8s.core.v1.ConfigMap('after', { metadata: { namespace }, data: { ok: 'yes' } }, { dependsOn: [trace.ready] });
    cm.id.apply(() => (seen.dependent = true));
  };
}

test('gate: a StatefulSet whose first pod cannot pull its image fails fast, naming the pod', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-sts');
  const stack = await startStack();
  t.after(() => stack.stop());
  const sts = statefulSetOf('db', { image: 'nginx:1.99-does-not-exist', replicas: 2 });
  const seen: { dependent?: boolean } = {};
  const started = Date.now();
  const run = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.apps.v1.StatefulSet('db', argsOf(namespace, sts)), seen));
  const seconds = (Date.now() - started) / 1000;
  console.log(linesOf(run, 'db-statefulset-rollout').join('\n'));
  assert.notEqual(run.error, '');
  const error = errorOn(run, 'db-statefulset-rollout');
  assert.match(error, /StatefulSet \S+\/db: FAILED/);
  assert.match(error, /pod db-0 container "app": image "nginx:1\.99-does-not-exist" not found/);
  assert.equal(seen.dependent, undefined, 'the dependent was not created');
  assert.deepEqual(
    run.ops.filter((o) => o.op === 'await'),
    [],
    "the provider's own StatefulSet await did not run",
  );
  assert.ok(seconds < 45, `failed after ${seconds}s`);
});

test('gate: a failing Job fails with its exit code and last log line; a completing one lets dependents go on', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-job');
  const stack = await startStack();
  t.after(() => stack.stop());
  const failing = jobOf('migrate', {
    behaviour: { app: 'crash;exitCode=3;after=1;logs=migrating users|relation "users" does not exist' },
    backoffLimit: 1,
  });
  const seen: { dependent?: boolean } = {};
  const run = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', argsOf(namespace, failing)), seen));
  console.log(linesOf(run, 'migrate-job-rollout').join('\n'));
  const error = errorOn(run, 'migrate-job-rollout');
  assert.match(error, /Job \S+\/migrate: FAILED/);
  assert.match(error, /code 3/);
  assert.match(error, /relation "users" does not exist/);
  assert.equal(seen.dependent, undefined);

  // A Job's template cannot change: the fixed Job replaces the failed one, and it completes.
  const fixed = jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=1;logs=migrated 3 tables' } });
  const ok: { dependent?: boolean } = {};
  const run2 = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', argsOf(namespace, fixed)), ok));
  console.log(linesOf(run2, 'migrate-job-rollout').join('\n'));
  assert.equal(run2.error, '');
  assert.equal(ok.dependent, true);
  assert.match(
    linesOf(run2, 'migrate-job-rollout')[0] ?? '',
    /^pod template changed: the provider replaces \S+\/migrate; tracing the new Job's first rollout$/,
  );

  const again: { dependent?: boolean } = {};
  const run3 = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', argsOf(namespace, fixed)), again));
  assert.equal(run3.error, '');
  assert.deepEqual(linesOf(run3, 'migrate-job-rollout'), [`no change to Job ${namespace}/migrate: complete, 1/1 succeeded`]);
});

test("observe: a DaemonSet's live lines and verdict while the provider awaits it", async (t) => {
  const namespace = await withNamespace(t, 'pulumi-ds');
  const stack = await startStack();
  t.after(() => stack.stop());
  const ds = daemonSetOf('agent', { image: 'nginx:1.19' });
  const seen: { dependent?: boolean } = {};
  const run = await stack.run(
    withDependent(namespace, 'observe', (k8s) => new k8s.apps.v1.DaemonSet('agent', argsOf(namespace, ds)), seen),
  );
  const lines = linesOf(run, 'agent-daemonset-rollout');
  console.log(lines.join('\n'));
  assert.equal(run.error, '');
  assert.match(lines[0] ?? '', /^new DaemonSet \S+\/agent: tracing its first rollout$/);
  assert.ok(
    lines.some((l) => /^pod agent-\S+ \(revision 1\): ready$/.test(l)),
    'pod lines',
  );
  const awaited = run.ops.find((o) => o.op === 'await' && o.kind === 'DaemonSet');
  assert.equal(awaited?.result, 'ready', "the provider's own await ran (observe mode)");
  assert.ok(lines.some((l) => /rolled out/.test(l)));
});

test('preview: a StatefulSet that does not exist yet', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-sts-preview');
  const stack = await startStack();
  t.after(() => stack.stop());
  const sts = statefulSetOf('db', { image: 'nginx:1.19', replicas: 3 });
  const run = await stack.run(
    async () => {
      const lib: Lib = await import('../../src/pulumi/index.js');
      const k8s: K8s = await import('@pulumi/kubernetes');
      lib.traceWorkloads({ mode: 'gate' });
      new k8s.apps.v1.StatefulSet('db', argsOf(namespace, sts));
    },
    { dryRun: true },
  );
  assert.equal(run.error, '');
  assert.deepEqual(linesOf(run, 'db-statefulset-rollout'), [
    `preview: StatefulSet ${namespace}/db does not exist yet: the update creates it (3 replicas)`,
  ]);
});
