/**
 * `traceWorkloads()`: StatefulSets, DaemonSets and Jobs in `pulumi up`, like Deployments. Gate
 * mode gives each the same `pulumi.com/waitFor` (the provider's await returns once it is written,
 * pk: await.go runs its built-in await only without it) and the trace owns the await:
 * - a StatefulSet whose first pod cannot pull its image fails the `<name>-statefulset-rollout`
 *   resource within the policy window, naming the pod; its dependents are not created;
 * - a failing Job fails with its pod's exit code and last log line; a Job that completes lets its
 *   dependents go on, and the next `up` says `no change` from its live state;
 * - observe mode: a DaemonSet's live lines and its verdict while the provider awaits it;
 * - preview: a StatefulSet that does not exist yet;
 * - children of `helm.v4.Chart`, `yaml.v2.ConfigGroup` and `kustomize.v2.Directory` (engine-side
 *   transform) and of `yaml.ConfigFile` v1 and `helm.v3.Chart` (program-side) are traced the same way.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BatchV1Api, dumpYaml } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from '../helpers/cluster.js';
import { daemonSetOf, jobOf, statefulSetOf } from '../helpers/workloads.js';
import { linesOf, startStack } from './harness/langhost.js';
import { argsOf, errorOn, type K8s, type Lib, withDependent } from './harness/workload-programs.js';

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
    run.ops.filter((o) => o.op === 'await').map((o) => o.how),
    ['waitFor'],
    "the provider ran the gate's waitFor, not its own StatefulSet await",
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
  assert.deepEqual(linesOf(run3, 'migrate-job-rollout'), [`no change to Job ${namespace}/migrate: complete, 1/1 succeeded, 0 running`]);

  // `parallelism` is one of the fields pk replaces a Job for (diff.go forceNew): traced as a
  // replacement, the new Job's first rollout, not as "no change" from the old one.
  const wider = jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=1;logs=migrated 3 tables' }, parallelism: 2 });
  const replaced: { dependent?: boolean } = {};
  const run3b = await stack.run(
    withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', argsOf(namespace, wider)), replaced),
  );
  assert.equal(run3b.error, '');
  assert.match(
    linesOf(run3b, 'migrate-job-rollout')[0] ?? '',
    /^spec\.parallelism changed: the provider replaces \S+\/migrate; tracing the new Job's first rollout$/,
  );
  assert.deepEqual(
    run3b.ops.filter((o) => o.kind === 'Job' && (o.op === 'delete' || o.op === 'create')).map((o) => o.op),
    ['delete', 'create'],
  );

  // Removed after it ran (what its ttlSecondsAfterFinished does): the next unchanged `up` makes no
  // provider call, and the gate passes at once instead of waiting for a Job that never comes back.
  await clients().kc.makeApiClient(BatchV1Api).deleteNamespacedJob({ namespace, name: 'migrate', propagationPolicy: 'Background' });
  await waitUntil(async () => !(await jobExists(namespace, 'migrate')), { what: 'the Job gone', timeoutMs: 30_000 });
  const gone: { dependent?: boolean } = {};
  const started = Date.now();
  const run4 = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', argsOf(namespace, wider)), gone));
  assert.equal(run4.error, '');
  assert.deepEqual(
    run4.ops.filter((o) => o.kind === 'Job' && o.op !== 'read'),
    [],
    'the engine made no provider call for the unchanged Job',
  );
  assert.deepEqual(linesOf(run4, 'migrate-job-rollout'), [
    `Job ${namespace}/migrate ran in an earlier update and is gone (it was removed after it ran); this update changed nothing, so there is nothing to run`,
  ]);
  assert.equal(gone.dependent, true, 'its dependents go on');
  assert.ok(Date.now() - started < 20_000, 'at once, not after the not-found grace');
});

/** Whether Job `name` exists in `namespace`. */
async function jobExists(namespace: string, name: string): Promise<boolean> {
  const jobs = await clients().kc.makeApiClient(BatchV1Api).listNamespacedJob({ namespace });
  return jobs.items.some((j) => j.metadata?.name === name);
}

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
    lines.some((l) => /^pod agent-\S+ \(revision 1\): ready( on \S+)?$/.test(l)),
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

test('gate: workloads rendered by helm.v4/v3.Chart, yaml.v2.ConfigGroup, yaml.ConfigFile (v1) and kustomize.v2 are traced', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-wl-collections');
  const dir = mkdtempSync(join(tmpdir(), 'rt-workloads-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const yamlOf = (obj: { metadata?: { name?: string } }) => dumpYaml({ ...obj, metadata: { ...obj.metadata, namespace } });
  mkdirSync(join(dir, 'chart/templates'), { recursive: true });
  writeFileSync(join(dir, 'chart/Chart.yaml'), 'apiVersion: v2\nname: db\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'chart/values.yaml'), 'image: nginx:1.19\n');
  writeFileSync(join(dir, 'chart/templates/sts.yaml'), yamlOf(statefulSetOf('db', { image: 'nginx:1.19', replicas: 2 })));
  writeFileSync(join(dir, 'ds.yaml'), yamlOf(daemonSetOf('agent', { image: 'nginx:1.19' })));
  mkdirSync(join(dir, 'chart3/templates'), { recursive: true });
  writeFileSync(join(dir, 'chart3/Chart.yaml'), 'apiVersion: v2\nname: agent3\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'chart3/values.yaml'), '{}\n');
  writeFileSync(join(dir, 'chart3/templates/ds.yaml'), yamlOf(daemonSetOf('agent3', { image: 'nginx:1.19' })));
  mkdirSync(join(dir, 'kustomize'));
  writeFileSync(join(dir, 'kustomize/kustomization.yaml'), 'resources:\n  - sts.yaml\n');
  writeFileSync(join(dir, 'kustomize/sts.yaml'), yamlOf(statefulSetOf('cache', { image: 'nginx:1.19', replicas: 1 })));
  const seed = jobOf('seed', { behaviour: { app: 'crash;exitCode=0;after=1;logs=seeded' } });
  const stack = await startStack();
  t.after(() => stack.stop());
  const seen: { rel3?: string[]; rel?: string[] } = {};
  const run = await stack.run(async () => {
    const lib: Lib = await import('../../src/pulumi/index.js');
    const k8s: K8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode: 'gate', timeoutSeconds: 60 });
    const outcomes = (r: { rollouts: import('@pulumi/pulumi').Output<{ name: string; outcome: string }[]> }, key: 'rel3' | 'rel') =>
      r.rollouts.apply((list) => (seen[key] = list.map((x) => `${x.name} ${x.outcome}`)));
    outcomes(lib.rolloutsOf(new k8s.helm.v4.Chart('rel', { chart: join(dir, 'chart'), namespace })), 'rel');
    new k8s.yaml.v2.ConfigGroup('group', { yaml: yamlOf(seed) });
    new k8s.yaml.ConfigFile('file', { file: join(dir, 'ds.yaml') });
    // rolloutsOf a program-side component: the traces declared under it.
    outcomes(lib.rolloutsOf(new k8s.helm.v3.Chart('rel3', { path: join(dir, 'chart3'), namespace })), 'rel3');
    new k8s.kustomize.v2.Directory('kust', { directory: join(dir, 'kustomize') });
  });
  assert.equal(run.error, '');
  for (const [child, kind, done] of [
    ['db', 'statefulset', /rolled out/],
    ['seed', 'job', /complete/],
    ['agent', 'daemonset', /rolled out/],
    ['agent3', 'daemonset', /rolled out/],
    ['cache', 'statefulset', /rolled out/],
  ] as const) {
    const trace = run.registrations.find(
      (r) => r.type === 'rollout-trace:pulumi:RolloutTrace' && r.name.endsWith(`${child}-${kind}-rollout`),
    );
    assert.ok(trace, `a trace for ${child}: ${run.registrations.map((r) => r.name).join(', ')}`);
    const lines = linesOf(run, trace.name);
    assert.ok(
      lines.some((l) => done.test(l)),
      `${child}:\n${lines.join('\n')}`,
    );
    const workload = run.registrations.find(
      (r) => r.type.endsWith(`:${kind === 'job' ? 'Job' : kind === 'daemonset' ? 'DaemonSet' : 'StatefulSet'}`) && r.name.endsWith(child),
    );
    // Children of provider-side components (helm.v4, yaml.v2, kustomize.v2) are observed: nobody
    // can wait for their traces. Program-side ones (yaml.ConfigFile v1, helm.v3) are gated.
    const gated = child === 'agent' || child === 'agent3';
    assert.equal(
      (workload?.props as any)?.metadata?.annotations?.['pulumi.com/waitFor'],
      gated ? 'jsonpath={.metadata.name}' : undefined,
      child,
    );
  }
  assert.deepEqual(seen.rel, [`rel:${namespace}/db-statefulset-rollout succeeded`]);
  assert.equal(seen.rel3?.length, 1, JSON.stringify(seen.rel3));
  assert.match(seen.rel3?.[0] ?? '', /agent3-daemonset-rollout succeeded$/);
});

test('observe: a StatefulSet update is traced from the write to its verdict; an unchanged one says no change', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-sts-update');
  const stack = await startStack();
  t.after(() => stack.stop());
  const program = (image: string) =>
    withDependent(
      namespace,
      'observe',
      (k8s) => new k8s.apps.v1.StatefulSet('db', argsOf(namespace, statefulSetOf('db', { image, replicas: 2 }))),
      {},
    );
  assert.equal((await stack.run(program('nginx:1.19'))).error, '');
  const update = await stack.run(program('nginx:1.20'));
  const lines = linesOf(update, 'db-statefulset-rollout');
  console.log(lines.join('\n'));
  assert.equal(update.error, '');
  assert.match(lines[0] ?? '', /^pod template changed \(.*nginx:1\.20.*\): tracing the rollout from revision db-[a-z0-9]+$/);
  assert.ok(
    lines.some((l) => /^revision db-[a-z0-9]+ rolled out: 2\/2 pods ready/.test(l)),
    lines.join('\n'),
  );
  const again = await stack.run(program('nginx:1.20'));
  assert.deepEqual(linesOf(again, 'db-statefulset-rollout'), [
    expect(linesOf(again, 'db-statefulset-rollout')[0], /^no change to StatefulSet \S+\/db: revision db-[a-z0-9]+, 2\/2 ready$/),
  ]);
});

function expect(line: string | undefined, pattern: RegExp): string {
  assert.match(line ?? '', pattern);
  return line ?? '';
}
