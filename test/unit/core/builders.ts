/**
 * Small builders for Kubernetes objects shaped exactly like what the apiserver returns
 * (raw JSON: timestamps are strings). Only the fields the core reads are filled. Deployments and
 * ReplicaSets take their spec and pod template from the tests' one builder (deployment-shape.ts)
 * and add what the controllers write (uid, revision, status).
 */
import type {
  CoreV1Event,
  V1ContainerStatus,
  V1DaemonSet,
  V1Deployment,
  V1DeploymentCondition,
  V1Job,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodCondition,
  V1PodTemplateSpec,
  V1ReplicaSet,
  V1StatefulSet,
  V1Toleration,
} from '@kubernetes/client-node';
import type { Observation, Policy, RolloutEvent, RolloutState, TrackTarget } from '../../../src/core/index.js';
import { defaultPolicy, initialState, reduce, reduceBatch, resolvePolicy } from '../../../src/core/index.js';
import { deploymentOf, podTemplateOf } from '../../helpers/deployment-shape.js';

export const NS = 'apps';
export const DEP_UID = 'd0000000-0000-4000-8000-000000000001';
export const T0 = Date.parse('2026-11-22T04:00:00Z');
/** ISO time `s` seconds after T0. */
export const iso = (s: number) => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');

/** The image each revision's template uses unless told otherwise. */
export const imageOf = (revision: string | null) => `nginx:1.${18 + Number(revision ?? 1)}`;

type Cond = Pick<V1DeploymentCondition, 'type' | 'status' | 'reason' | 'message'>;

export const availableTrue: Cond = {
  type: 'Available',
  status: 'True',
  reason: 'MinimumReplicasAvailable',
  message: 'Deployment has minimum availability.',
};
export const availableFalse: Cond = {
  type: 'Available',
  status: 'False',
  reason: 'MinimumReplicasUnavailable',
  message: 'Deployment does not have minimum availability.',
};
export const progressing = (reason: string, rs: string, status = 'True'): Cond => ({
  type: 'Progressing',
  status,
  reason,
  message:
    reason === 'NewReplicaSetAvailable'
      ? `ReplicaSet "${rs}" has successfully progressed.`
      : reason === 'ProgressDeadlineExceeded'
        ? `ReplicaSet "${rs}" has timed out progressing.`
        : reason === 'NewReplicaSetCreated'
          ? `Created new replica set "${rs}"`
          : `ReplicaSet "${rs}" is progressing.`,
});

export interface DeploymentOpts {
  name?: string;
  generation?: number;
  observedGeneration?: number | null;
  revision?: string | null;
  replicas?: number;
  conditions?: Cond[];
  image?: string;
  paused?: boolean;
  pvcs?: string[];
  strategy?: V1Deployment['spec'] extends infer S ? (S extends { strategy?: infer T } ? T : never) : never;
  status?: Partial<NonNullable<V1Deployment['status']>>;
  historyOf?: string;
  /** Pod-template annotations (e.g. `kubectl rollout restart`'s `restartedAt`). */
  templateAnnotations?: Record<string, string>;
}

/**
 * The replica counts the Deployment controller writes together with the conditions given: all
 * `replicas` updated and available once it says the rollout is complete (Progressing
 * NewReplicaSetAvailable, or Available without Progressing as on a first rollout), none otherwise.
 */
function countsFor(o: DeploymentOpts): Partial<NonNullable<V1Deployment['status']>> {
  const reasons = (o.conditions ?? []).map((c) => `${c.type}/${c.reason}`);
  const progressing = reasons.find((r) => r.startsWith('Progressing/'));
  const complete =
    progressing === 'Progressing/NewReplicaSetAvailable' ||
    (progressing === undefined && reasons.includes('Available/MinimumReplicasAvailable'));
  if (!complete || o.paused) return {};
  const n = o.replicas ?? 3;
  return { replicas: n, updatedReplicas: n, readyReplicas: n, availableReplicas: n };
}

export function deployment(o: DeploymentOpts = {}): V1Deployment {
  const name = o.name ?? 'web';
  const generation = o.generation ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: NS,
      uid: DEP_UID,
      generation,
      creationTimestamp: iso(0) as unknown as Date,
      ...(o.revision === null ? {} : { annotations: { 'deployment.kubernetes.io/revision': o.revision ?? '1' } }),
    },
    spec: {
      ...deploymentOf(name, {
        replicas: o.replicas ?? 3,
        image: o.image ?? imageOf(o.revision ?? '1'),
        strategy: o.strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        ...(o.templateAnnotations ? { annotations: o.templateAnnotations } : {}),
        ...(o.pvcs ? { podSpec: { volumes: o.pvcs.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })) } } : {}),
      }).spec!,
      ...(o.paused ? { paused: true } : {}),
    },
    status: {
      ...(o.observedGeneration === null ? {} : { observedGeneration: o.observedGeneration ?? generation }),
      ...(o.conditions ? { conditions: o.conditions as V1DeploymentCondition[] } : {}),
      ...countsFor(o),
      ...o.status,
    },
  };
}

export interface RsOpts {
  name: string;
  revision: string;
  replicas?: number;
  ready?: number | null;
  available?: number;
  ownerUid?: string;
  ownerName?: string;
  image?: string;
  history?: string;
  failure?: { reason: string; message: string };
  statusReplicas?: number;
  /** Pod-template annotations (copied from the Deployment's template by the controller). */
  templateAnnotations?: Record<string, string>;
}

/** A ReplicaSet's copy of the Deployment's pod template: the same, plus `pod-template-hash`. */
function withHash(template: V1PodTemplateSpec, hash: string): V1PodTemplateSpec {
  return { ...template, metadata: { ...template.metadata, labels: { ...template.metadata?.labels, 'pod-template-hash': hash } } };
}

export function replicaSet(o: RsOpts): V1ReplicaSet {
  const annotations: Record<string, string> = { 'deployment.kubernetes.io/revision': o.revision };
  if (o.history) annotations['deployment.kubernetes.io/revision-history'] = o.history;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: o.name,
      namespace: NS,
      uid: `rs-${o.name}`,
      annotations,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: o.ownerName ?? 'web',
          uid: o.ownerUid ?? DEP_UID,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: o.replicas ?? 3,
      selector: { matchLabels: { app: 'web' } },
      template: withHash(
        podTemplateOf('web', {
          image: o.image ?? imageOf(o.revision),
          ...(o.templateAnnotations ? { annotations: o.templateAnnotations } : {}),
        }),
        o.name.split('-').pop() ?? '',
      ),
    },
    status: {
      replicas: o.statusReplicas ?? o.replicas ?? 3,
      ...(o.ready === null ? {} : { readyReplicas: o.ready ?? 0 }),
      availableReplicas: o.available ?? o.ready ?? 0,
      ...(o.failure
        ? { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: o.failure.reason, message: o.failure.message }] }
        : {}),
    },
  };
}

export interface PodOpts {
  name: string;
  rs: string;
  node?: string | null;
  ready?: boolean;
  phase?: string;
  scheduled?: { status: string; reason?: string; message?: string };
  containers?: V1ContainerStatus[];
  initContainers?: V1ContainerStatus[];
  initSpecs?: Array<{ name: string; image: string; restartPolicy?: string }>;
  readinessProbe?: NonNullable<V1Pod['spec']>['containers'][number]['readinessProbe'];
  /** Being deleted: true, or when its grace period ends (seconds after T0; true: 30). */
  deleting?: boolean | number;
  ownerless?: boolean;
  image?: string;
  memoryLimit?: string;
}

export function running(
  name = 'app',
  o: { ready?: boolean; restarts?: number; startedAt?: string; last?: V1ContainerStatus['lastState'] } = {},
): V1ContainerStatus {
  return {
    name,
    image: 'nginx:1.19',
    imageID: 'docker-pullable://nginx@sha256:abc',
    ready: o.ready ?? true,
    restartCount: o.restarts ?? 0,
    started: true,
    state: { running: { startedAt: (o.startedAt ?? iso(5)) as unknown as Date } },
    ...(o.last ? { lastState: o.last } : { lastState: {} }),
  };
}

export function waiting(
  reason: string,
  message: string | undefined,
  o: { name?: string; image?: string; restarts?: number; last?: V1ContainerStatus['lastState'] } = {},
): V1ContainerStatus {
  return {
    name: o.name ?? 'app',
    image: o.image ?? 'nginx:1.19',
    imageID: '',
    ready: false,
    restartCount: o.restarts ?? 0,
    started: false,
    state: { waiting: { reason, ...(message !== undefined ? { message } : {}) } },
    lastState: o.last ?? {},
  };
}

export function terminatedLast(exitCode: number, reason = 'Error', message?: string, finishedAt = iso(20)): V1ContainerStatus['lastState'] {
  return {
    terminated: {
      exitCode,
      reason,
      startedAt: iso(18) as unknown as Date,
      finishedAt: finishedAt as unknown as Date,
      containerID: 'docker://dead',
      ...(message ? { message } : {}),
    },
  };
}

export function pod(o: PodOpts): V1Pod {
  const ready = o.ready ?? (o.containers ?? [running()]).every((c) => c.ready);
  const scheduled = o.scheduled ?? { status: 'True' };
  const conditions: V1PodCondition[] = [];
  if (scheduled.status === 'True') {
    conditions.push({
      type: 'Initialized',
      status: o.initContainers && !o.initContainers.every((c) => c.state?.terminated?.exitCode === 0) ? 'False' : 'True',
      ...(o.initContainers && !o.initContainers.every((c) => c.state?.terminated?.exitCode === 0)
        ? {
            reason: 'ContainersNotInitialized',
            message: `containers with incomplete status: [${o.initContainers.map((c) => c.name).join(' ')}]`,
          }
        : {}),
    });
    conditions.push(
      ready
        ? { type: 'Ready', status: 'True' }
        : {
            type: 'Ready',
            status: 'False',
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${(o.containers ?? [])
              .filter((c) => !c.ready)
              .map((c) => c.name)
              .join(' ')}]`,
          },
    );
    conditions.push(
      ready
        ? { type: 'ContainersReady', status: 'True' }
        : {
            type: 'ContainersReady',
            status: 'False',
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${(o.containers ?? [])
              .filter((c) => !c.ready)
              .map((c) => c.name)
              .join(' ')}]`,
          },
    );
  }
  conditions.push({ type: 'PodScheduled', ...scheduled } as V1PodCondition);
  const node = o.node === null || scheduled.status !== 'True' ? undefined : (o.node ?? 'sim-node-1');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name,
      namespace: NS,
      uid: `pod-${o.name}`,
      creationTimestamp: iso(1) as unknown as Date,
      labels: { app: 'web' },
      ...(o.deleting ? { deletionTimestamp: iso(o.deleting === true ? 30 : o.deleting) as unknown as Date } : {}),
      ...(o.ownerless
        ? {}
        : {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.rs, uid: `rs-${o.rs}`, controller: true, blockOwnerDeletion: true },
            ],
          }),
    },
    spec: {
      ...(node ? { nodeName: node } : {}),
      ...(o.initSpecs ? { initContainers: o.initSpecs } : {}),
      containers: [
        {
          name: 'app',
          image: o.image ?? 'nginx:1.19',
          ...(o.readinessProbe ? { readinessProbe: o.readinessProbe } : {}),
          ...(o.memoryLimit ? { resources: { limits: { memory: o.memoryLimit } } } : {}),
        },
      ],
    },
    status: {
      phase:
        o.phase ?? (scheduled.status === 'True' && (o.containers ?? [running()]).some((c) => c.state?.running) ? 'Running' : 'Pending'),
      conditions,
      ...(scheduled.status === 'True' ? { containerStatuses: o.containers ?? [running()] } : {}),
      ...(o.initContainers ? { initContainerStatuses: o.initContainers } : {}),
    },
  };
}

let eventSeq = 0;
/** The uid the builders give an object of `kind` named `name`. */
function involvedUid(kind: string, name: string): string {
  if (kind === 'Pod') return `pod-${name}`;
  if (kind === 'Deployment') return DEP_UID;
  if (kind === 'StatefulSet' || kind === 'DaemonSet' || kind === 'Job') return `${kind}-${name}`;
  return `rs-${name}`;
}

export function event(o: {
  kind: string;
  name: string;
  reason: string;
  message: string;
  type?: 'Normal' | 'Warning';
  count?: number;
  at?: number;
  uid?: string;
  /** The involved object's uid (default: the uid its builder gives it). */
  objectUid?: string;
}): CoreV1Event {
  eventSeq += 1;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${o.name}.${eventSeq}`, namespace: NS, uid: o.uid ?? `ev-${eventSeq}` },
    involvedObject: { kind: o.kind, name: o.name, namespace: NS, uid: o.objectUid ?? involvedUid(o.kind, o.name) },
    reason: o.reason,
    message: o.message,
    type: o.type ?? 'Warning',
    count: o.count ?? 1,
    firstTimestamp: iso(o.at ?? 5) as unknown as Date,
    lastTimestamp: iso(o.at ?? 5) as unknown as Date,
    source: { component: 'kubelet' },
  };
}

export function pvc(name: string, phase: string): V1PersistentVolumeClaim {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS, uid: `pvc-${name}` }, status: { phase } };
}

/** Observation helpers (at = seconds after T0). */
export const up = <K extends Observation & { kind: string }>(kind: K['kind'], object: unknown, s = 0): Observation =>
  ({ type: 'upsert', kind, object, at: T0 + s * 1000 }) as Observation;
export const del = (kind: string, object: unknown, s = 0): Observation =>
  ({ type: 'delete', kind, object, at: T0 + s * 1000 }) as Observation;
export const tick = (s: number): Observation => ({ type: 'tick', at: T0 + s * 1000 });

/** A Warning Event about pod `name`, emitted and observed at `s`. */
export const podEvent = (name: string, reason: string, message: string, s: number, o: { count?: number; uid?: string } = {}): Observation =>
  up('Event', event({ kind: 'Pod', name, reason, message, at: s, ...o }), s);

export const TARGET: TrackTarget = { namespace: NS, name: 'web', kind: 'Deployment' };

/** Runs observations through the reducer; returns the final state and all events. */
export function run(
  observations: Observation[],
  target: Partial<TrackTarget> = {},
  policy: Policy = defaultPolicy(),
): { state: RolloutState; events: RolloutEvent[] } {
  let state = initialState({ ...TARGET, ...target }, policy, T0);
  // As if the tracker's initial lists were in (failures are judged only then), unless the test says when.
  if (!observations.some((o) => o.type === 'synced')) state = { ...state, synced: true };
  const events: RolloutEvent[] = [];
  for (const obs of observations) {
    const [next, out] = reduce(state, obs);
    state = next;
    events.push(...out);
  }
  return { state, events };
}

/** Events of one type. */
export function ofType<T extends RolloutEvent['type']>(events: RolloutEvent[], type: T): Extract<RolloutEvent, { type: T }>[] {
  return events.filter((e): e is Extract<RolloutEvent, { type: T }> => e.type === type);
}

/** The verdict, or undefined. */
export function verdictOf(events: RolloutEvent[]) {
  return ofType(events, 'verdict')[0]?.verdict;
}

let versionSeq = 0;
/** A new resourceVersion for each built workload (the core skips a re-delivered version). */
const nextVersion = () => String(++versionSeq);

/** The workload kinds whose pods {@link workloadPod} makes. */
type OwnerKind = 'StatefulSet' | 'DaemonSet' | 'Job';

/**
 * A pod of a StatefulSet, DaemonSet or Job (the {@link pod} builder's, owned by `owner` of `kind`
 * instead of a ReplicaSet), with its revision label (`controller-revision-hash` or
 * `pod-template-generation`) when given.
 */
export function workloadPod(kind: OwnerKind, owner: string, o: Omit<PodOpts, 'rs'> & { revision?: string }): V1Pod {
  const p = pod({ ...o, rs: owner });
  const label = kind === 'StatefulSet' ? 'controller-revision-hash' : kind === 'DaemonSet' ? 'pod-template-generation' : undefined;
  p.metadata!.labels = { app: owner, ...(label && o.revision ? { [label]: o.revision } : {}) };
  p.metadata!.ownerReferences = [{ apiVersion: 'apps/v1', kind, name: owner, uid: `${kind}-${owner}`, controller: true }];
  return p;
}

/** A pod of Job `migrate` that ended Failed: its container exited with `exitCode` (restartPolicy Never). */
export function failedJobPod(name: string, exitCode: number, message?: string): V1Pod {
  const p = workloadPod('Job', 'migrate', { name, phase: 'Failed', ready: false });
  p.status!.containerStatuses = [
    {
      name: 'app',
      image: 'busybox',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode, reason: 'Error', ...(message !== undefined ? { message } : {}) } },
    },
  ];
  return p;
}

/** A StatefulSet `db`-like object with its status (uid `StatefulSet-<name>`). */
export function statefulSetObject(
  name: string,
  spec: Partial<V1StatefulSet['spec']> & { replicas: number },
  status: Partial<NonNullable<V1StatefulSet['status']>>,
  generation = 1,
): V1StatefulSet {
  return {
    metadata: { name, namespace: NS, uid: `StatefulSet-${name}`, generation, resourceVersion: nextVersion() },
    spec: { serviceName: name, selector: { matchLabels: { app: name } }, template: {}, ...spec },
    status: { observedGeneration: generation, replicas: spec.replicas, ...status },
  };
}

/** A Job with its status (uid `Job-<name>`). */
export function jobObject(name: string, spec: Partial<V1Job['spec']>, status: Partial<NonNullable<V1Job['status']>>): V1Job {
  return {
    metadata: { name, namespace: NS, uid: `Job-${name}`, generation: 1, resourceVersion: nextVersion() },
    spec: { template: {}, completions: 1, parallelism: 1, ...spec },
    status: { startTime: iso(1) as unknown as Date, ...status },
  };
}

/** Job `name` failed by its controller: `failed` pods and a `Failed` condition (BackoffLimitExceeded unless `reason`). */
export function failedJobObject(
  name: string,
  spec: Partial<V1Job['spec']>,
  failed: number,
  reason = 'BackoffLimitExceeded',
  message = 'Job has reached the specified backoff limit',
): V1Job {
  return jobObject(name, spec, { failed, conditions: [{ type: 'Failed', status: 'True', reason, message }] });
}

/** A DaemonSet with its status and template generation (uid `DaemonSet-<name>`). */
export function daemonSetObject(
  name: string,
  status: Partial<NonNullable<V1DaemonSet['status']>>,
  o: { generation?: number; tolerations?: V1Toleration[] } = {},
): V1DaemonSet {
  const generation = o.generation ?? 1;
  return {
    metadata: {
      name,
      namespace: NS,
      uid: `DaemonSet-${name}`,
      generation,
      resourceVersion: nextVersion(),
      annotations: { 'deprecated.daemonset.template.generation': String(generation) },
    },
    spec: { selector: { matchLabels: { app: name } }, template: { spec: { containers: [], tolerations: o.tolerations ?? [] } } },
    status: {
      observedGeneration: generation,
      currentNumberScheduled: 0,
      desiredNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
      ...status,
    },
  };
}

/** Each step applied with `reduceBatch`, as the tracker applies a read batch (the initial lists in). */
export function runSteps(steps: Observation[][], target: Partial<TrackTarget>): RolloutEvent[] {
  let state = { ...initialState({ namespace: 'apps', name: 'web', kind: 'Deployment', ...target }, resolvePolicy(), T0), synced: true };
  const events: RolloutEvent[] = [];
  for (const step of steps) {
    const [next, out] = reduceBatch(state, step);
    state = next;
    events.push(...out);
  }
  return events;
}
