/**
 * pk's DaemonSet cases (provider/pkg/await/daemonset_test.go), in our words. pk's DaemonSet stays at
 * generation 1 through its "updates" (the same object is the old and the new outputs), so our trace
 * waits for generation 1, as the Pulumi layer does for the generation the provider's write returned.
 * pk also sends a pod on the DaemonSet watch, where its awaiter ignores it (another name): left out.
 * The status runs over 2 nodes; `minReadySeconds` is 300 as in pk's objects.
 */
import type { V1DaemonSet, V1DaemonSetStatus } from '@kubernetes/client-node';
import { daemonSetObject } from '../../core/builders.js';
import { inOrder, type PkCase, type PkOutcome, uncoveredOf } from './case.js';

const F = 'provider/pkg/await/daemonset_test.go';
type Strategy = 'RollingUpdate' | 'OnDelete';

/** DaemonSet `agent` at generation 1 with `status` and the update strategy. */
function ds(strategy: Strategy, status: Partial<V1DaemonSetStatus>): V1DaemonSet {
  const o = daemonSetObject('agent', status);
  o.spec = {
    ...o.spec!,
    minReadySeconds: 300,
    updateStrategy: strategy === 'OnDelete' ? { type: 'OnDelete' } : { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
  };
  return o;
}

/** pk's statuses over 2 nodes: just created; an update pending (old pods misscheduled); half-way; done. */
const creating = { desiredNumberScheduled: 2, currentNumberScheduled: 0, updatedNumberScheduled: 0, numberAvailable: 0 };
const pending = {
  desiredNumberScheduled: 2,
  currentNumberScheduled: 2,
  updatedNumberScheduled: 0,
  numberReady: 2,
  numberAvailable: 2,
  numberMisscheduled: 2,
};
const halfway = {
  desiredNumberScheduled: 2,
  currentNumberScheduled: 2,
  updatedNumberScheduled: 1,
  numberReady: 1,
  numberAvailable: 1,
  numberMisscheduled: 1,
};
const running = { desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberReady: 2, numberAvailable: 2 };
/** The object as pk's test declares it: one node, nothing scheduled yet. */
const declared = { desiredNumberScheduled: 1, currentNumberScheduled: 0, numberReady: 0 };

const TARGET = { kind: 'DaemonSet' as const, name: 'agent', minGeneration: 1 };

function one(
  id: string,
  line: number,
  name: string,
  pk: PkOutcome,
  strategy: Strategy,
  statuses: Array<Partial<V1DaemonSetStatus>>,
): PkCase {
  const obs = inOrder(...statuses.map((s): [string, unknown] => ['DaemonSet', ds(strategy, s)]));
  return { via: 'trace', id: `daemonset-${id}`, name, source: `${F}:${line}`, runs: [{ target: TARGET, pk, obs }] };
}

/** `daemonset_test.go`'s creations, updates and reads. */
export const daemonSetCases: PkCase[] = [
  one('create-rolling-timeout', 58, 'TestAwaitDaemonSetCreation: RollingUpdate timed out', 'waiting', 'RollingUpdate', [creating, halfway]),
  one('create-rolling', 65, 'TestAwaitDaemonSetCreation: RollingUpdate successful', 'succeeded', 'RollingUpdate', [
    creating,
    pending,
    halfway,
    running,
  ]),
  one('create-on-delete-timeout', 71, 'TestAwaitDaemonSetCreation: OnDelete timed out', 'waiting', 'OnDelete', [creating, halfway]),
  one('create-on-delete', 78, 'TestAwaitDaemonSetCreation: OnDelete successful', 'succeeded', 'OnDelete', [
    creating,
    pending,
    halfway,
    running,
  ]),
  one('update-on-delete-timeout', 130, 'TestAwaitDaemonSetUpdate: OnDelete timed out', 'waiting', 'OnDelete', [halfway]),
  one('update-on-delete', 137, 'TestAwaitDaemonSetUpdate: OnDelete successful', 'succeeded', 'OnDelete', [pending, halfway, running]),
  one('update-rolling-timeout', 143, 'TestAwaitDaemonSetUpdate: RollingUpdate timed out', 'waiting', 'RollingUpdate', [halfway]),
  one('update-rolling', 150, 'TestAwaitDaemonSetUpdate: RollingUpdate successful', 'succeeded', 'RollingUpdate', [
    pending,
    halfway,
    running,
  ]),
  one('read-on-delete-progressing', 204, 'TestAwaitDaemonSetRead: OnDelete still progressing', 'waiting', 'OnDelete', [halfway]),
  one('read-on-delete', 211, 'TestAwaitDaemonSetRead: OnDelete successful', 'succeeded', 'OnDelete', [running]),
  one('read-rolling-progressing', 217, 'TestAwaitDaemonSetRead: RollingUpdate still progressing', 'waiting', 'RollingUpdate', [declared]),
  one('read-rolling', 224, 'TestAwaitDaemonSetRead: RollingUpdate successful', 'succeeded', 'RollingUpdate', [running]),
];

/** The delete waits: the provider's own (the gate keeps them; the trace never waits for a delete). */
export const daemonSetUncovered = uncoveredOf('daemonset-delete', F, "a delete wait is the provider's: rollout-trace decides no delete", [
  [285, 'TestAwaitDaemonSetDelete: Deletion succeeds immediately', 'deleted'],
  [291, 'TestAwaitDaemonSetDelete: Deletion succeeds eventually', 'deleted'],
  [304, 'TestAwaitDaemonSetDelete: Deletion timed out', 'timed out'],
  [318, 'TestAwaitDaemonSetDelete: DaemonSet was already deleted', 'deleted'],
]);

const ON_DELETE =
  'an OnDelete DaemonSet with nodes still running a pod of the previous template is `blocked` for us (the controller replaces a pod only when someone deletes it) and the trace fails it; pk waits, until its timeout or until someone deletes the pods';

/** Where we decide otherwise than pk's DaemonSet awaiter, on purpose. */
export const daemonSetDisagreements = [
  'daemonset-create-on-delete-timeout',
  'daemonset-create-on-delete',
  'daemonset-update-on-delete-timeout',
  'daemonset-update-on-delete',
  'daemonset-read-on-delete-progressing',
].map((id) => ({ id, reason: ON_DELETE }));
