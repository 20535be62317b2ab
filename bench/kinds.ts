/**
 * What the bench needs per workload kind: the CLI word for rollout-trace, the kubectl command a
 * user runs beside it, the raw watch's path, and kubectl's own completion test (what the
 * independent raw watch times completion by).
 */
import type { V1DaemonSet, V1Deployment, V1Job, V1Pod, V1StatefulSet } from '@kubernetes/client-node';

/** The workload kinds the bench traces. */
export type BenchKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job';

/** A workload object of any {@link BenchKind}. */
export type Workload = V1Deployment & V1StatefulSet & V1DaemonSet & V1Job;

interface KindSpec {
  /** rollout-trace's (and kubectl's) short name: `rollout-trace sts NAME`. */
  cli: string;
  /** The namespaced collection the raw watch follows (`/apis/apps/v1/namespaces/NS/<path>`). */
  path: (ns: string) => string;
  /** The kubectl arguments after `-n NS`: what a user waits with. */
  kubectl: (name: string, timeoutS: number) => string[];
  /** kubectl's completion test for this kind. */
  complete: (w: Workload) => boolean;
  /** The Job's `Failed` condition (Jobs only): when the controller gave up. */
  failed?: (w: Workload) => boolean;
  /** The workload a pod belongs to (its owner's name; a Deployment's pod: its ReplicaSet's, hash cut). */
  ownerOf: (p: V1Pod) => string;
  /** A label selector of workload `name`'s pods (the bench's workloads: `app=<name>`; a Job's: the controller's `job-name`). */
  podSelector: (name: string) => string;
}

const appLabel = (name: string) => `app=${name}`;

const generationSeen = (w: Workload) => (w.status?.observedGeneration ?? 0) >= (w.metadata?.generation ?? 0);
const owner = (p: V1Pod) => p.metadata?.ownerReferences?.[0]?.name ?? '';
const rolloutStatus = (resource: string) => (name: string, timeoutS: number) => [
  'rollout',
  'status',
  `${resource}/${name}`,
  `--timeout=${timeoutS}s`,
];
const condition = (w: Workload, type: string) => (w.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** Per kind: see {@link KindSpec}. */
export const KINDS: Record<BenchKind, KindSpec> = {
  Deployment: {
    cli: 'deploy',
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
    kubectl: rolloutStatus('deployment'),
    // kubectl rollout status: all replicas updated and available, generation observed.
    complete: (d) => {
      const want = d.spec?.replicas ?? 1;
      const s = d.status;
      return generationSeen(d) && s?.updatedReplicas === want && s?.replicas === want && s?.availableReplicas === want;
    },
    ownerOf: (p) => owner(p).replace(/-[^-]+$/, ''),
    podSelector: appLabel,
  },
  StatefulSet: {
    cli: 'sts',
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/statefulsets`,
    kubectl: rolloutStatus('statefulset'),
    // kubectl rollout status (RollingUpdate; the apiserver defaults partition to 0, so kubectl
    // takes its partitioned branch): generation observed, every replica ready, replicas minus
    // partition updated ("partitioned roll out complete").
    complete: (s) => {
      const want = s.spec?.replicas ?? 1;
      const partition = s.spec?.updateStrategy?.rollingUpdate?.partition;
      const revisionDone =
        partition === undefined
          ? s.status?.currentRevision === s.status?.updateRevision
          : (s.status?.updatedReplicas ?? 0) >= want - partition;
      return (s.status?.observedGeneration ?? 0) > 0 && generationSeen(s) && (s.status?.readyReplicas ?? 0) >= want && revisionDone;
    },
    ownerOf: owner,
    podSelector: appLabel,
  },
  DaemonSet: {
    cli: 'ds',
    path: (ns) => `/apis/apps/v1/namespaces/${ns}/daemonsets`,
    kubectl: rolloutStatus('daemonset'),
    // kubectl rollout status: generation observed, every scheduled node updated and available.
    complete: (d) => {
      const s = d.status;
      const want = s?.desiredNumberScheduled ?? 0;
      return generationSeen(d) && (s?.updatedNumberScheduled ?? 0) >= want && (s?.numberAvailable ?? 0) >= want;
    },
    ownerOf: owner,
    podSelector: appLabel,
  },
  Job: {
    cli: 'job',
    path: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`,
    kubectl: (name, timeoutS) => ['wait', '--for=condition=complete', `job/${name}`, `--timeout=${timeoutS}s`],
    complete: (j) => condition(j, 'Complete'),
    failed: (j) => condition(j, 'Failed'),
    ownerOf: owner,
    podSelector: (name) => `job-name=${name}`,
  },
};
