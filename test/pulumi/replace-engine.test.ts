/**
 * Replacements the declared spec does not show, in `pulumi up`:
 * - `pulumi up --replace` (with the `deleteBeforeReplace` option, else pk's create of the named
 *   object fails): the provider deletes the object and creates a new one though nothing declared
 *   changed. Gate mode sees a new uid in the provider's answer; observe mode sees the object
 *   deleted while the provider works. Both follow the new object to its verdict, say it was
 *   replaced, and never report the old object's deletion as a failure.
 * - `pulumi.com/replaceUnready: "true"` on a Job that is not complete: pk's Diff replaces it on
 *   the next `up` even with unchanged inputs (provider.go Diff); the trace says why and judges the
 *   new Job.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchV1Api } from '@kubernetes/client-node';
import { clients, withNamespace } from '../helpers/cluster.js';
import { jobOf } from '../helpers/workloads.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';
import { argsOf, errorOn, type K8s, withDependent } from './harness/workload-programs.js';

for (const mode of ['gate', 'observe'] as const) {
  test(`${mode}: a Deployment replaced by \`pulumi up --replace\` is followed to the new object's verdict`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-replace-target-${mode}`);
    const stack = await startStack();
    t.after(() => stack.stop());
    const program = (seen: { outcome?: string }) => async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode, timeoutSeconds: 90 });
      const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 2, 'web'), { deleteBeforeReplace: true });
      lib.rolloutOf(web)!.outcome.apply((o) => (seen.outcome = o));
    };
    const run1 = await stack.run(program({}));
    assert.equal(run1.error, '');
    const before = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });

    const seen: { outcome?: string } = {};
    const run2 = await stack.run(program(seen), { replace: ['web'] });
    const lines = linesOf(run2, 'web-rollout');
    console.log(lines.join('\n'));
    assert.equal(run2.error, '');
    const after = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
    assert.notEqual(after.metadata?.uid, before.metadata?.uid, 'the engine replaced the object');
    assert.deepEqual(
      run2.ops.filter((o) => o.kind === 'Deployment' && (o.op === 'delete' || o.op === 'create')).map((o) => o.op),
      ['delete', 'create'],
    );
    assert.equal(seen.outcome, 'succeeded');
    assert.match(
      lines[0] ?? '',
      new RegExp(`^the provider replaced ${namespace}/web \\(a new object.*tracing the new Deployment's first rollout$`),
    );
    assert.ok(
      lines.some((l) => /^revision 1 rolled out: 2\/2 pods ready/.test(l)),
      lines.join('\n'),
    );
    // A success held while the pod watch catches up with the ReplicaSet's count says "a pod it counted
    // was deleted or is no longer Ready": not a deletion seen (the machine's load decides whether it shows).
    const said = lines.filter((l) => !l.startsWith('holding success:'));
    assert.ok(!said.some((l) => /deleted|FAILED|no change/.test(l)), lines.join('\n'));
  });
}

test('gate: a Job that failed and carries pulumi.com/replaceUnready is replaced on the next unchanged `up`', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-replace-unready');
  const stack = await startStack();
  t.after(() => stack.stop());
  const failing = jobOf('migrate', {
    behaviour: { app: 'crash;exitCode=3;after=1;logs=relation "users" does not exist' },
    backoffLimit: 0,
  });
  const args = argsOf(namespace, failing) as { metadata: Record<string, unknown> };
  const declared = { ...args, metadata: { ...args.metadata, annotations: { 'pulumi.com/replaceUnready': 'true' } } } as never;
  const run1 = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', declared), {}));
  assert.match(errorOn(run1, 'migrate-job-rollout'), /Job \S+\/migrate: FAILED/);
  const first = await clients().kc.makeApiClient(BatchV1Api).readNamespacedJob({ namespace, name: 'migrate' });

  const seen: { dependent?: boolean } = {};
  const run2 = await stack.run(withDependent(namespace, 'gate', (k8s) => new k8s.batch.v1.Job('migrate', declared), seen));
  const lines = linesOf(run2, 'migrate-job-rollout');
  console.log(lines.join('\n'));
  assert.deepEqual(
    run2.ops.filter((o) => o.kind === 'Job' && (o.op === 'delete' || o.op === 'create')).map((o) => o.op),
    ['delete', 'create'],
    'pk replaces the Job that is not complete',
  );
  assert.equal(
    lines[0],
    `Job ${namespace}/migrate is not complete and carries pulumi.com/replaceUnready: the provider replaces ${namespace}/migrate; tracing the new Job's first rollout`,
  );
  // The new Job runs the same failing command: the verdict is its own, not the old Job's.
  const second = await clients().kc.makeApiClient(BatchV1Api).readNamespacedJob({ namespace, name: 'migrate' });
  assert.notEqual(second.metadata?.uid, first.metadata?.uid);
  assert.match(errorOn(run2, 'migrate-job-rollout'), /Job \S+\/migrate: FAILED/);
  assert.equal(seen.dependent, undefined);
});

for (const mode of ['gate', 'observe'] as const) {
  test(`${mode}: a replacement field under ignoreChanges: the engine replaces nothing, and the trace says so`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-replace-ignored-${mode}`);
    const stack = await startStack();
    t.after(() => stack.stop());
    const job = (parallelism: number) =>
      argsOf(namespace, jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=1' }, parallelism }));
    const declare = (parallelism: number) => (k8s: K8s) =>
      new k8s.batch.v1.Job('migrate', job(parallelism), { ignoreChanges: ['spec.parallelism'] });
    const run1 = await stack.run(withDependent(namespace, mode, declare(1), {}));
    assert.equal(run1.error, '');

    // The declared parallelism differs from the live one, but the engine sends the old value (pp
    // step_generator.go processIgnoreChanges): a same step, no provider call.
    const seen: { dependent?: boolean } = {};
    const run2 = await stack.run(withDependent(namespace, mode, declare(2), seen));
    const lines = linesOf(run2, 'migrate-job-rollout');
    console.log(lines.join('\n'));
    assert.equal(run2.error, '');
    assert.deepEqual(
      run2.ops.filter((o) => o.kind === 'Job' && (o.op === 'delete' || o.op === 'create' || o.op === 'update')),
      [],
    );
    assert.deepEqual(lines, [`no change to Job ${namespace}/migrate: complete, 1/1 succeeded, 0 running`]);
    assert.equal(seen.dependent, true);
  });
}
