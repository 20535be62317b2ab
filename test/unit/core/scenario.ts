/** A rollout from revision 1 to 2 in progress, to which tests add pods and ticks. */
import type { V1ContainerStatus } from '@kubernetes/client-node';
import type { Observation } from '../../../src/core/index.js';
import { availableTrue, deployment, pod, progressing, replicaSet, up } from './builders.js';

/** The target for an update from revision 1 written as generation 2. */
export const UPDATE = { baselineRevision: '1', minGeneration: 2 } as const;

/** Deployment at revision 2 rolling out, RS web-1 (3 ready) and RS web-2 (`replicas`, `ready`). */
export function rollingTo2(o: { replicas?: number; ready?: number; image?: string; at?: number } = {}): Observation[] {
  const at = o.at ?? 0;
  return [
    up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', ready: 3 }), at),
    up(
      'ReplicaSet',
      replicaSet({ name: 'web-2', revision: '2', replicas: o.replicas ?? 1, ready: o.ready ?? 0, image: o.image ?? 'nginx:nope' }),
      at,
    ),
    up(
      'Deployment',
      deployment({
        revision: '2',
        generation: 2,
        image: o.image ?? 'nginx:nope',
        conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')],
      }),
      at,
    ),
  ];
}

/**
 * Revision 2 fully rolled out: the ReplicaSet's status counts three Ready pods, and so many are
 * there (`pods: false` when the test brings its own three).
 */
export function doneAt2(at: number, o: { pods?: boolean } = {}): Observation[] {
  return [
    ...(o.pods === false ? [] : [1, 2, 3].map((i) => up('Pod', pod({ name: `web-2-done${i}`, rs: 'web-2' }), at))),
    up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 3, ready: 3 }), at),
    up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 0, ready: 0, statusReplicas: 0 }), at),
    up(
      'Deployment',
      deployment({ revision: '2', generation: 2, conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-2')] }),
      at,
    ),
  ];
}

/** A pod of web-2 with the given container status. */
export function newPod(
  name: string,
  c: V1ContainerStatus,
  at: number,
  extra: Parameters<typeof pod>[0] extends infer P ? Partial<P> : never = {},
): Observation {
  return up('Pod', pod({ name, rs: 'web-2', containers: [c], ...extra }), at);
}
