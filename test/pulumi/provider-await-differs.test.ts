/**
 * Where pk's own await of a StatefulSet ends otherwise than the trace (pk await/statefulset.go
 * needs `currentRevision == updateRevision`), each choice tested in both modes:
 * - `partition` > 0: the controller never makes the revisions equal, so the provider waits until
 *   its timeout. Observe mode says so at once, as a warning with what to do; both modes judge the
 *   partitioned rollout a success once the ordinals at or above the partition run the new template
 *   (gate: the provider's `waitFor` returns at once, the verdict is the trace's).
 * - `OnDelete`: the provider reports success once the pods are Ready, still on the previous
 *   template. Gate mode fails it as `rollout-blocked` and holds its dependents; observe mode warns
 *   at once that the provider will report success anyway.
 * Both rules agree with the trace on a create (generation 1, one revision): no warning there.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { statefulSetOf } from '../helpers/workloads.js';
import { linesOf, shown, startStack } from './harness/langhost.js';
import { errorOn, withDependent } from './harness/workload-programs.js';

test('observe: a partitioned StatefulSet update is warned about at once (the provider will time out), and traced to success', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-partition');
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const program = (image: string, partition: number, seen: { outcome?: string }) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode: 'observe', timeoutSeconds: 60 });
    const sts = statefulSetOf('db', {
      image,
      replicas: 2,
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition } },
    });
    const db = new k8s.apps.v1.StatefulSet('db', { metadata: { name: 'db', namespace }, spec: sts.spec } as never);
    lib.rolloutOf(db)?.outcome.apply((o) => (seen.outcome = o));
  };
  // A create: one revision, so pk's await agrees with the trace (statefulset.go L430-434).
  const first = await stack.run(program('nginx:1.19', 1, {}));
  assert.equal(first.error, '');
  assert.ok(!shown(first).some((l) => /never ends/.test(l.message)), 'no warning on a create');

  const seen: { outcome?: string } = {};
  const up = await stack.run(program('nginx:1.20', 1, seen));
  const warnings = shown(up).filter((l) => l.severity === 2 && l.urn.endsWith('::db-statefulset-rollout') && !l.ephemeral);
  assert.match(warnings[0]?.message ?? '', /provider's await of this StatefulSet never ends: with partition 1 .*skipAwait/);
  const awaited = up.ops.find((o) => o.op === 'await' && o.kind === 'StatefulSet');
  assert.equal(awaited?.result, 'timeout', "the provider's own await timed out, as the warning said");
  assert.equal(seen.outcome, 'succeeded', 'the trace judged the partitioned rollout done');
});

type Strategy = { type: 'RollingUpdate'; rollingUpdate: { partition: number } } | { type: 'OnDelete' };

/** Declares StatefulSet `db` (2 replicas, in parallel) with `image` and `strategy`. */
function db(namespace: string, image: string, updateStrategy: Strategy) {
  return (k8s: typeof import('@pulumi/kubernetes')) => {
    const sts = statefulSetOf('db', { image, replicas: 2, podManagementPolicy: 'Parallel', updateStrategy });
    return new k8s.apps.v1.StatefulSet('db', { metadata: { name: 'db', namespace }, spec: sts.spec } as never);
  };
}

test("gate: a partitioned StatefulSet update passes once the ordinals at or above the partition run the new template; the provider's waitFor returns at once", async (t) => {
  const namespace = await withNamespace(t, 'pulumi-partition-gate');
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const partition1: Strategy = { type: 'RollingUpdate', rollingUpdate: { partition: 1 } };
  assert.equal((await stack.run(withDependent(namespace, 'gate', db(namespace, 'nginx:1.19', partition1), {}))).error, '');
  const seen: { dependent?: boolean } = {};
  const up = await stack.run(withDependent(namespace, 'gate', db(namespace, 'nginx:1.20', partition1), seen));
  const lines = linesOf(up, 'db-statefulset-rollout');
  assert.equal(up.error, '', lines.join('\n'));
  assert.equal(seen.dependent, true, 'its dependents go on');
  assert.ok(!shown(up).some((l) => /never ends/.test(l.message)), 'no observe-mode warning in gate mode');
  const awaited = up.ops.find((o) => o.op === 'await' && o.kind === 'StatefulSet');
  assert.equal(awaited?.how, 'waitFor');
  const pods = await clients().core.listNamespacedPod({ namespace });
  const image = (name: string) => pods.items.find((p) => p.metadata?.name === name)?.spec?.containers[0]?.image;
  assert.equal(image('db-1'), 'nginx:1.20', 'the ordinal above the partition runs the new template');
  assert.equal(image('db-0'), 'nginx:1.19', 'the one below keeps the previous template');
});

for (const mode of ['gate', 'observe'] as const) {
  test(`${mode}: an OnDelete StatefulSet update ${mode === 'gate' ? 'fails as blocked and holds its dependents' : 'is warned about at once: the provider reports success on the old template'}`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-ondelete-${mode}`);
    const stack = await startStack({ defaultAwaitSeconds: 20 });
    t.after(() => stack.stop());
    const onDelete: Strategy = { type: 'OnDelete' };
    const first = await stack.run(withDependent(namespace, mode, db(namespace, 'nginx:1.19', onDelete), {}));
    assert.equal(first.error, '');
    // A create is generation 1: pk's await takes its revision branch, and agrees (statefulset.go L430-434).
    assert.ok(!shown(first).some((l) => /OnDelete StatefulSet ready/.test(l.message)), 'no warning on a create');
    const seen: { dependent?: boolean } = {};
    const up = await stack.run(withDependent(namespace, mode, db(namespace, 'nginx:1.20', onDelete), seen));
    console.log(linesOf(up, 'db-statefulset-rollout').join('\n'));
    if (mode === 'gate') {
      assert.match(errorOn(up, 'db-statefulset-rollout'), /OnDelete/);
      assert.equal(seen.dependent, undefined, 'the dependent is held back');
      return;
    }
    const warnings = shown(up).filter((l) => l.severity === 2 && l.urn.endsWith('::db-statefulset-rollout') && !l.ephemeral);
    assert.match(
      warnings[0]?.message ?? '',
      /await will report this OnDelete StatefulSet ready once its pods are Ready, still on the previous template/,
    );
    const awaited = up.ops.find((o) => o.op === 'await' && o.kind === 'StatefulSet');
    assert.equal(awaited?.result, 'ready', "the provider's own await reported success, as the warning said");
    assert.equal(up.error, '');
  });
}
