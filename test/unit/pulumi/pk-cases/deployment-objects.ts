/**
 * The Deployment, ReplicaSet, Pod and PVC states that pk's deployment_test.go feeds its awaiter,
 * restated on our builders (test/unit/core/builders.ts): the fields the awaits read, not pk's
 * JSON. The Deployment wants 1 replica; pk's ReplicaSets hold 3, all Ready.
 */
import type { V1Deployment, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { availableFalse, availableTrue, deployment, pod, progressing, pvc, replicaSet, running, waiting } from '../../core/builders.js';

/** The new ReplicaSet's name (pk's cases give every revision's the same name). */
export const RS = 'web-7cdf7ddc54';
const pkCounts = { replicas: 2, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, unavailableReplicas: 1 };

/** Written and observed, no condition yet. */
export const dAdded = (revision: string, pvcs?: string[]) => deployment({ revision, replicas: 1, ...(pvcs ? { pvcs } : {}) });
/** Progressing=True NewReplicaSetCreated, nothing else. */
export const dProgressing = (revision: string, pvcs?: string[]) =>
  deployment({ revision, replicas: 1, conditions: [progressing('NewReplicaSetCreated', RS)], ...(pvcs ? { pvcs } : {}) });
/** Progressing NewReplicaSetCreated, Available=False; one updated pod, unavailable. */
export const dUnavailable = (revision: string) =>
  deployment({
    revision,
    replicas: 1,
    conditions: [progressing('NewReplicaSetCreated', RS), availableFalse],
    status: { replicas: 1, updatedReplicas: 1, unavailableReplicas: 1 },
  });
/** Available=True and Progressing NewReplicaSetAvailable, every count 1. */
export const dComplete = (revision: string, name = 'web') =>
  deployment({ name, revision, replicas: 1, conditions: [availableTrue, progressing('NewReplicaSetAvailable', RS)] });
/** Generation 3: Available=True, Progressing=False ProgressDeadlineExceeded; 1 of 2 pods updated. */
export const dDeadline = (revision: string, pvcs?: string[]) =>
  deployment({
    revision,
    replicas: 1,
    generation: 3,
    conditions: [availableTrue, progressing('ProgressDeadlineExceeded', 'web-b94df86d6', 'False')],
    status: pkCounts,
    ...(pvcs ? { pvcs } : {}),
  });
/** Generation 4, an image that does not exist: Available=True (an old pod), Progressing ReplicaSetUpdated. */
export const dBadImage = (revision: string) =>
  deployment({
    revision,
    replicas: 1,
    generation: 4,
    image: 'sdkjlsdlkj',
    conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-58ddf8f46')],
    status: pkCounts,
  });
/** Available=True only (no Progressing condition), every count 1. */
export const dAvailableOnly = (revision: string) => deployment({ revision, replicas: 1, conditions: [availableTrue] });
/** Generation 2 (a new image), complete: Available=True, NewReplicaSetAvailable, every count 1. */
export const dUpdated = (revision: string) =>
  deployment({
    revision,
    replicas: 1,
    generation: 2,
    image: 'nginx:1.15-alpine',
    conditions: [availableTrue, progressing('NewReplicaSetAvailable', RS)],
  });
/** Generation 2 with the conditions of a finished rollout, spec.replicas still 1, status 0 pods. */
export const dScaledToZero = (revision: string) =>
  deployment({
    revision,
    replicas: 1,
    generation: 2,
    conditions: [availableTrue, progressing('NewReplicaSetAvailable', RS)],
    status: { replicas: 0, updatedReplicas: undefined, readyReplicas: undefined, availableReplicas: undefined },
  });
/** Generation 2 mid-rollout: Progressing ReplicaSetUpdated; 2 pods, 1 updated, both Ready. */
export const dUpdating = (revision: string) =>
  deployment({
    revision,
    replicas: 1,
    generation: 2,
    image: 'nginx:1.15-alpine',
    conditions: [availableTrue, progressing('ReplicaSetUpdated', RS)],
    status: { replicas: 2, updatedReplicas: 1, readyReplicas: 2, availableReplicas: 2 },
  });

/** Another Deployment in the namespace (its own uid). */
export function unrelated(d: V1Deployment): V1Deployment {
  return { ...d, metadata: { ...d.metadata, name: 'bar', uid: 'uid-bar' } };
}

/** The new ReplicaSet of `revision`, 3 pods all Ready. */
export const rsReady = (revision: string) => replicaSet({ name: RS, revision, replicas: 3, ready: 3 });
/** The ReplicaSet of the unrelated Deployment, all Ready. */
export const rsOfBar = (revision: string) =>
  replicaSet({ name: 'bar-ablksd', revision, replicas: 3, ready: 3, ownerName: 'bar', ownerUid: 'uid-bar' });
/** A ReplicaSet scaled to 0 (no readyReplicas). */
export const rsEmpty = (revision: string) => replicaSet({ name: RS, revision, replicas: 0, ready: null });

const POD = `${RS}-kvh2w`;
/** A Ready pod of ReplicaSet `rs`. */
export const podReady = (rs: string) => pod({ name: POD, rs, containers: [running()] });
/** A pod of `rs` that cannot pull its image (ImagePullBackOff); the same name as {@link podReady}'s. */
export const podBadImage = (rs: string) =>
  pod({ name: POD, rs, containers: [waiting('ImagePullBackOff', 'Back-off pulling image "sdkjlsdlkj"', { image: 'sdkjlsdlkj' })] });

/** A claim the API has no status for yet. */
export const pvcNew = (name: string): V1PersistentVolumeClaim => ({ ...pvc(name, 'Pending'), status: {} });
/** A claim waiting for a volume. */
export const pvcPending = (name: string) => pvc(name, 'Pending');

/** pk's later-update states: 3 (then 5) replicas, revision 1, all Ready. */
export const dScaled = (generation: number, replicas: number) =>
  deployment({
    revision: '1',
    generation,
    replicas,
    image: 'gb-frontend:v5',
    conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-777d669468')],
  });
/** The ReplicaSet of those states, `replicas` pods all Ready. */
export const rsScaled = (replicas: number) => replicaSet({ name: 'web-777d669468', revision: '1', replicas, ready: replicas });
