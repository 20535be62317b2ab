/**
 * Per-kind API facts: collection path (for watches), RBAC resource name and a paged list call.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KindToObject, WatchedKind } from '../core/index.js';
import { type Query, rawGet } from './raw-get.js';

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
  /** Kubernetes field selector (one of {@link KindApi.listParts}). */
  fieldSelector?: string | undefined;
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
  /**
   * A list in parts, one field selector each (default: one list of everything): see
   * {@link EVENT_LIST_PARTS}. The watch is never field-selected.
   */
  listParts?: readonly (string | undefined)[];
  /** Whether the list parts return `object` (a re-list forgets only objects it would return). */
  listed?(object: KindToObject[K]): boolean;
  /** Drops what the core never reads before an object is cached (large node image lists). */
  slim?(object: KindToObject[K]): KindToObject[K];
}

/** Builds the {@link KindApi} of every watched kind for one kubeconfig (plain JSON, see raw-get.ts). */
export function kindApis(kc: KubeConfig): { [K in WatchedKind]: KindApi<K> } {
  const kind = <K extends WatchedKind>(k: K, resource: string, path: (ns: string) => string, extra: Partial<KindApi<K>> = {}) => {
    const api: KindApi<K> = {
      kind: k,
      resource,
      path,
      listPage: async (namespace, o) => {
        const fromCache = extra.listParts !== undefined && !o.continueToken;
        const list = await rawGet<ListBody<K>>(
          kc,
          path(namespace),
          { ...query(o), resourceVersion: fromCache ? '0' : undefined },
          o.signal,
        );
        return {
          items: list.items ?? [],
          resourceVersion: list.metadata?.resourceVersion ?? '',
          continueToken: list.metadata?.continue || undefined,
        };
      },
      ...extra,
    };
    return api;
  };
  const pods = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
  return {
    Deployment: kind('Deployment', 'deployments', (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`),
    ReplicaSet: kind('ReplicaSet', 'replicasets', (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`),
    Pod: kind('Pod', 'pods', pods, {
      read: (namespace, name, signal) => rawGet(kc, `${pods(namespace)}/${encodeURIComponent(name)}`, {}, signal),
    }),
    Event: kind('Event', 'events', (ns) => `/api/v1/namespaces/${ns}/events`, {
      listParts: EVENT_LIST_PARTS,
      listed: (e) => e.type !== 'Normal' || e.involvedObject?.kind !== 'Pod' || e.reason === 'TriggeredScaleUp',
    }),
    Node: kind('Node', 'nodes', () => '/api/v1/nodes', { clusterScoped: true, slim: slimNode }),
    PersistentVolumeClaim: kind(
      'PersistentVolumeClaim',
      'persistentvolumeclaims',
      (ns) => `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
    ),
  };
}

/**
 * The Event backlog, listed in three parts filtered by the apiserver: every Warning (and any other
 * type), the Normal Events of everything but pods (ScalingReplicaSet, SuccessfulCreate and
 * SuccessfulDelete are shown; PVC provisioning), and a pod's Normal `TriggeredScaleUp` (it holds
 * an unschedulable verdict). A pod's other Normal Events from before the trace started (Scheduled,
 * Pulling, Pulled, Created, Started: in a busy namespace nearly all of its Events) are never shown
 * nor read by a diagnosis, so they are not sent; from the watch on, every Event comes.
 *
 * Each part is listed with `resourceVersion=0` (any version, as client-go's informers list): an
 * apiserver with a watch cache for Events answers from memory. kube-apiserver's default keeps none
 * for Events (their watch-cache size is 0), so there each part still reads the namespace's Events
 * from etcd, filtering them on the server: 45,000 Events took about 3 s a part in the bench. The
 * pages after the first carry only the continue token. The watch resumes from the first part's
 * resourceVersion, so nothing is lost between the parts.
 */
export const EVENT_LIST_PARTS = [
  'type!=Normal',
  'type=Normal,involvedObject.kind!=Pod',
  'type=Normal,involvedObject.kind=Pod,reason=TriggeredScaleUp',
] as const;

/** The body of a list response. */
interface ListBody<K extends WatchedKind> {
  items?: KindToObject[K][];
  metadata?: { resourceVersion?: string; continue?: string };
}

/** A Node as the core needs it: taints, unschedulable and conditions (not its image list). */
function slimNode(node: KindToObject['Node']): KindToObject['Node'] {
  return {
    metadata: node.metadata,
    spec: { ...(node.spec?.taints ? { taints: node.spec.taints } : {}), ...(node.spec?.unschedulable ? { unschedulable: true } : {}) },
    status: { ...(node.status?.conditions ? { conditions: node.status.conditions } : {}) },
  };
}

/** The list query of one page. */
function query(o: ListPageOptions): Query {
  return {
    limit: o.limit,
    continue: o.continueToken || undefined,
    labelSelector: o.labelSelector || undefined,
    fieldSelector: o.fieldSelector || undefined,
  };
}
