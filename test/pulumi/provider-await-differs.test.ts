/**
 * Observe mode, a StatefulSet updated with a `partition`: the provider's own await needs
 * `currentRevision == updateRevision` (pk await/statefulset.go), which the controller never
 * reaches with a partition > 0, so the provider waits until its timeout and fails the update. The
 * trace says so at once, as a warning with what to do, and still judges the partitioned rollout a
 * success once the ordinals at or above the partition run the new template.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { statefulSetOf } from '../helpers/workloads.js';
import { shown, startStack } from './harness/langhost.js';

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
  const first = await stack.run(program('nginx:1.19', 0, {}));
  assert.equal(first.error, '');
  assert.ok(!shown(first).some((l) => /never ends/.test(l.message)), 'no warning without a partition');

  const seen: { outcome?: string } = {};
  const up = await stack.run(program('nginx:1.20', 1, seen));
  const warnings = shown(up).filter((l) => l.severity === 2 && l.urn.endsWith('::db-statefulset-rollout') && !l.ephemeral);
  assert.match(warnings[0]?.message ?? '', /provider's await of this StatefulSet never ends: with partition 1 .*skipAwait/);
  const awaited = up.ops.find((o) => o.op === 'await' && o.kind === 'StatefulSet');
  assert.equal(awaited?.result, 'timeout', "the provider's own await timed out, as the warning said");
  assert.equal(seen.outcome, 'succeeded', 'the trace judged the partitioned rollout done');
});
