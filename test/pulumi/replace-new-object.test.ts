/**
 * Replacements follow the new object, in the engine's order (pp step_generator.go): by default the
 * new object is created first and the old one deleted after the program; an auto-named object gets
 * a new name (its inputs are checked again without the old ones). pk asks delete-before-replace only
 * for an object the program names itself whose name and namespace stay (provider.go Diff).
 * - `pulumi up --replace` of an auto-named Deployment or Job: a new name, the old object still lives
 *   while the provider awaits the new one;
 * - `replaceOnChanges` on an auto-named Deployment's replicas: the spec comparison sees a scale;
 * - a Job that newly declares `parallelism` (its default): pk replaces it (old inputs against new),
 *   deleting the named Job first, while the spec comparison sees no change.
 * In each, the trace follows the new object to its verdict, never the old one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { jobOf } from '../helpers/workloads.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, type RunResult, startStack } from './harness/langhost.js';
import type { K8s, Lib } from './harness/workload-programs.js';

type Seen = { outcome?: string; at?: number };

/** A program tracing one workload in `mode`, noting its trace's outcome and when it came. */
function tracing(mode: 'gate' | 'observe', declare: (k8s: K8s) => unknown, seen: Seen) {
  return async () => {
    const lib: Lib = await import('../../src/pulumi/index.js');
    const k8s: K8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode, timeoutSeconds: 90 });
    const workload = declare(k8s) as import('@pulumi/pulumi').Resource;
    lib.rolloutOf(workload)!.outcome.apply((o) => {
      seen.outcome = o;
      seen.at = Date.now();
    });
  };
}

/** The `kind` operations of a run, as `op name`. */
function opsOf(run: RunResult, kind: string): string[] {
  return run.ops.filter((o) => o.kind === kind && ['create', 'delete', 'update'].includes(o.op)).map((o) => `${o.op} ${o.name}`);
}

/**
 * An auto-named Deployment's args (no `metadata.name`), its pods ready 3 s after they start: the
 * provider's await lasts that long, and observe mode sees the new object's pods meanwhile.
 */
function autoNamed(namespace: string, replicas: number) {
  const args = nginxArgs(namespace, 'nginx:1.19', replicas, 'web');
  args.spec.template.spec.containers[0]!.readinessProbe = { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 3, periodSeconds: 1 };
  return { ...args, metadata: { namespace } };
}

/** Checks that the new object `created` was followed to success, the old one deleted after the trace ended. */
function followedNew(run: RunResult, row: string, kind: string, seen: Seen, lines: string[]): { created: string; deleted: string } {
  assert.equal(run.error, '');
  const ops = opsOf(run, kind);
  assert.equal(ops.length, 2, ops.join('\n'));
  const [created, deleted] = ops.map((o) => o.split(' ')[1] ?? '') as [string, string];
  assert.match(ops[0] ?? '', /^create /, 'the new object first');
  assert.match(ops[1] ?? '', /^delete /, 'the old object deleted after');
  assert.equal(seen.outcome, 'succeeded', lines.join('\n'));
  const deleteAt = run.ops.find((o) => o.op === 'delete' && o.kind === kind)?.at ?? 0;
  assert.ok(seen.at !== undefined && seen.at <= deleteAt, 'the old object is deleted after the program (its trace ended before)');
  assert.ok(!lines.some((l) => /no change|deleted|FAILED/.test(l)), `${row}:\n${lines.join('\n')}`);
  return { created, deleted };
}

for (const mode of ['gate', 'observe'] as const) {
  test(`${mode}: \`pulumi up --replace\` of an auto-named Deployment follows the new object (created first, new name)`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-replace-auto-${mode}`);
    const stack = await startStack();
    t.after(() => stack.stop());
    const declare = (k8s: K8s) => new k8s.apps.v1.Deployment('web', autoNamed(namespace, 2));
    assert.equal((await stack.run(tracing(mode, declare, {}))).error, '');
    const seen: Seen = {};
    const run = await stack.run(tracing(mode, declare, seen), { replace: ['web'] });
    const lines = linesOf(run, 'web-rollout');
    console.log(lines.join('\n'));
    const { created, deleted } = followedNew(run, 'web-rollout', 'Deployment', seen, lines);
    assert.notEqual(created, deleted, 'a new auto-name');
    assert.match(lines[0] ?? '', /^the provider replaced \S+\/web-\w+ \(a new object/);
    assert.ok(
      lines.some((l) => /^revision 1 rolled out: 2\/2 pods ready/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.includes(created)),
      `the new object's pods are named: ${lines.join('\n')}`,
    );
  });
}

test('observe: `pulumi up --replace` of an auto-named Job follows the new Job, not the old complete one', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-replace-auto-job');
  const stack = await startStack();
  t.after(() => stack.stop());
  const job = jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=3;logs=migrated' } });
  const declare = (k8s: K8s) => new k8s.batch.v1.Job('migrate', { metadata: { namespace }, spec: job.spec } as never);
  assert.equal((await stack.run(tracing('observe', declare, {}))).error, '');
  const seen: Seen = {};
  const run = await stack.run(tracing('observe', declare, seen), { replace: ['migrate'] });
  const lines = linesOf(run, 'migrate-job-rollout');
  console.log(lines.join('\n'));
  const { created, deleted } = followedNew(run, 'migrate-job-rollout', 'Job', seen, lines);
  assert.notEqual(created, deleted, 'a new auto-name');
  assert.match(lines[0] ?? '', /^the provider replaced \S+\/migrate-\w+ \(a new object/);
  assert.ok(
    lines.some((l) => l.includes(created)),
    `the new Job's pods are named: ${lines.join('\n')}`,
  );
});

test('observe: replaceOnChanges on an auto-named Deployment follows the new object, not a scale of the old one', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-replace-on-changes');
  const stack = await startStack();
  t.after(() => stack.stop());
  const declare = (replicas: number) => (k8s: K8s) =>
    new k8s.apps.v1.Deployment('web', autoNamed(namespace, replicas), { replaceOnChanges: ['spec.replicas'] });
  assert.equal((await stack.run(tracing('observe', declare(2), {}))).error, '');
  const seen: Seen = {};
  const run = await stack.run(tracing('observe', declare(3), seen));
  const lines = linesOf(run, 'web-rollout');
  console.log(lines.join('\n'));
  const { created } = followedNew(run, 'web-rollout', 'Deployment', seen, lines);
  assert.ok(
    lines.some((l) => /^revision 1 rolled out: 3\/3 pods ready/.test(l)),
    lines.join('\n'),
  );
  assert.ok(lines.some((l) => l.includes(created)));
});

test('observe: a Job that newly declares its default parallelism is replaced by pk (delete first): the new Job is followed', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-replace-job-parallelism');
  const stack = await startStack();
  t.after(() => stack.stop());
  const job = jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=3;logs=migrated' } });
  const { parallelism, ...undeclared } = job.spec!;
  assert.equal(parallelism, 1);
  const declare = (spec: object) => (k8s: K8s) =>
    new k8s.batch.v1.Job('migrate', { metadata: { name: 'migrate', namespace }, spec } as never);
  assert.equal((await stack.run(tracing('observe', declare(undeclared), {}))).error, '');
  const seen: Seen = {};
  const run = await stack.run(tracing('observe', declare(job.spec!), seen));
  const lines = linesOf(run, 'migrate-job-rollout');
  console.log(lines.join('\n'));
  assert.equal(run.error, '');
  // pk: a named object keeping its name is deleted before it is created again.
  assert.deepEqual(opsOf(run, 'Job'), ['delete migrate', 'create migrate']);
  assert.equal(seen.outcome, 'succeeded', lines.join('\n'));
  const createdAt = run.ops.find((o) => o.op === 'create' && o.kind === 'Job')?.at ?? Number.POSITIVE_INFINITY;
  assert.ok(seen.at !== undefined && seen.at >= createdAt, `the verdict is the new Job's:\n${lines.join('\n')}`);
  assert.match(lines[0] ?? '', /^the provider replaced \S+\/migrate \(a new object/);
  assert.ok(!lines.some((l) => /no change|deleted|FAILED/.test(l)), lines.join('\n'));
});
