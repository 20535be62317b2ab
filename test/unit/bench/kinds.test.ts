/**
 * The bench's raw watch times completion by kubectl's own test per kind (bench/kinds.ts): these
 * tables pin each test to what kubectl 1.20 prints done for (`rollout status`, `wait
 * --for=condition=complete`), so the bench's "after completion" figures start where kubectl's do.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KINDS, type Workload } from '../../../bench/kinds.js';

const w = (o: { generation?: number; spec?: object; status?: object }): Workload =>
  ({ metadata: { name: 'x', generation: o.generation ?? 2 }, spec: o.spec ?? {}, status: o.status ?? {} }) as Workload;

describe('bench kinds: kubectl completion tests', () => {
  it('StatefulSet: generation observed, every replica ready, replicas minus partition updated', () => {
    const spec = { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } };
    const done = { observedGeneration: 2, readyReplicas: 3, updatedReplicas: 3, currentRevision: 'a', updateRevision: 'b' };
    assert.equal(KINDS.StatefulSet.complete(w({ spec, status: done })), true, 'kubectl 1.20: partitioned roll out complete');
    assert.equal(KINDS.StatefulSet.complete(w({ spec, status: { ...done, observedGeneration: 1 } })), false, 'old generation');
    assert.equal(KINDS.StatefulSet.complete(w({ spec, status: { ...done, readyReplicas: 2 } })), false, 'a replica not ready');
    assert.equal(KINDS.StatefulSet.complete(w({ spec, status: { ...done, updatedReplicas: 2 } })), false, 'a replica not updated');
    const noPartition = { replicas: 3 };
    assert.equal(KINDS.StatefulSet.complete(w({ spec: noPartition, status: done })), false, 'no partition: revisions must match');
    assert.equal(KINDS.StatefulSet.complete(w({ spec: noPartition, status: { ...done, currentRevision: 'b' } })), true);
  });

  it('DaemonSet: generation observed, every scheduled node updated and available', () => {
    const done = { observedGeneration: 2, desiredNumberScheduled: 100, updatedNumberScheduled: 100, numberAvailable: 100 };
    assert.equal(KINDS.DaemonSet.complete(w({ status: done })), true);
    assert.equal(KINDS.DaemonSet.complete(w({ status: { ...done, updatedNumberScheduled: 99 } })), false);
    assert.equal(KINDS.DaemonSet.complete(w({ status: { ...done, numberAvailable: 99 } })), false);
    assert.equal(KINDS.DaemonSet.complete(w({ status: { ...done, observedGeneration: 1 } })), false);
  });

  it('Job: the Complete condition (a Failed Job is never complete; its Failed condition is timed apart)', () => {
    const complete = { conditions: [{ type: 'Complete', status: 'True' }] };
    const failed = { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] };
    assert.equal(KINDS.Job.complete(w({ status: complete })), true);
    assert.equal(KINDS.Job.complete(w({ status: failed })), false);
    assert.equal(KINDS.Job.failed?.(w({ status: failed })), true);
    assert.equal(KINDS.Job.complete(w({ status: { conditions: [{ type: 'Complete', status: 'False' }] } })), false);
  });

  it("each kind's kubectl command is the one a user waits with", () => {
    assert.deepEqual(KINDS.StatefulSet.kubectl('db', 60), ['rollout', 'status', 'statefulset/db', '--timeout=60s']);
    assert.deepEqual(KINDS.DaemonSet.kubectl('agent', 60), ['rollout', 'status', 'daemonset/agent', '--timeout=60s']);
    assert.deepEqual(KINDS.Job.kubectl('batch', 60), ['wait', '--for=condition=complete', 'job/batch', '--timeout=60s']);
  });
});
