/**
 * Which workload and ReplicaSet lines wait for the next batch (src/cluster/waiting-lines.ts): only
 * a change after which the kind's rule still says `progressing`, or a ReplicaSet not yet ready. A
 * line that can bring a verdict is delivered at once, after every line read before it, and a trace
 * with a partial success criterion lets none wait.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { readLines } from '../../../src/cluster/line-watch.js';
import { BATCH_MS, drainReadBatches } from '../../../src/cluster/read-batches.js';
import { SubscriberIndex, type Subscription } from '../../../src/cluster/routing.js';
import { mayWaitForBatch } from '../../../src/cluster/waiting-lines.js';
import type { WatchedKind } from '../../../src/core/index.js';
import { daemonSetObject, deployment, failedJobObject, jobObject, replicaSet, statefulSetObject } from '../core/builders.js';

const progressingDeployment = deployment({ conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] });
const completeDeployment = deployment({ conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }] });
const stuckDeployment = deployment({ conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] });
const sts = (ready: number) =>
  statefulSetObject(
    'db',
    { replicas: 3 },
    { readyReplicas: ready, currentReplicas: 3, updatedReplicas: 3, currentRevision: 'db-1', updateRevision: 'db-1' },
  );
const ds = (ready: number) =>
  daemonSetObject('agent', {
    desiredNumberScheduled: 2,
    currentNumberScheduled: 2,
    updatedNumberScheduled: 2,
    numberReady: ready,
    numberAvailable: ready,
    observedGeneration: 1,
  });

const rows: { name: string; kind: WatchedKind; type: string; object: unknown; waits: boolean }[] = [
  { name: 'a Deployment still rolling out', kind: 'Deployment', type: 'MODIFIED', object: progressingDeployment, waits: true },
  { name: 'a Deployment rolled out', kind: 'Deployment', type: 'MODIFIED', object: completeDeployment, waits: false },
  { name: 'a Deployment past its progress deadline', kind: 'Deployment', type: 'MODIFIED', object: stuckDeployment, waits: false },
  { name: 'a Deployment added', kind: 'Deployment', type: 'ADDED', object: progressingDeployment, waits: false },
  { name: 'a Deployment deleted', kind: 'Deployment', type: 'DELETED', object: progressingDeployment, waits: false },
  { name: 'a StatefulSet with pods not ready', kind: 'StatefulSet', type: 'MODIFIED', object: sts(2), waits: true },
  { name: 'a StatefulSet rolled out', kind: 'StatefulSet', type: 'MODIFIED', object: sts(3), waits: false },
  { name: 'a DaemonSet with a node not ready', kind: 'DaemonSet', type: 'MODIFIED', object: ds(1), waits: true },
  { name: 'a DaemonSet rolled out', kind: 'DaemonSet', type: 'MODIFIED', object: ds(2), waits: false },
  {
    name: 'a Job running',
    kind: 'Job',
    type: 'MODIFIED',
    object: jobObject('migrate', { completions: 3 }, { active: 2, succeeded: 1 }),
    waits: true,
  },
  {
    name: 'a Job complete',
    kind: 'Job',
    type: 'MODIFIED',
    object: jobObject('migrate', {}, { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }),
    waits: false,
  },
  { name: 'a Job failed', kind: 'Job', type: 'MODIFIED', object: failedJobObject('migrate', { backoffLimit: 0 }, 1), waits: false },
  {
    name: 'a ReplicaSet not ready',
    kind: 'ReplicaSet',
    type: 'MODIFIED',
    object: replicaSet({ name: 'web-1', revision: '1', replicas: 3, ready: 2 }),
    waits: true,
  },
  {
    name: 'a ReplicaSet ready',
    kind: 'ReplicaSet',
    type: 'MODIFIED',
    object: replicaSet({ name: 'web-1', revision: '1', replicas: 3, ready: 3 }),
    waits: false,
  },
  {
    name: 'a PersistentVolumeClaim',
    kind: 'PersistentVolumeClaim',
    type: 'MODIFIED',
    object: { metadata: { name: 'data' } },
    waits: false,
  },
  { name: 'a bookmark', kind: 'StatefulSet', type: 'BOOKMARK', object: { metadata: { resourceVersion: '7' } }, waits: true },
  { name: 'an object that is not one', kind: 'StatefulSet', type: 'MODIFIED', object: null, waits: false },
];

describe('which workload lines wait for a batch', () => {
  for (const row of rows) {
    it(`${row.name}: ${row.waits ? 'waits' : 'at once'}`, () => {
      assert.equal(mayWaitForBatch(row.kind, row.type, row.object), row.waits);
    });
  }

  it('none while a subscriber has a partial success criterion (any line can meet it)', () => {
    const subs = new SubscriberIndex();
    const mayWait = subs.lineMayWait('StatefulSet');
    const sub = (partialSuccess: boolean): Subscription => ({
      s: { workloadName: 'db', kind: 'StatefulSet', partialSuccess, onObservation: () => {}, onError: () => {} },
      synced: false,
      pending: [],
    });
    const full = sub(false);
    const partial = sub(true);
    subs.add(full);
    assert.equal(mayWait('MODIFIED', sts(2)), true);
    subs.add(partial);
    assert.equal(mayWait('MODIFIED', sts(2)), false);
    subs.remove(partial);
    assert.equal(mayWait('MODIFIED', sts(2)), true);
  });
});

describe('a watch whose lines are judged one by one', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => {
    drainReadBatches();
    mock.timers.reset();
  });

  const line = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;

  it('holds a line still in progress, and delivers a rolled-out one at once, after everything before it', () => {
    const seen: string[] = [];
    const record = (_type: string, o: { status?: { readyReplicas?: number } }) => seen.push(`db ready ${o.status?.readyReplicas}`);
    const pods = new PassThrough();
    const statefulSets = new PassThrough();
    readLines(
      pods,
      () => {},
      (_t: string, o: { metadata: { name: string } }) => seen.push(o.metadata.name),
      undefined,
      true,
    );
    readLines(
      statefulSets,
      () => {},
      record,
      undefined,
      (type, object) => mayWaitForBatch('StatefulSet', type, object),
    );
    pods.emit('data', line('MODIFIED', { metadata: { name: 'db-2' } }));
    statefulSets.emit('data', line('MODIFIED', sts(2)));
    assert.deepEqual(seen, [], 'a line still in progress waits with the pods');
    pods.emit('data', line('MODIFIED', { metadata: { name: 'db-2 ready' } }));
    statefulSets.emit('data', line('MODIFIED', sts(3)));
    assert.deepEqual(seen, ['db-2', 'db ready 2', 'db-2 ready', 'db ready 3'], 'the rolled-out line comes at once, in order');
    statefulSets.emit('data', line('MODIFIED', sts(2)));
    mock.timers.tick(BATCH_MS);
    assert.equal(seen.at(-1), 'db ready 2', 'a waiting line comes within BATCH_MS');
  });
});
