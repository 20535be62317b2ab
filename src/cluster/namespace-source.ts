/**
 * The shared watch source: ONE list+watch loop per kind per (cluster, credentials, namespace),
 * shared by every tracked Deployment in that namespace and closed when the last one leaves.
 *
 * Why namespace-wide watches (no label selector): every tracker in the namespace shares one watch
 * per kind, so a selector would have to be the union of all selectors and change as trackers come
 * and go (re-opening watches); a label-selected Pod watch turns a relabeled pod into a DELETED
 * event, hiding the "pod orphaned" case the tracker must report; and Events cannot be
 * label-selected at all. Pulumi's awaiter watches the same way (shared namespace informers).
 */
import { createHash } from 'node:crypto';
import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import type { KindToObject, Observation, WatchedKind } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';
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
}

/** Source tunables. */
export interface SourceOptions extends KindWatcherOptions {
  /** First contact must succeed within this many seconds. Default 10. */
  firstContactSeconds?: number;
  /** Give up with `cluster-unreachable` after this long without any successful contact. Default 120. */
  lostContactSeconds?: number;
  /** Clock (ms); injectable for tests. */
  now?: () => number;
  /** Called before each back-off pause of a list or watch (diagnostics and tests). */
  onRetry?: (kind: WatchedKind, what: string, err: unknown, delayMs: number) => void;
}

const BASE_KINDS = ['Deployment', 'ReplicaSet', 'Pod', 'Event'] as const satisfies readonly WatchedKind[];
const ALL_KINDS: readonly WatchedKind[] = [...BASE_KINDS, 'PersistentVolumeClaim'];

/** Watch counters per kind, for tests and diagnostics. */
export interface WatchStats {
  /** Watches opened since start (reconnects included). */
  opened: Record<WatchedKind, number>;
  /** Watches open right now. */
  active: Record<WatchedKind, number>;
  /** Lists done (first lists + re-lists). */
  lists: Record<WatchedKind, number>;
}

interface Entry {
  s: SourceSubscriber;
  synced: boolean;
  /** Observations held until `synced`, delivered as one snapshot in {@link SNAPSHOT_ORDER}. */
  pending: Observation[];
}

/**
 * The initial snapshot is delivered dependents first and the Deployment last, so the core's first
 * look at the Deployment already sees its ReplicaSets and pods (e.g. a re-used ReplicaSet that
 * marks a rollback) whatever order the lists completed in.
 */
const SNAPSHOT_ORDER: Record<WatchedKind, number> = { ReplicaSet: 0, Pod: 1, PersistentVolumeClaim: 2, Event: 3, Deployment: 4 };

type AnyWatcher = { [K in WatchedKind]: KindWatcher<K> }[WatchedKind];

/** A shared list+watch of one namespace. Obtain it with {@link acquireNamespaceSource}. */
export class NamespaceSource {
  private readonly subscribers = new Set<Entry>();
  private readonly watchers = new Map<WatchedKind, AnyWatcher>();
  private started = false;
  private closed = false;
  private ready = false;
  private lastContact: number;
  private contactTimer: NodeJS.Timeout | undefined;
  private readonly startup = new AbortController();
  private readonly now: () => number;

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
    if (!this.started) {
      this.started = true;
      void this.begin();
    } else if (this.ready) {
      for (const watcher of this.watchers.values()) {
        if (watcher.isSynced) for (const obj of watcher.cache.values()) this.deliverTo(sub, 'upsert', watcher.api.kind, obj);
      }
      this.ensurePvcWatch();
      this.maybeSync(sub);
    }
    return () => {
      this.subscribers.delete(sub);
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
    const zero = () => Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>;
    const s: WatchStats = { opened: zero(), active: zero(), lists: zero() };
    for (const [kind, w] of this.watchers) {
      s.opened[kind] = w.opened;
      s.active[kind] = w.active;
      s.lists[kind] = w.lists;
    }
    return s;
  }

  /** True once closed (last subscriber left or a fatal error). */
  get isClosed(): boolean {
    return this.closed;
  }

  private async begin(): Promise<void> {
    try {
      await checkReachable(this.kc, this.namespace, {
        timeoutSeconds: this.options.firstContactSeconds ?? 10,
        signal: this.startup.signal,
      });
    } catch (err) {
      this.fail(err as RolloutTraceError);
      return;
    }
    if (this.closed) return;
    this.ready = true;
    this.lastContact = this.now();
    for (const kind of BASE_KINDS) this.startWatcher(kind);
    const lostMs = (this.options.lostContactSeconds ?? 120) * 1000;
    this.contactTimer = setInterval(
      () => {
        if (this.now() - this.lastContact > lostMs) {
          this.fail(
            new RolloutTraceError(
              'cluster-unreachable',
              `Lost contact with the Kubernetes API server ${this.kc.getCurrentCluster()?.server} (context "${this.kc.getCurrentContext()}"): ` +
                `no list or watch of namespace "${this.namespace}" succeeded for ${lostMs / 1000} s.`,
            ),
          );
        }
      },
      Math.min(5000, lostMs / 4),
    );
    this.contactTimer.unref();
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
          for (const sub of [...this.subscribers]) this.deliverTo(sub, type, kind, object as KindToObject[WatchedKind]);
          if (kind === 'Deployment') this.ensurePvcWatch();
        },
        synced: () => {
          if (kind === 'Deployment') this.ensurePvcWatch();
        },
        watching: () => {
          for (const sub of [...this.subscribers]) this.maybeSync(sub);
        },
        contact: () => {
          this.lastContact = this.now();
        },
        fatal: (err) => this.fail(err),
        retry: (what, err, delayMs) => this.options.onRetry?.(kind, what, err, delayMs),
      },
      this.options,
    ) as AnyWatcher;
    this.watchers.set(kind, watcher);
    watcher.start();
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
    const ready = (w: AnyWatcher | undefined) => !!w && w.isSynced && w.hasWatched;
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

function rank(obs: Observation): number {
  return 'kind' in obs ? SNAPSHOT_ORDER[obs.kind] : 5;
}

const registry = new Map<string, NamespaceSource>();
const totals: Pick<WatchStats, 'opened' | 'lists'> = {
  opened: Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>,
  lists: Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>,
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
    active: Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>,
  };
  for (const source of registry.values()) {
    const st = source.stats();
    for (const k of ALL_KINDS) {
      s.opened[k] += st.opened[k];
      s.lists[k] += st.lists[k];
      s.active[k] += st.active[k];
    }
  }
  return s;
}

/** Sources open right now (for tests: 0 after every tracker finished). */
export function openSourceCount(): number {
  return registry.size;
}

function sourceKey(kc: KubeConfig, namespace: string): string {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  return createHash('sha256')
    .update(JSON.stringify([cluster?.server, cluster?.caData, cluster?.caFile, cluster?.skipTLSVerify, user, namespace]))
    .digest('hex')
    .slice(0, 24);
}
