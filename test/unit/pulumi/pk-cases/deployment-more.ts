/**
 * pk's other Deployment cases (provider/pkg/await/deployment_test.go): claims, two updates in a
 * row, and reads of a live Deployment with its ReplicaSet. A read is our trace of the live objects
 * (what the Pulumi layer does for an unchanged Deployment): pk's read error is still waiting.
 */
import { inOrder, type PkCase, type PkOutcome } from './case.js';
import {
  dAdded,
  dAvailableOnly,
  dBadImage,
  dComplete,
  dDeadline,
  dProgressing,
  dScaled,
  dUnavailable,
  dUpdated,
  dUpdating,
  pvcNew,
  pvcPending,
  rsReady,
  rsScaled,
} from './deployment-objects.js';

const F = 'provider/pkg/await/deployment_test.go';

const claims: PkCase[] = [
  {
    via: 'trace',
    id: 'deployment-pvc-unbound',
    name: "[Revision 1] Deployment should fail if Deployment reports 'Progressing' failure due to a PersistentVolumeClaim being in the 'Pending' phase: it has not successfully bounded to a PersistentVolume",
    source: `${F}:629`,
    runs: [
      {
        target: {},
        pk: 'waiting',
        obs: inOrder(
          ['Deployment', dAdded('1', ['data'])],
          ['PersistentVolumeClaim', pvcNew('data')],
          ['Deployment', dProgressing('1', ['data'])],
          ['Deployment', dDeadline('1', ['data'])],
          ['ReplicaSet', rsReady('1')],
        ),
      },
    ],
  },
  {
    via: 'trace',
    id: 'deployment-pvc-unreferenced',
    name: "[Revision 1] Deployment should always succeed when any non-referenced PersistentVolumeClaims in the namespace are not in the 'Bound' phase",
    source: `${F}:689`,
    runs: [
      {
        target: {},
        pk: 'succeeded',
        obs: inOrder(
          ['Deployment', dAdded('1')],
          ['PersistentVolumeClaim', pvcNew('data')],
          ['PersistentVolumeClaim', pvcPending('data')],
          ['Deployment', dProgressing('1')],
          ['Deployment', dComplete('1')],
          ['ReplicaSet', rsReady('1')],
        ),
      },
    ],
  },
];

/** The first update of pk's two-update cases: the outputs' own state, at generation 1 (unchanged: our target is that generation). */
const firstUpdate = {
  target: { minGeneration: 1 },
  pk: 'succeeded' as const,
  obs: inOrder(['Deployment', dScaled(1, 3)], ['ReplicaSet', rsScaled(3)]),
};

const twoUpdates: PkCase[] = [
  {
    via: 'trace',
    id: 'deployment-two-updates-scaled',
    name: 'Should succeed if replicas are scaled',
    source: `${F}:745`,
    runs: [
      firstUpdate,
      // A scale: our Pulumi layer waits for the next generation, with no baseline revision.
      { target: { minGeneration: 2 }, pk: 'succeeded', obs: inOrder(['Deployment', dScaled(2, 5)], ['ReplicaSet', rsScaled(5)]) },
    ],
  },
  {
    via: 'trace',
    id: 'deployment-two-updates-no-op',
    name: "Should succeed if deployment spec has a no-op replicaset change that doesn't trigger a rollout",
    source: `${F}:766`,
    runs: [
      firstUpdate,
      { target: { minGeneration: 2 }, pk: 'succeeded', obs: inOrder(['Deployment', dScaled(2, 3)], ['ReplicaSet', rsScaled(3)]) },
    ],
  },
];

/** A read: the ReplicaSet, then the Deployment, as a list returns them. */
function read(id: string, line: number, name: string, pk: PkOutcome, d: unknown, rsRevision: string): PkCase {
  return {
    via: 'trace',
    id: `deployment-read-${id}`,
    name,
    source: `${F}:${line}`,
    runs: [{ target: {}, pk, obs: inOrder(['ReplicaSet', rsReady(rsRevision)], ['Deployment', d]) }],
  };
}

const reads: PkCase[] = [
  read('empty-status', 830, 'Read should fail if Deployment status empty', 'waiting', dAdded('1'), '1'),
  read('empty-status-again', 838, 'Read should fail if Deployment status empty (listed twice)', 'waiting', dAdded('1'), '1'),
  read('progressing', 846, 'Read should fail if Deployment is progressing', 'waiting', dProgressing('1'), '1'),
  read('deadline', 854, '[Revision 2] Read should fail if Deployment Progressing status set to False', 'waiting', dDeadline('2'), '2'),
  read('bad-image', 865, '[Revision 2] Read should fail if Deployment has invalid container', 'waiting', dBadImage('2'), '2'),
  read('unavailable', 875, '[Revision 2] Read should fail if Deployment progressing but unavailable', 'waiting', dUnavailable('2'), '2'),
  read('r1-available', 886, '[Revision 1] Read should succeed if Deployment reported available', 'succeeded', dAvailableOnly('1'), '1'),
  read(
    'r2-available-only',
    894,
    '[Revision 2] Read should fail if Deployment available but no progressing status',
    'waiting',
    dAvailableOnly('2'),
    '2',
  ),
  read('complete', 905, '[Revision 2] Read should succeed if rollout completes', 'succeeded', dComplete('2'), '2'),
  read('no-new-rs', 912, '[Revision 2] Read should fail Deployment if new ReplicaSet not created', 'waiting', dUpdated('2'), '1'),
  read(
    'rs-progressing',
    922,
    '[Revision 2] Read should fail Deployment if new ReplicaSet still progressing',
    'waiting',
    dUpdating('2'),
    '2',
  ),
  read(
    'rs-rolled-out',
    932,
    '[Revision 2] Read should succeed Deployment if new ReplicaSet still rolled out',
    'succeeded',
    dUpdated('2'),
    '2',
  ),
];

/** The claim, two-update and read cases of `deployment_test.go`. */
export const deploymentMoreCases: PkCase[] = [...claims, ...twoUpdates, ...reads];

/** Where we decide otherwise than pk, on purpose. */
export const deploymentMoreDisagreements = [
  {
    id: 'deployment-pvc-unbound',
    reason:
      'the Deployment reports Progressing=False ProgressDeadlineExceeded: we fail as soon as the controller says so, where pk waits for its timeout (the unbound claim holds both of us)',
  },
  {
    id: 'deployment-read-deadline',
    reason:
      'a Deployment whose controller reports ProgressDeadlineExceeded is failed for us, as kubectl says; pk reads it as not ready yet',
  },
];
