/**
 * How the Pulumi layer describes a live object (a Release's preview, an update's baseline): by
 * its kind's own rule (core kinds/), and the declared size of a workload not created yet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1DaemonSet, V1Deployment, V1Job, V1StatefulSet } from '@kubernetes/client-node';
import { declaredSize, liveStateOf } from '../../../src/pulumi/workload-kinds.js';

const meta = (extra: Record<string, unknown> = {}) => ({ name: 'w', namespace: 'ns', generation: 2, ...extra });

test('liveStateOf: each kind in its own counts, from its rule', () => {
  const deployment: V1Deployment = {
    metadata: meta({ annotations: { 'deployment.kubernetes.io/revision': '4' } }),
    spec: { replicas: 3, selector: {}, template: {} },
    status: { observedGeneration: 2, readyReplicas: 2 },
  };
  const sts: V1StatefulSet = {
    metadata: meta(),
    spec: { replicas: 5, selector: {}, serviceName: 'w', template: {} },
    status: { observedGeneration: 2, replicas: 5, readyReplicas: 4, updateRevision: 'w-7c9' },
  };
  const ds: V1DaemonSet = {
    metadata: meta({ annotations: { 'deprecated.daemonset.template.generation': '2' } }),
    spec: { selector: {}, template: {} },
    status: { observedGeneration: 2, desiredNumberScheduled: 6, numberReady: 6, currentNumberScheduled: 6, numberMisscheduled: 0 },
  };
  const job = (status: V1Job['status']): V1Job => ({ metadata: meta(), spec: { completions: 2, backoffLimit: 1, template: {} }, status });
  const cases: Array<[string, string]> = [
    [liveStateOf('Deployment', deployment), 'revision 4, 2/3 ready'],
    [liveStateOf('StatefulSet', sts), 'revision w-7c9, 4/5 ready'],
    [liveStateOf('DaemonSet', ds), 'revision 2, 6/6 ready'],
    [liveStateOf('Job', job({ startTime: new Date(), active: 1, succeeded: 1 })), '1/2 succeeded, 1 running'],
    [liveStateOf('Job', job({ succeeded: 2, conditions: [{ type: 'Complete', status: 'True' }] })), 'complete, 2/2 succeeded, 0 running'],
    [
      liveStateOf('Job', job({ failed: 2, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] })),
      'failed (BackoffLimitExceeded), 0/2 succeeded, 0 running, 2 failed',
    ],
    [liveStateOf('Job', undefined), 'not found'],
  ];
  for (const [got, want] of cases) assert.equal(got, want);
});

test('declaredSize: replicas, one pod per node, completions (from the facts table)', () => {
  assert.equal(declaredSize('Deployment', 3, undefined), '3 replicas');
  assert.equal(declaredSize('StatefulSet', undefined, undefined), '1 replica');
  assert.equal(declaredSize('DaemonSet', 3, undefined), 'one pod on each eligible node');
  assert.equal(declaredSize('Job', undefined, 4), '4 completions');
  assert.equal(declaredSize('Job', undefined, undefined), '1 completion');
});
