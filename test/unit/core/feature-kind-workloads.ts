/**
 * The workloads of the feature × kind behaviours (feature-kind-behaviours.test.ts): StatefulSet db
 * and DaemonSet agent of 2 pods at their first template, their pods, and a runner applying read
 * batches as the tracker does.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Observation, TrackTarget } from '../../../src/core/index.js';
import {
  daemonSetObject,
  iso,
  type PodOpts,
  pod,
  run,
  statefulSetObject,
  T0,
  terminatedLast,
  verdictOf,
  waiting,
  workloadPod,
} from './builders.js';

/** `s` seconds after T0, in ms. */
export const at = (s: number) => T0 + s * 1000;
/** The initial lists are in. */
export const SYNCED: Observation = { type: 'synced', at: T0 };
/** The traced StatefulSet, DaemonSet and Job. */
export const STS = { kind: 'StatefulSet', name: 'db' } as const;
export const DS = { kind: 'DaemonSet', name: 'agent' } as const;
export const JOB = { kind: 'Job', name: 'migrate' } as const;
/** What a cell traces (merged into builders' TARGET). */
export type Target = Partial<TrackTarget>;
/** The verdict's outcome after `obs`, each reduced in turn. */
export const outcome = (obs: Observation[], target: Target) => verdictOf(run(obs, target).events)?.outcome;

/** A container crash-looping after its 2nd restart. */
export const crashLooping = () => waiting('CrashLoopBackOff', 'back-off 20s', { restarts: 2, last: terminatedLast(3) });

/** `p` as another pod of the same name (a StatefulSet recreates its ordinals), created at `s`. */
export const again = (p: V1Pod, s: number): V1Pod => ({
  ...p,
  metadata: { ...p.metadata, uid: `${p.metadata?.uid}-${s}`, creationTimestamp: iso(s) as never },
});

type PodShape = Partial<Omit<PodOpts, 'rs'> & { revision: string }>;
/** A running pod of ReplicaSet web-2. */
export const rsPod = (name: string): V1Pod => pod({ name, rs: 'web-2' });
/** A pod of StatefulSet db at revision db-1. */
export const stsPod = (name: string, o: PodShape = {}) => workloadPod('StatefulSet', 'db', { name, revision: 'db-1', ...o });
/** A pod of DaemonSet agent at generation 1, on node `node-<its last letter>`. */
export const dsPod = (name: string, o: PodShape = {}) =>
  workloadPod('DaemonSet', 'agent', { name, revision: '1', node: `node-${name.slice(-1)}`, ...o });
/** StatefulSet db of 2 at db-1, `ready` of them Ready. */
export const sts = (ready: number) =>
  statefulSetObject('db', { replicas: 2 }, { readyReplicas: ready, currentRevision: 'db-1', updateRevision: 'db-1', updatedReplicas: 2 });
/** DaemonSet agent on 2 nodes at generation 1, `ready` of them running a Ready pod. */
export const ds = (ready: number) =>
  daemonSetObject('agent', {
    desiredNumberScheduled: 2,
    currentNumberScheduled: 2,
    updatedNumberScheduled: 2,
    numberReady: ready,
    numberAvailable: ready,
  });
