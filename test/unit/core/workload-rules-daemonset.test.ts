/**
 * The DaemonSet rule from a table (nodes joining and leaving, maxSurge, OnDelete). Sources:
 * docs/dev/workload-rules.md.
 */
import { describe, it } from 'node:test';
import type { V1DaemonSet, V1DaemonSetStatus } from '@kubernetes/client-node';
import { daemonSetRule } from '../../../src/core/kinds/daemonset.js';
import type { PodProgress } from '../../../src/core/kinds/rule.js';
import { check, type Expected } from './workload-rules-check.js';

function ds(
  generation: number,
  status?: Partial<V1DaemonSetStatus>,
  strategy: 'RollingUpdate' | 'OnDelete' = 'RollingUpdate',
): V1DaemonSet {
  const rollingUpdate = strategy === 'RollingUpdate' ? { maxSurge: 0, maxUnavailable: 1 } : undefined;
  return {
    metadata: { name: 'agent', namespace: 'ns', generation },
    spec: { selector: {}, template: {}, updateStrategy: { type: strategy, rollingUpdate } },
    status: status ? { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, ...status } : undefined,
  } as V1DaemonSet;
}

/** `n` nodes, each with an updated, ready, available pod. */
const onNodes = (g: number, n: number): Partial<V1DaemonSetStatus> => ({
  observedGeneration: g,
  desiredNumberScheduled: n,
  currentNumberScheduled: n,
  updatedNumberScheduled: n,
  numberReady: n,
  numberAvailable: n,
});

const dsRows: { name: string; obj: V1DaemonSet; want: Expected<PodProgress> }[] = [
  {
    name: 'no status yet',
    obj: ds(1),
    want: { state: 'progressing', reason: 'NotObserved', message: 'Waiting for daemon set spec update to be observed...' },
  },
  {
    name: 'status from an older generation that looks finished',
    obj: ds(2, onNodes(1, 3)),
    want: { state: 'progressing', reason: 'NotObserved' },
  },
  {
    name: 'observedGeneration missing (kstatus requires it)',
    obj: ds(1, { ...onNodes(1, 3), observedGeneration: undefined }),
    want: { state: 'progressing', reason: 'NotObserved' },
  },
  {
    name: 'update: 1 of 3 nodes updated',
    obj: ds(2, { ...onNodes(2, 3), updatedNumberScheduled: 1 }),
    want: {
      state: 'progressing',
      reason: 'PodsNotUpdated',
      message: 'Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...',
      progress: { desired: 3, updated: 1 },
    },
  },
  {
    name: 'maxSurge: a node runs the old and the new pod (the oldest one counts, so not updated yet)',
    obj: ds(2, { ...onNodes(2, 3), updatedNumberScheduled: 2 }),
    want: { state: 'progressing', reason: 'PodsNotUpdated', message: /2 out of 3 new pods have been updated/ },
  },
  {
    name: 'all updated, one not available yet (minReadySeconds)',
    obj: ds(2, { ...onNodes(2, 3), numberAvailable: 2 }),
    want: {
      state: 'progressing',
      reason: 'PodsNotAvailable',
      message: 'Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available...',
    },
  },
  {
    name: 'done',
    obj: ds(2, onNodes(2, 3)),
    want: {
      state: 'done',
      reason: 'RolledOut',
      message: 'daemon set "agent" successfully rolled out',
      progress: { desired: 3, ready: 3, updated: 3, available: 3 },
    },
  },
  {
    name: 'a node joins after the rollout: desired 3 -> 4 at the same generation',
    obj: ds(2, { ...onNodes(2, 3), desiredNumberScheduled: 4 }),
    want: { state: 'progressing', reason: 'PodsNotUpdated', message: /3 out of 4 new pods/, progress: { desired: 4 } },
  },
  {
    name: 'a node leaves mid-rollout with the last old pod: desired 4 -> 3',
    obj: ds(2, { ...onNodes(2, 3), desiredNumberScheduled: 3 }),
    want: { state: 'done', reason: 'RolledOut', progress: { desired: 3 } },
  },
  {
    name: 'no node should run a pod (desired 0)',
    obj: ds(1, onNodes(1, 0)),
    want: { state: 'done', reason: 'RolledOut', progress: { desired: 0 } },
  },
  {
    name: 'OnDelete update: nodes left on the previous template',
    obj: ds(2, { ...onNodes(2, 3), updatedNumberScheduled: 1 }, 'OnDelete'),
    want: { state: 'blocked', reason: 'OnDelete', message: /2 of 3 nodes still run a pod of the previous template/ },
  },
  {
    name: 'OnDelete, just created: the controller has not placed the pods yet (no pod of a previous template)',
    obj: ds(1, { ...onNodes(1, 3), currentNumberScheduled: 0, updatedNumberScheduled: 0, numberReady: 0, numberAvailable: 0 }, 'OnDelete'),
    want: { state: 'progressing', reason: 'PodsNotUpdated', message: /0 out of 3 new pods have been updated/ },
  },
  {
    name: 'OnDelete update: a node joined, its pod of the current template not placed yet, no previous template left',
    obj: ds(2, { ...onNodes(2, 3), currentNumberScheduled: 2, updatedNumberScheduled: 2 }, 'OnDelete'),
    want: { state: 'progressing', reason: 'PodsNotUpdated' },
  },
  {
    name: 'OnDelete: every pod replaced and available',
    obj: ds(2, onNodes(2, 3), 'OnDelete'),
    want: { state: 'done', reason: 'RolledOut' },
  },
];

describe('daemonSetRule', () => {
  for (const row of dsRows) it(row.name, () => check(daemonSetRule(row.obj), row.want));
});
