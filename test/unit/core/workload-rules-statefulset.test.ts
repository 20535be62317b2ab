/**
 * The StatefulSet rule from a table: each row is an object as the API server returns it and the
 * state, reason, words and counts the rule must give. Sources and the choices between Pulumi,
 * kubectl and kstatus: docs/dev/workload-rules.md. DaemonSets and Jobs: workload-rules-*.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1StatefulSet, V1StatefulSetSpec, V1StatefulSetStatus } from '@kubernetes/client-node';
import type { PodProgress } from '../../../src/core/kinds/rule.js';
import { isOrderedReady, statefulSetRule } from '../../../src/core/kinds/statefulset.js';
import { check, type Expected } from './workload-rules-check.js';

type StsSpec = Partial<V1StatefulSetSpec>;
const rolling = (partition?: number): StsSpec => ({
  updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: partition ?? 0 } },
});
const onDelete: StsSpec = { updateStrategy: { type: 'OnDelete' } };

function sts(generation: number, spec: StsSpec, status?: Partial<V1StatefulSetStatus>): V1StatefulSet {
  return {
    metadata: { name: 'db', namespace: 'ns', generation },
    spec: { replicas: 3, selector: {}, template: {}, ...rolling(), ...spec },
    status: status ? { replicas: 0, ...status } : undefined,
  } as V1StatefulSet;
}

/** 3 pods, all Ready, all at `rev`: a finished rollout of generation `g`. */
const settled = (g: number, rev = 'db-2'): Partial<V1StatefulSetStatus> => ({
  observedGeneration: g,
  replicas: 3,
  readyReplicas: 3,
  currentReplicas: 3,
  updatedReplicas: 3,
  currentRevision: rev,
  updateRevision: rev,
});

const stsRows: { name: string; obj: V1StatefulSet; want: Expected<PodProgress> }[] = [
  {
    name: 'no status yet',
    obj: sts(1, {}),
    want: { state: 'progressing', reason: 'NotObserved', message: 'Waiting for statefulset spec update to be observed...' },
  },
  {
    name: 'status from an older generation that looks finished',
    obj: sts(3, {}, settled(2)),
    want: { state: 'progressing', reason: 'NotObserved', message: 'Waiting for statefulset spec update to be observed...' },
  },
  {
    name: 'observedGeneration 0',
    obj: sts(1, {}, { ...settled(1), observedGeneration: 0 }),
    want: { state: 'progressing', reason: 'NotObserved' },
  },
  {
    name: 'creation: 1 of 3 ready',
    obj: sts(1, {}, { ...settled(1, 'db-1'), replicas: 2, readyReplicas: 1, currentReplicas: 2, updatedReplicas: 2 }),
    want: {
      state: 'progressing',
      reason: 'PodsNotReady',
      message: 'Waiting for 2 pods to be ready...',
      progress: { desired: 3, ready: 1, updated: 2 },
    },
  },
  {
    name: 'creation done',
    obj: sts(1, {}, settled(1, 'db-1')),
    want: {
      state: 'done',
      reason: 'RolledOut',
      message: 'statefulset rolling update complete 3 pods at revision db-1...',
      progress: { desired: 3, ready: 3, updated: 3, available: 3 },
    },
  },
  {
    name: 'done with updatedReplicas absent (counted from currentReplicas when the revisions match)',
    obj: sts(2, {}, { ...settled(2), updatedReplicas: undefined }),
    want: { state: 'done', reason: 'RolledOut', progress: { updated: 3 } },
  },
  {
    name: 'update: 1 of 3 pods on the new revision, all ready',
    obj: sts(2, {}, { ...settled(2, 'db-1'), currentReplicas: 2, updatedReplicas: 1, updateRevision: 'db-2' }),
    want: {
      state: 'progressing',
      reason: 'PodsNotUpdated',
      message: 'waiting for statefulset rolling update to complete 1 pods at revision db-2...',
      progress: { updated: 1, ready: 3 },
    },
  },
  {
    name: 'update: all pods updated and ready, currentRevision not advanced yet (kubectl would say done; Pulumi waits)',
    obj: sts(2, {}, { ...settled(2, 'db-1'), currentReplicas: 0, updatedReplicas: 3, updateRevision: 'db-2' }),
    want: { state: 'progressing', reason: 'RevisionNotCurrent', message: /complete 3 pods at revision db-2/ },
  },
  {
    name: 'update done: currentRevision == updateRevision',
    obj: sts(2, {}, settled(2)),
    want: { state: 'done', reason: 'RolledOut', message: 'statefulset rolling update complete 3 pods at revision db-2...' },
  },
  {
    name: 'revisions both empty never count as equal',
    obj: sts(1, {}, { ...settled(1), currentRevision: '', updateRevision: '', updatedReplicas: 3 }),
    want: { state: 'progressing', reason: 'RevisionNotCurrent' },
  },
  {
    name: 'scale-down: ordinal 3 still terminating',
    obj: sts(2, {}, { ...settled(2), replicas: 4, readyReplicas: 4 }),
    want: { state: 'progressing', reason: 'ExtraPods', message: /1 extra pods are pending termination/ },
  },
  {
    name: 'partition 2 of 3: ordinal 2 not updated yet',
    obj: sts(2, rolling(2), { ...settled(2, 'db-1'), updatedReplicas: 0, updateRevision: 'db-2' }),
    want: {
      state: 'progressing',
      reason: 'PodsNotUpdated',
      message: 'Waiting for partitioned roll out to finish: 0 out of 1 new pods have been updated...',
    },
  },
  {
    name: 'partition 1 of 3: ordinals 1 and 2 updated and ready (currentRevision stays old for good)',
    obj: sts(2, rolling(1), { ...settled(2, 'db-1'), currentReplicas: 1, updatedReplicas: 2, updateRevision: 'db-2' }),
    want: {
      state: 'done',
      reason: 'PartitionRolledOut',
      message: 'partitioned roll out complete: 2 new pods have been updated...',
      progress: { updated: 2 },
    },
  },
  {
    name: 'partition 1 of 3: updated but one pod not ready',
    obj: sts(2, rolling(1), { ...settled(2, 'db-1'), readyReplicas: 2, currentReplicas: 1, updatedReplicas: 2, updateRevision: 'db-2' }),
    want: { state: 'progressing', reason: 'PodsNotReady', message: 'Waiting for 1 pods to be ready...' },
  },
  {
    name: 'partition above replicas: nothing to update, every pod ready',
    obj: sts(2, rolling(5), { ...settled(2, 'db-1'), updatedReplicas: 0, updateRevision: 'db-2' }),
    want: { state: 'done', reason: 'PartitionRolledOut', message: 'partitioned roll out complete: 0 new pods have been updated...' },
  },
  {
    name: 'OnDelete, generation 1: pods created from the only template',
    obj: sts(1, onDelete, settled(1, 'db-1')),
    want: { state: 'done', reason: 'RolledOut' },
  },
  {
    name: 'OnDelete update: all 3 ready but on the previous template (Pulumi says success here)',
    obj: sts(2, onDelete, { ...settled(2, 'db-1'), updatedReplicas: 0, updateRevision: 'db-2' }),
    want: { state: 'blocked', reason: 'OnDelete', message: /3 of 3 pods still run the previous template/ },
  },
  {
    name: 'OnDelete update: 2 of 3 pods deleted and replaced',
    obj: sts(2, onDelete, { ...settled(2, 'db-1'), currentReplicas: 1, updatedReplicas: 2, updateRevision: 'db-2' }),
    want: { state: 'blocked', reason: 'OnDelete', message: /1 of 3 pods still run/ },
  },
  {
    name: 'OnDelete update: every pod replaced and ready (currentRevision never advances under OnDelete)',
    obj: sts(2, onDelete, { ...settled(2, 'db-1'), currentReplicas: 0, updatedReplicas: 3, updateRevision: 'db-2' }),
    want: { state: 'done', reason: 'RolledOut' },
  },
  {
    name: 'OnDelete update: a replaced pod not ready yet',
    obj: sts(2, onDelete, { ...settled(2, 'db-1'), readyReplicas: 2, updatedReplicas: 3, updateRevision: 'db-2' }),
    want: { state: 'progressing', reason: 'PodsNotReady' },
  },
  {
    name: 'Parallel pod management: same rule',
    obj: sts(
      2,
      { podManagementPolicy: 'Parallel' },
      { ...settled(2, 'db-1'), readyReplicas: 1, updatedReplicas: 3, updateRevision: 'db-2' },
    ),
    want: { state: 'progressing', reason: 'PodsNotReady', message: 'Waiting for 2 pods to be ready...' },
  },
  {
    name: 'minReadySeconds: availableReplicas is reported, not required (Pulumi and kubectl)',
    obj: sts(2, { minReadySeconds: 30 }, { ...settled(2), availableReplicas: 1 }),
    want: { state: 'done', reason: 'RolledOut', progress: { available: 1 } },
  },
  {
    name: 'scaled to 0',
    obj: sts(2, { replicas: 0 }, { ...settled(2), replicas: 0, readyReplicas: 0, currentReplicas: 0, updatedReplicas: 0 }),
    want: { state: 'done', reason: 'RolledOut', progress: { desired: 0 } },
  },
];

describe('statefulSetRule', () => {
  for (const row of stsRows) it(row.name, () => check(statefulSetRule(row.obj), row.want));

  it('OrderedReady is the default pod management', () => {
    assert.equal(isOrderedReady(sts(1, {})), true);
    assert.equal(isOrderedReady(sts(1, { podManagementPolicy: 'OrderedReady' })), true);
    assert.equal(isOrderedReady(sts(1, { podManagementPolicy: 'Parallel' })), false);
  });
});
