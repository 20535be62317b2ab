/**
 * Per-kind API facts: collection path (for watches), RBAC resource name and a paged list call.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { collectionPath, KIND_FACTS, type KindToObject, type WatchedKind, type WorkloadKind } from '../core/index.js';
import { type Query, rawGet } from './raw-get.js';
import { UNLISTED_EVENT_REASONS } from './relevance.js';

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
  /** Kubernetes field selector ({@link KindApi.listFieldSelector}). */
  fieldSelector?: string | undefined;
  /** Any version will do (`resourceVersion=0`): the apiserver's watch cache answers, from memory. */
  anyVersion?: boolean | undefined;
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
   * A field selector for lists only (default: every object): see {@link EVENT_LIST_SELECTOR}. The
   * watch is never field-selected.
   */
  listFieldSelector?: string;
  /** Objects per list page (default 500): see {@link EVENT_LIST_PAGE}. */
  listPageSize?: number;
  /** Whether the list returns `object` (a re-list forgets only objects it would return). */
  listed?(object: KindToObject[K]): boolean;
  /** Drops what the core never reads before an object is cached (large node image lists). */
  slim?(object: KindToObject[K]): KindToObject[K];
  /**
   * Its watch lines are handled in batches (read-batches.ts): the kinds that come by the thousand
   * in a rollout (Pods, Events). The workloads' and ReplicaSets' lines wait only while they cannot
   * bring a verdict (waiting-lines.ts).
   */
  batchedWatch?: boolean;
}

/** Builds the {@link KindApi} of every watched kind for one kubeconfig (plain JSON, see raw-get.ts). */
export function kindApis(kc: KubeConfig): { [K in WatchedKind]: KindApi<K> } {
  const kind = <K extends WatchedKind>(k: K, resource: string, path: (ns: string) => string, extra: Partial<KindApi<K>> = {}) => {
    const api: KindApi<K> = {
      kind: k,
      resource,
      path,
      listPage: async (namespace, o) => {
        const fromCache = (o.anyVersion || extra.listFieldSelector !== undefined) && !o.continueToken;
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
  const workload = <K extends WorkloadKind>(k: K) => kind(k, KIND_FACTS[k].resource, (ns) => collectionPath(k, ns));
  return {
    Deployment: workload('Deployment'),
    ReplicaSet: kind('ReplicaSet', 'replicasets', (ns) => `/apis/apps/v1/namespaces/${ns}/replicasets`),
    Pod: kind('Pod', 'pods', pods, {
      batchedWatch: true,
      read: (namespace, name, signal) => rawGet(kc, `${pods(namespace)}/${encodeURIComponent(name)}`, {}, signal),
    }),
    Event: kind('Event', 'events', (ns) => `/api/v1/namespaces/${ns}/events`, {
      batchedWatch: true,
      listFieldSelector: EVENT_LIST_SELECTOR,
      listPageSize: EVENT_LIST_PAGE,
      listed: (e) => !UNLISTED_EVENT_REASONS.includes(e.reason ?? ''),
    }),
    Node: kind('Node', 'nodes', () => '/api/v1/nodes', { clusterScoped: true, slim: slimNode }),
    StatefulSet: workload('StatefulSet'),
    DaemonSet: workload('DaemonSet'),
    Job: workload('Job'),
    PersistentVolumeClaim: kind(
      'PersistentVolumeClaim',
      'persistentvolumeclaims',
      (ns) => `/api/v1/namespaces/${ns}/persistentvolumeclaims`,
    ),
  };
}

/**
 * Objects per page of the Event list. kube-apiserver 1.20 fills a field-selected page by reading
 * `limit` keys from etcd at a time until the page is full, so a page of 500 in a namespace whose
 * Events are nearly all filtered out costs one etcd round trip per 500 Events: 45,000 Events took
 * 1.6 s with pages of 500, 0.6-0.85 s with 5,000, 0.5-0.6 s with 10,000 (same namespace, runs
 * alternated). 5,000: a page of Warnings (about 1 KB each) is a few MB parsed at once.
 */
export const EVENT_LIST_PAGE = 5000;

/**
 * The Event backlog is listed in ONE request the apiserver filters: every Event but those with a
 * reason left out of lists ({@link UNLISTED_EVENT_REASONS}). Every Warning, `TriggeredScaleUp` (it holds an
 * unschedulable verdict) and the Normal Events of the Deployment, its ReplicaSets and PVCs
 * (ScalingReplicaSet, SuccessfulCreate, SuccessfulDelete are shown) are in it. From the watch on,
 * every Event comes.
 *
 * One field selector, not one per kind of Event wanted: kube-apiserver keeps no watch cache for
 * Events (their watch-cache size is 0), so every field-selected list reads all of the namespace's
 * Events from etcd and filters them on the server. The bench's busy namespace (45,000 Events) took
 * about 3 s per list; three lists (Warnings, non-pod Normal, TriggeredScaleUp) took 9 s. Field
 * selectors AND their terms, so the one list is a superset of the three, narrowed by the keep filter.
 * `resourceVersion=0` (any version, as client-go's informers list) lets an apiserver that does keep
 * an Event watch cache answer from memory; the pages after the first carry only the continue token.
 */
export const EVENT_LIST_SELECTOR = UNLISTED_EVENT_REASONS.map((r) => `reason!=${r}`).join(',');

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
