/**
 * The shared watch source: ONE list+watch loop per kind per (cluster, credentials, namespace),
 * shared by every tracked Deployment in that namespace and closed when the last one leaves.
 *
 * Why namespace-wide watches (no label selector): every tracker in the namespace shares one watch
 * per kind, so a selector would have to be the union of all selectors and change as trackers come
 * and go (re-opening watches); a label-selected Pod watch turns a relabeled pod into a DELETED
 * event, hiding the "pod orphaned" case the tracker must report; and Events cannot be
 * label-selected at all. Pulumi's awaiter watches the same way (shared namespace informers).
 *
 * What is traced still bounds the cost: the watchers cache only objects some subscriber may need
 * (`keep`), and an object is routed to the subscribers its name can belong to (an index by
 * Deployment name), so memory and per-event CPU follow the traced Deployments, not the namespace.
 * A subscriber that joins a running source gets a re-list of the kinds whose objects were not kept.
 */
import { createHash } from 'node:crypto';
import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import type { KindToObject, Observation, WatchedKind } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';
import { retryReason, statusOf } from './api-errors.js';
import { KindWatcher, type KindWatcherOptions } from './kind-watcher.js';
import { kindApis } from './kinds.js';
import { checkReachable } from './reachability.js';
import { mayConcern } from './relevance.js';

/** Receives one tracked Deployment's observations. */
export interface SourceSubscriber {
  /** Name of the tracked Deployment: Deployment observations of other names are not delivered. */
  readonly deploymentName: string;
  /**
   * An observation: object upserts/deletes, and `synced` once every kind it needs was listed and
   * its watch accepted (so a permission problem surfaces before `synced`, never after).
   */
  onObservation(obs: Observation): void;
  /** The source failed for good (forbidden, unreachable, namespace missing); it is closed. */
  onError(err: RolloutTraceError): void;
  /**
   * The apiserver cannot be used right now (down, frozen, overloaded) and is being retried:
   * `message` says why, e.g. `waiting for the API server https://...: HTTP 503: ...; retrying until the timeout`.
   */
  onWaiting?(message: string): void;
  /** Something degrades the diagnosis without stopping the trace (e.g. RBAC refuses to list Nodes); said once. */
  onWarning?(message: string): void;
}

/** Source tunables. */
export interface SourceOptions extends KindWatcherOptions {
  /** First contact must succeed within this many seconds. Default: no bound (each tracker's timeout ends the wait). */
  firstContactSeconds?: number;
  /** Say `waiting for the API server` after this long without any successful list or watch. Default 45. */
  lostContactSeconds?: number;
  /** Longest wait for one first-contact answer (ms) before retrying. Default 4000. */
  attemptMs?: number;
  /** Clock (ms); injectable for tests. */
  now?: () => number;
  /** Called before each back-off pause of a list or watch (diagnostics and tests). */
  onRetry?: (kind: WatchedKind, what: string, err: unknown, delayMs: number) => void;
}

/** A list or watch that keeps failing for this long (ms) since the last answer is announced. */
const RETRY_NOTICE_MS = 5000;

const BASE_KINDS = ['Deployment', 'ReplicaSet', 'Pod', 'Event'] as const satisfies readonly WatchedKind[];
const ALL_KINDS: readonly WatchedKind[] = [...BASE_KINDS, 'PersistentVolumeClaim', 'Node'];

/** Watch counters per kind, for tests and diagnostics. */
export interface WatchStats {
  /** Watches opened since start (reconnects included). */
  opened: Record<WatchedKind, number>;
  /** Watches open right now. */
  active: Record<WatchedKind, number>;
  /** Lists done (first lists + re-lists). */
  lists: Record<WatchedKind, number>;
  /** Objects cached right now (only what some tracked Deployment may need; all Deployments). */
  cached: Record<WatchedKind, number>;
}

interface Entry {
  s: SourceSubscriber;
  synced: boolean;
  /** Per kind, the list count to wait for before `synced` (a re-list for a late subscriber). */
  lists?: Partial<Record<WatchedKind, number>>;
  /** Observations held until `synced`, delivered as one snapshot in {@link SNAPSHOT_ORDER}. */
  pending: Observation[];
}

/**
 * The initial snapshot is delivered dependents first and the Deployment last, so the core's first
 * look at the Deployment already sees its ReplicaSets and pods (e.g. a re-used ReplicaSet that
 * marks a rollback) whatever order the lists completed in.
 */
const SNAPSHOT_ORDER: Record<WatchedKind, number> = { Node: 0, ReplicaSet: 0, Pod: 1, PersistentVolumeClaim: 2, Event: 3, Deployment: 4 };

type AnyWatcher = { [K in WatchedKind]: KindWatcher<K> }[WatchedKind];

/** A shared list+watch of one namespace. Obtain it with {@link acquireNamespaceSource}. */
export class NamespaceSource {
  private readonly subscribers = new Set<Entry>();
  /** Subscribers by Deployment name. */
  private readonly byName = new Map<string, Set<Entry>>();
  private readonly watchers = new Map<WatchedKind, AnyWatcher>();
  private started = false;
  private closed = false;
  private ready = false;
  private lastContact: number;
  private contactTimer: NodeJS.Timeout | undefined;
  private readonly startup = new AbortController();
  private readonly now: () => number;
  private contactError: unknown;
  private notice: string | undefined;
  private warning: string | undefined;

  constructor(
    readonly kc: KubeConfig,
    readonly namespace: string,
    private readonly key: string,
    private readonly options: SourceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.lastContact = this.now();
  }

  /**
   * Adds a subscriber. It first receives every object already known (as upserts), then live
   * changes, then `synced` once every kind it needs has been listed. Returns the unsubscribe
   * function; the source closes when its last subscriber leaves.
   */
  subscribe(subscriber: SourceSubscriber): () => void {
    if (this.closed) throw new Error('NamespaceSource is closed');
    const sub: Entry = { s: subscriber, synced: false, pending: [] };
    this.subscribers.add(sub);
    const named = this.byName.get(subscriber.deploymentName) ?? new Set();
    named.add(sub);
    this.byName.set(subscriber.deploymentName, named);
    if (!this.started) {
      this.started = true;
      void this.begin();
    } else if (this.notice !== undefined) subscriber.onWaiting?.(this.notice);
    if (this.warning !== undefined) subscriber.onWarning?.(this.warning);
    if (this.ready) {
      for (const watcher of this.watchers.values()) {
        if (watcher.isSynced) for (const obj of watcher.cache.values()) this.deliverTo(sub, 'upsert', watcher.api.kind, obj);
        // Its objects were not kept: list again (they are delivered as upserts) before `synced`.
        if (watcher.api.kind !== 'Deployment' && watcher.api.kind !== 'PersistentVolumeClaim') {
          sub.lists = { ...sub.lists, [watcher.api.kind]: watcher.lists + 1 };
          watcher.relist();
        }
      }
      this.ensurePvcWatch();
      this.maybeSync(sub);
    }
    return () => {
      this.subscribers.delete(sub);
      named.delete(sub);
      if (named.size === 0 && this.byName.get(subscriber.deploymentName) === named) this.byName.delete(subscriber.deploymentName);
      if (this.subscribers.size === 0) this.close();
    };
  }

  /** Deployments currently in the namespace (from the shared cache; empty before the first list). */
  deployments(): V1Deployment[] {
    const w = this.watchers.get('Deployment') as KindWatcher<'Deployment'> | undefined;
    return w ? [...w.cache.values()] : [];
  }

  /** True when the Deployment list completed (so `deployments()` is authoritative). */
  deploymentsListed(): boolean {
    return this.watchers.get('Deployment')?.isSynced ?? false;
  }

  /** Watch counters per kind. */
  stats(): WatchStats {
    const s: WatchStats = { opened: zeroPerKind(), active: zeroPerKind(), lists: zeroPerKind(), cached: zeroPerKind() };
    for (const [kind, w] of this.watchers) {
      s.opened[kind] = w.opened;
      s.active[kind] = w.active;
      s.lists[kind] = w.lists;
      s.cached[kind] = w.cache.size;
    }
    return s;
  }

  /**
   * The last failure of a first contact still being retried (undefined once the apiserver
   * answered): a tracker whose timeout passes meanwhile reports it as `cluster-unreachable`.
   */
  get firstContactFailure(): unknown {
    if (this.ready || !this.started) return undefined;
    return this.contactError ?? new DOMException('no answer yet', 'TimeoutError');
  }

  /** True once closed (last subscriber left or a fatal error). */
  get isClosed(): boolean {
    return this.closed;
  }

  private get server(): string {
    return this.kc.getCurrentCluster()?.server ?? '(no server)';
  }

  private async begin(): Promise<void> {
    const server = this.server;
    try {
      await checkReachable(this.kc, this.namespace, {
        ...(this.options.firstContactSeconds !== undefined ? { timeoutSeconds: this.options.firstContactSeconds } : {}),
        ...(this.options.attemptMs !== undefined ? { attemptMs: this.options.attemptMs } : {}),
        signal: this.startup.signal,
        onFailure: (err) => {
          this.contactError = err ?? new Error('no answer');
        },
        onWaiting: (reason) => this.tell(`waiting for the API server ${server}: ${reason}; retrying until the timeout`),
      });
    } catch (err) {
      this.fail(err as RolloutTraceError);
      return;
    }
    if (this.closed) return;
    this.ready = true;
    this.notice = undefined;
    this.lastContact = this.now();
    for (const kind of BASE_KINDS) this.startWatcher(kind);
    // Nodes (read-only, cluster-scoped) diagnose pods stuck on a NotReady node; optional: the
    // trace does not wait for them, and RBAC refusing them only costs that diagnosis.
    this.startWatcher('Node');
    const lostMs = (this.options.lostContactSeconds ?? 45) * 1000;
    // A watch that only fails (or hangs on a frozen apiserver) is retried for ever; after a while
    // without any answer, say so once per outage. Each tracker's timeout still ends the wait.
    this.contactTimer = setInterval(
      () => {
        const silentMs = this.now() - this.lastContact;
        if (silentMs > lostMs && this.notice === undefined) {
          this.tell(
            `waiting for the API server ${server}: no list or watch of namespace "${this.namespace}" answered for ${Math.round(silentMs / 1000)} s; retrying until the timeout`,
          );
        }
      },
      Math.min(5000, lostMs / 4),
    );
    this.contactTimer.unref();
  }

  /** RBAC refuses Nodes: keep tracing without the node-not-ready diagnosis, and say so once. */
  private nodesRefused(err: RolloutTraceError): void {
    const user = this.kc.getCurrentUser()?.name ?? '(none)';
    const status = statusOf(err.cause) ?? 403;
    this.warning =
      `user "${user}" may not list and watch nodes (HTTP ${status}), so pods on a NotReady node are not diagnosed ` +
      '(they just wait for the timeout); grant it with a ClusterRole rule {apiGroups: [""], resources: ["nodes"], verbs: ["list", "watch"]}';
    for (const sub of [...this.subscribers]) sub.s.onWarning?.(this.warning);
  }

  /** Tells every subscriber why the apiserver is being waited for (once per notice). */
  private tell(message: string): void {
    this.notice = message;
    for (const sub of [...this.subscribers]) sub.s.onWaiting?.(message);
  }

  private startWatcher(kind: WatchedKind): void {
    if (this.watchers.has(kind) || this.closed) return;
    const api = kindApis(this.kc)[kind];
    const watcher = new KindWatcher(
      this.kc,
      this.namespace,
      api as never,
      {
        change: (type, object) => {
          for (const sub of this.interested(type, kind, object as KindToObject[WatchedKind])) {
            this.deliverTo(sub, type, kind, object as KindToObject[WatchedKind]);
          }
          if (kind === 'Deployment') this.ensurePvcWatch();
        },
        synced: () => {
          if (kind === 'Deployment') this.ensurePvcWatch();
        },
        listed: () => {
          for (const sub of [...this.subscribers]) this.maybeSync(sub);
        },
        keep: (object) =>
          kind === 'Deployment' || kind === 'PersistentVolumeClaim' || this.interested('upsert', kind, object as never).length > 0,
        watching: () => {
          for (const sub of [...this.subscribers]) this.maybeSync(sub);
        },
        contact: () => {
          this.lastContact = this.now();
          if (this.ready) this.notice = undefined;
        },
        fatal: (err) => (kind === 'Node' ? this.nodesRefused(err) : this.fail(err)),
        retry: (what, err, delayMs) => {
          this.options.onRetry?.(kind, what, err, delayMs);
          if (this.notice === undefined && this.now() - this.lastContact > RETRY_NOTICE_MS) {
            this.tell(`waiting for the API server ${this.server}: ${what}: ${retryReason(err, 0)}; retrying until the timeout`);
          }
        },
      },
      this.options,
    ) as AnyWatcher;
    this.watchers.set(kind, watcher);
    watcher.start();
  }

  /** The subscribers `object` may concern, found by the Deployment names its name can carry. */
  private interested(type: 'upsert' | 'delete', kind: WatchedKind, object: KindToObject[WatchedKind]): Entry[] {
    const names = deploymentNamesOf(kind, object);
    const candidates = names === 'any' ? [...this.subscribers] : names.flatMap((n) => [...(this.byName.get(n) ?? [])]);
    return candidates.filter((sub) => mayConcern(sub.s.deploymentName, type, kind, object));
  }

  private deliverTo(sub: Entry, type: 'upsert' | 'delete', kind: WatchedKind, object: KindToObject[WatchedKind]): void {
    if (!mayConcern(sub.s.deploymentName, type, kind, object)) return;
    const obs = { type, kind, object, at: this.now() } as Observation;
    if (sub.synced) sub.s.onObservation(obs);
    else sub.pending.push(obs);
  }

  /** Starts the PVC watch once some subscriber's Deployment template mounts a claim. */
  private ensurePvcWatch(): void {
    if (this.watchers.has('PersistentVolumeClaim')) return;
    const needed = this.deployments().some(
      (d) =>
        [...this.subscribers].some((e) => e.s.deploymentName === d.metadata?.name) &&
        (d.spec?.template?.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName),
    );
    if (needed) this.startWatcher('PersistentVolumeClaim');
  }

  private maybeSync(sub: Entry): void {
    if (sub.synced || this.closed) return;
    const ready = (w: AnyWatcher | undefined) => !!w && w.isSynced && w.hasWatched && w.lists >= (sub.lists?.[w.api.kind] ?? 0);
    if (!BASE_KINDS.every((k) => ready(this.watchers.get(k)))) return;
    const pvc = this.watchers.get('PersistentVolumeClaim');
    if (pvc && !ready(pvc)) return;
    sub.synced = true;
    const at = this.now();
    const snapshot = sub.pending
      .map((obs, i) => ({ obs, i }))
      .sort((a, b) => rank(a.obs) - rank(b.obs) || a.i - b.i)
      .map(({ obs }) => ({ ...obs, at }) as Observation);
    sub.pending = [];
    for (const obs of snapshot) {
      if (this.closed || !this.subscribers.has(sub)) return;
      sub.s.onObservation(obs);
    }
    if (!this.closed && this.subscribers.has(sub)) sub.s.onObservation({ type: 'synced', at });
  }

  private fail(err: RolloutTraceError): void {
    if (this.closed) return;
    const subs = [...this.subscribers];
    this.close();
    for (const sub of subs) sub.s.onError(err);
  }

  /** Stops every watch; called when the last subscriber leaves or on a fatal error. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscribers.clear();
    this.startup.abort();
    if (this.contactTimer) clearInterval(this.contactTimer);
    for (const w of this.watchers.values()) w.stop();
    if (registry.get(this.key) === this) registry.delete(this.key);
    for (const [kind, w] of this.watchers) {
      totals.opened[kind] += w.opened;
      totals.lists[kind] += w.lists;
    }
  }
}

/**
 * The Deployment names an object's name can belong to (`web`, `web-<hash>`, `web-<hash>-<id>`), or
 * `any` when it can concern every Deployment (PVCs, pods and ReplicaSets without a controller).
 */
function deploymentNamesOf(kind: WatchedKind, object: KindToObject[WatchedKind]): string[] | 'any' {
  const owners = object.metadata?.ownerReferences ?? [];
  switch (kind) {
    case 'Deployment':
      return [object.metadata?.name ?? ''];
    case 'PersistentVolumeClaim':
    case 'Node':
      return 'any';
    case 'Event': {
      const involved = (object as KindToObject['Event']).involvedObject;
      return involved?.kind === 'PersistentVolumeClaim' ? 'any' : prefixesOf(involved?.name ?? '');
    }
    case 'ReplicaSet': {
      const owner = owners.find((r) => r.kind === 'Deployment')?.name;
      return owner === undefined ? 'any' : [owner, ...prefixesOf(object.metadata?.name ?? '')];
    }
    case 'Pod': {
      const rs = owners.find((r) => r.kind === 'ReplicaSet')?.name;
      return rs === undefined ? 'any' : prefixesOf(rs);
    }
  }
}

/** `a-b-c` → `a-b-c`, `a-b`, `a`. */
function prefixesOf(name: string): string[] {
  const out = [name];
  for (let i = name.lastIndexOf('-'); i > 0; i = name.lastIndexOf('-', i - 1)) out.push(name.slice(0, i));
  return out;
}

function rank(obs: Observation): number {
  return 'kind' in obs ? SNAPSHOT_ORDER[obs.kind] : 5;
}

const registry = new Map<string, NamespaceSource>();
const totals: Pick<WatchStats, 'opened' | 'lists'> = {
  opened: zeroPerKind(),
  lists: zeroPerKind(),
};

/**
 * The shared source for `namespace` of the cluster and credentials in `kc` (same server, same
 * user credentials → same source), created on first use.
 */
export function acquireNamespaceSource(kc: KubeConfig, namespace: string, options?: SourceOptions): NamespaceSource {
  const key = sourceKey(kc, namespace);
  let source = registry.get(key);
  if (!source || source.isClosed) {
    source = new NamespaceSource(kc, namespace, key, options);
    registry.set(key, source);
  }
  return source;
}

/**
 * Watch counters of this process: per kind, watches opened and lists done by every source ever
 * (closed ones included), and watches open right now.
 */
export function watchStats(): WatchStats {
  const s: WatchStats = {
    opened: { ...totals.opened },
    lists: { ...totals.lists },
    active: zeroPerKind(),
    cached: zeroPerKind(),
  };
  for (const source of registry.values()) {
    const st = source.stats();
    for (const k of ALL_KINDS) {
      s.opened[k] += st.opened[k];
      s.lists[k] += st.lists[k];
      s.active[k] += st.active[k];
      s.cached[k] += st.cached[k];
    }
  }
  return s;
}

/** Sources open right now (for tests: 0 after every tracker finished). */
export function openSourceCount(): number {
  return registry.size;
}

function zeroPerKind(): Record<WatchedKind, number> {
  return Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>;
}

function sourceKey(kc: KubeConfig, namespace: string): string {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  return createHash('sha256')
    .update(JSON.stringify([cluster?.server, cluster?.caData, cluster?.caFile, cluster?.skipTLSVerify, user, namespace]))
    .digest('hex')
    .slice(0, 24);
}
