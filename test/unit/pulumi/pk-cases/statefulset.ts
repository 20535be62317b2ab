/**
 * pk's StatefulSet cases (provider/pkg/await/statefulset_test.go), in our words: the StatefulSet
 * states (2 replicas) and pods pk sends, and pk's outcome at its timeout. pk's awaits there have no
 * previous generation to skip, nor has the trace; a read is our trace of the one object.
 */
import type { V1StatefulSet, V1StatefulSetStatus } from '@kubernetes/client-node';
import { statefulSetObject, waiting, workloadPod } from '../../core/builders.js';
import { inOrder, type PkCase, type PkOutcome } from './case.js';

const F = 'provider/pkg/await/statefulset_test.go';
const OLD = 'db-7b5cf87b78';
const NEW = 'db-789c4b994f';
type Strategy = 'RollingUpdate' | 'OnDelete';

/** StatefulSet `db` at `generation` with `status` (none when undefined), 2 replicas. */
function sts(generation: number, status: Partial<V1StatefulSetStatus> | undefined, strategy: Strategy = 'RollingUpdate'): V1StatefulSet {
  const o = statefulSetObject('db', { replicas: 2, updateStrategy: { type: strategy } }, status ?? {}, generation);
  if (status === undefined) delete o.status;
  return o;
}

const at = (rev: string) => ({ currentRevision: rev, updateRevision: rev });
const added = (s?: Strategy) => sts(1, { replicas: 0, observedGeneration: undefined }, s);
const creating = (s?: Strategy) => sts(1, { replicas: 1, currentReplicas: 1, ...at(OLD) }, s);
const progressing = (s?: Strategy) => sts(1, { replicas: 2, currentReplicas: 2, readyReplicas: 1, ...at(OLD) }, s);
const ready = (s?: Strategy) => sts(1, { replicas: 2, currentReplicas: 2, readyReplicas: 2, ...at(OLD) }, s);
const updated = (s?: Strategy) => sts(2, undefined, s);
/** Generation 2 written, the controller's status still of generation 1. */
const staleStatus = sts(2, { replicas: 2, currentReplicas: 2, readyReplicas: 2, observedGeneration: 1, ...at(OLD) });
const rolling = { currentRevision: OLD, updateRevision: NEW };
const updating = sts(2, { replicas: 2, currentReplicas: 1, readyReplicas: 2, ...rolling });
const updatingOnDelete = sts(2, { replicas: 2, readyReplicas: 2, ...rolling }, 'OnDelete');
const oneUpdated = sts(2, { replicas: 2, currentReplicas: 1, readyReplicas: 1, updatedReplicas: 1, ...rolling });
const oneUpdatedOnDelete = sts(2, { replicas: 2, readyReplicas: 1, updatedReplicas: 1, ...rolling }, 'OnDelete');
const updateDone = sts(2, { replicas: 2, currentReplicas: 2, readyReplicas: 2, ...at(NEW) });
/** OnDelete: both pods Ready, neither deleted yet, so both still run the previous template. */
const updateReadyOnDelete = sts(2, { replicas: 2, readyReplicas: 2, ...rolling }, 'OnDelete');

const podReady = (owner: string) => workloadPod('StatefulSet', owner, { name: 'db-0' });
const podBadImage = (owner: string) =>
  workloadPod('StatefulSet', owner, {
    name: 'db-0',
    containers: [
      waiting(
        'ErrImagePull',
        'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:busted not found: manifest unknown: manifest unknown',
        { image: 'nginx:busted' },
      ),
    ],
  });

const TARGET = { kind: 'StatefulSet' as const, name: 'db' };

function one(id: string, line: number, name: string, pk: PkOutcome, events: Array<[string, unknown]>): PkCase {
  return { via: 'trace', id: `statefulset-${id}`, name, source: `${F}:${line}`, runs: [{ target: TARGET, pk, obs: inOrder(...events) }] };
}
const S = 'StatefulSet';

/** `statefulset_test.go`'s await, two-update and read cases. */
export const statefulSetCases: PkCase[] = [
  one('created', 45, 'Should succeed after creating StatefulSet', 'succeeded', [
    [S, added()],
    [S, creating()],
    [S, progressing()],
    [S, ready()],
  ]),
  one('created-on-delete', 62, 'Should succeed after creating StatefulSet with OnDelete strategy', 'succeeded', [
    [S, added('OnDelete')],
    [S, creating('OnDelete')],
    [S, progressing('OnDelete')],
    [S, ready('OnDelete')],
  ]),
  one('updated', 79, 'Should succeed after updating StatefulSet', 'succeeded', [
    [S, updated()],
    [S, updating],
    [S, oneUpdated],
    [S, updateDone],
  ]),
  one('stale-status', 96, 'Should not succeed when observedGeneration lags behind generation (race condition)', 'waiting', [
    [S, staleStatus],
  ]),
  one('stale-status-caught-up', 126, 'Should succeed after observedGeneration catches up', 'succeeded', [
    [S, staleStatus],
    [S, updating],
    [S, updateDone],
  ]),
  one('updated-on-delete', 145, 'Should succeed after updating StatefulSet with OnDelete strategy', 'succeeded', [
    [S, updated('OnDelete')],
    [S, updatingOnDelete],
    [S, oneUpdatedOnDelete],
    [S, updateReadyOnDelete],
  ]),
  one('create-timeout', 162, 'Should fail if timeout occurs before successful creation', 'waiting', [
    [S, added()],
    [S, creating()],
  ]),
  one('update-timeout', 181, 'Should fail if timeout occurs before successful update rollout', 'waiting', [
    [S, updated()],
    [S, updating],
  ]),
  one('r1-pods-of-other', 201, '[Revision 1] Failure should only report Pods from active StatefulSet, part 1', 'waiting', [
    [S, progressing()],
    ['Pod', podReady('db')],
    ['Pod', podBadImage('bar')],
  ]),
  one('r2-pods-of-other', 225, '[Revision 2] Failure should only report Pods from active StatefulSet, part 1', 'waiting', [
    [S, updating],
    ['Pod', podReady('db')],
    ['Pod', podBadImage('bar')],
  ]),
  one('r1-pods-of-own', 250, '[Revision 1] Failure should only report Pods from active StatefulSet, part 2', 'waiting', [
    [S, progressing()],
    ['Pod', podBadImage('db')],
    ['Pod', podReady('bar')],
  ]),
  one('r2-pods-of-own', 275, '[Revision 2] Failure should only report Pods from active StatefulSet, part 2', 'waiting', [
    [S, updating],
    ['Pod', podBadImage('db')],
    ['Pod', podReady('bar')],
  ]),
  {
    via: 'trace',
    id: 'statefulset-fixed-by-update',
    name: 'StatefulSet fails, is updated with working config, and then succeeds',
    source: `${F}:329`,
    runs: [
      // A broken image: one pod created, never Ready.
      { target: TARGET, pk: 'waiting', obs: inOrder([S, sts(1, { replicas: 1, currentReplicas: 1, ...at(OLD) })]) },
      // The fix, as an update: our Pulumi layer waits for generation 2.
      {
        target: { ...TARGET, minGeneration: 2 },
        pk: 'succeeded',
        obs: inOrder([S, sts(2, { replicas: 2, readyReplicas: 1, updatedReplicas: 1, ...rolling })], [S, updateDone]),
      },
    ],
  },
  one('read-empty', 395, 'Read should fail if StatefulSet status empty', 'waiting', [[S, added()]]),
  one('read-progressing', 405, 'Read should fail if StatefulSet is progressing', 'waiting', [[S, progressing()]]),
  one('read-ready', 412, 'Read should succeed if StatefulSet is ready', 'succeeded', [[S, ready()]]),
  one('read-update-ready', 416, 'Read should succeed if StatefulSet update is ready', 'succeeded', [[S, updateDone]]),
];

/** Where we decide otherwise than pk's StatefulSet awaiter, on purpose. */
export const statefulSetDisagreements = [
  {
    id: 'statefulset-updated-on-delete',
    reason:
      "an OnDelete update whose pods are Ready but still run the previous template is `blocked` for us (nothing changes until someone deletes them) and the trace fails it; pk's await succeeds once the pods are Ready, whatever their template",
  },
];
