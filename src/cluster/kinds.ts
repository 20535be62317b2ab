/**
 * Per-kind API facts: collection path (for watches), RBAC resource name and a paged list call.
 */
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { KindToObject, WatchedKind } from '../core/index.js';
import { withSignal } from './request-options.js';

/** One page of a list. */
export interface ListPage<K extends WatchedKind> {
  items: KindToObject[K][];
  resourceVersion: string;
  continueToken?: string;
}

/** Parameters of one list page. */
export interface ListPageOptions {
  continueToken?: string | undefined;
  limit: number;
  signal: AbortSignal;
  /** Kubernetes label selector (undefined: every object). */
  labelSelector?: string | undefined;
}

/** How to list and watch one kind. */
export interface KindApi<K extends WatchedKind> {
  kind: K;
  /** Plural lower-case resource, as in RBAC rules. */
  resource: string;
  /** Collection path in `namespace`, for `Watch.watch`. */
  path(namespace: string): string;
  listPage(namespace: string, opts: ListPageOptions): Promise<ListPage<K>>;
  /**
   * Reads one object (Pods only): a label-selected watch reports a pod whose labels stopped
   * matching as DELETED, and only a read tells that from a real deletion.
   */
  read?(namespace: string, name: string, signal: AbortSignal): Promise<KindToObject[K]>;
  /** True for a cluster-scoped kind (the namespace is ignored). */
  clusterScoped?: boolean;
  /** Drops what the core never reads before an object is cached (large node image lists). */
  slim?(object: KindToObject[K]): KindToObject[K];
}

/** Builds the {@link KindApi} of every watched kind for one kubeconfig. */
export function kindApis(kc: KubeConfig): { [K in WatchedKind]: KindApi<K> } {
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  const page = <K extends WatchedKind>(list: {
    items: KindToObject[K][];
    metadata?: { resourceVersion?: string; _continue?: string };
  }): ListPage<K> => ({
    items: list.items,
    resourceVersion: list.metadata?.resourceVersion ?? '',
    continueToken: list.metadata?._continue || undefined,
  });
  return {
    Deployment: {
      kind: 'Deployment',
      resource: 'deployments',
      path: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
      listPage: async (namespace, o) =>
        page<'Deployment'>(await apps.listNamespacedDeployment({ namespace, ...query(o) }, withSignal(o.signal))),
    },
    ReplicaSet: {
      kind: 'ReplicaSet',
      resource: 'replicasets',
      path: (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`,
      listPage: async (namespace, o) =>
        page<'ReplicaSet'>(await apps.listNamespacedReplicaSet({ namespace, ...query(o) }, withSignal(o.signal))),
    },
    Pod: {
      kind: 'Pod',
      resource: 'pods',
      path: (ns) => `/api/v1/namespaces/${ns}/pods`,
      read: (namespace, name, signal) => core.readNamespacedPod({ name, namespace }, withSignal(signal)),
      listPage: async (namespace, o) => page<'Pod'>(await core.listNamespacedPod({ namespace, ...query(o) }, withSignal(o.signal))),
    },
    Event: {
      kind: 'Event',
      resource: 'events',
      path: (ns) => `/api/v1/namespaces/${ns}/events`,
      listPage: async (namespace, o) => page<'Event'>(await core.listNamespacedEvent({ namespace, ...query(o) }, withSignal(o.signal))),
    },
    Node: {
      kind: 'Node',
      resource: 'nodes',
      clusterScoped: true,
      path: () => '/api/v1/nodes',
      listPage: async (_namespace, o) => page<'Node'>(await core.listNode(query(o), withSignal(o.signal))),
      slim: (node) => ({
        metadata: node.metadata,
        spec: { ...(node.spec?.taints ? { taints: node.spec.taints } : {}), ...(node.spec?.unschedulable ? { unschedulable: true } : {}) },
        status: { ...(node.status?.conditions ? { conditions: node.status.conditions } : {}) },
      }),
    },
    PersistentVolumeClaim: {
      kind: 'PersistentVolumeClaim',
      resource: 'persistentvolumeclaims',
      path: (ns) => `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
      listPage: async (namespace, o) =>
        page<'PersistentVolumeClaim'>(await core.listNamespacedPersistentVolumeClaim({ namespace, ...query(o) }, withSignal(o.signal))),
    },
  };
}

/** The list query of one page. */
function query(o: ListPageOptions): { limit: number; _continue?: string; labelSelector?: string } {
  return {
    limit: o.limit,
    ...(o.continueToken ? { _continue: o.continueToken } : {}),
    ...(o.labelSelector ? { labelSelector: o.labelSelector } : {}),
  };
}
