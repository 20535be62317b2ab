/**
 * The shared watch source: ONE list+watch loop per kind per (cluster, credentials, namespace),
 * shared by every traced workload in that namespace and closed when the last one leaves.
 *
 * What is traced bounds the cost (docs/performance.md "Watch what is traced"): only the kinds a
 * traced workload needs are watched (its own kind; ReplicaSets only for a Deployment; Pods;
 * Events; PVCs once one mounts claims; Nodes, optional); the Pod and ReplicaSet watches are
 * label-selected by the traced workloads' selectors ({@link ScopedWatches}; they start after the
 * traced kinds are listed and widen with a re-list when a newly traced or re-created workload is
 * not covered); Events stay namespace-wide (they cannot be label-selected) but are listed page by
 * page; every watcher caches only objects some subscriber may need (`keep`), and objects are
 * routed by workload name ({@link SubscriberIndex}). A subscriber that joins a running source gets
 * a re-list of the kinds whose objects were not kept.
 */
import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import type { KindToObject, ObjectObservation, WatchedKind, WorkloadKind } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';
import { nodesRefusedWarning } from './api-errors.js';
import { BacklogSync } from './backlog-sync.js';
import { ContactMonitor } from './contact.js';
import { KindWatcher } from './kind-watcher.js';
import { kindApis } from './kinds.js';
import { NodeReadinessFilter } from './node-readiness-filter.js';
import { deliverSnapshot, deliverTo, SubscriberIndex, type Subscription } from './routing.js';
import { ScopedWatches } from './scoped-watches.js';
import { type WatcherHost, watcherHandlers } from './source-handlers.js';
import { isWorkloadKind, kindOfSub, SCOPED_KINDS } from './source-kinds.js';
import { type AnyWatcher, SourceWatchers } from './source-watchers.js';
import type { SourceOptions, SourceSubscriber } from './subscriber.js';
import { UnansweredMonitor } from './unanswered-monitor.js';
import type { WatchStats } from './watch-stats.js';

/** A shared list+watch of one namespace. Obtain it with {@link acquireNamespaceSource}. */
export class NamespaceSource implements WatcherHost {
  readonly subs = new SubscriberIndex();
  private readonly scoped: ScopedWatches;
  private readonly watchers = new SourceWatchers();
  private readonly nodes = new NodeReadinessFilter();
  /** The Event backlog's replay while the Event list is under way. */
  private readonly backlog: BacklogSync;
  private started = false;
  private closed = false;
  /** The first contact succeeded. */
  private ready = false;
  /** A watch's fatal error that came before the first contact's answer (told after it, if it succeeds). */
  private deferredFatal: RolloutTraceError | undefined;
  private readonly contact: ContactMonitor;
  /** Re-sends requests and re-opens watches an outage cut (unanswered-monitor.ts). */
  private readonly unanswered: UnansweredMonitor;
  private readonly now: () => number;
  private warning: string | undefined;

  constructor(
    readonly kc: KubeConfig,
    readonly namespace: string,
    private readonly options: SourceOptions = {},
    /** Called once when the source closes, with its final counters. */
    private readonly onClose?: (stats: WatchStats) => void,
  ) {
    this.now = options.now ?? Date.now;
    this.scoped = new ScopedWatches(this.subs, this.watchers, (kind, labelSelector) => this.startWatcher(kind, labelSelector));
    this.contact = new ContactMonitor(kc, namespace, options, this.now, (message) => {
      for (const sub of [...this.subs.all]) sub.s.onWaiting?.(message);
    });
    const firstLists = {
      unlisted: () => this.watchers.unlisted(this.subs.all),
      say: (message: string) => {
        for (const sub of [...this.subs.all]) sub.s.onWaiting?.(message);
      },
    };
    // A watch cut by the outage is silent: re-opened from its resourceVersion.
    const recovered = (since: number) => {
      this.watchers.resumeSilentSince(since);
      this.backlog.resume();
    };
    this.unanswered = new UnansweredMonitor(kc, namespace, recovered, firstLists);
    this.backlog = new BacklogSync({
      kc,
      namespace,
      subs: this.subs,
      route: (type, e) => this.route('Event', type, e),
      now: () => this.now(),
      resync: () => this.resync(),
      selector: () => this.podSelector,
    });
  }

  /**
   * Adds a subscriber. It first receives every object already known (as upserts), then live
   * changes, then `synced` once every kind it needs has been listed. Returns the unsubscribe
   * function; the source closes when its last subscriber leaves.
   */
  subscribe(subscriber: SourceSubscriber): () => void {
    if (this.closed) throw new Error('NamespaceSource is closed');
    const sub: Subscription = { s: subscriber, synced: false, pending: [] };
    this.subs.add(sub);
    if (!this.started) {
      this.started = true;
      void this.begin();
    } else {
      if (this.ready && this.contact.notice !== undefined) subscriber.onWaiting?.(this.contact.notice);
      // A running source, whether or not its first contact answered yet: the lists may already have
      // passed this workload's objects (not kept before it was traced), so it gets them again.
      this.startWorkloadWatchers();
      this.scoped.widen();
      this.watchers.join(sub, (kind, obj) => this.deliver(sub, 'upsert', kind, obj));
      this.scoped.ensurePvcWatch();
      this.maybeSync(sub);
    }
    if (this.warning !== undefined) subscriber.onWarning?.(this.warning);
    return () => {
      this.subs.remove(sub);
      if (this.subs.all.size === 0) this.close();
    };
  }

  /** The Pod and ReplicaSet watches' label selector (undefined: namespace-wide, or not started yet). */
  get podSelector(): string | undefined {
    return this.scoped.podSelector;
  }

  /** Watch counters per kind (the Event replay's watches among those opened). */
  stats(): WatchStats {
    return this.watchers.stats(this.backlog.opened);
  }

  /** Deployments currently in the namespace (from the shared cache; empty before the first list). */
  deployments(): V1Deployment[] {
    return this.watchers.deployments();
  }

  /**
   * The last failure of a first contact still being retried (undefined once the apiserver
   * answered): a tracker whose timeout passes meanwhile reports it as `cluster-unreachable`.
   */
  get firstContactFailure(): unknown {
    return this.started ? this.contact.firstFailure : undefined;
  }

  /** True once closed (last subscriber left or a fatal error). */
  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * The first contact and the first lists go out together (the lists do not wait a round trip for
   * the namespace check), but nothing is synced and no watch's fatal error is told before the first
   * contact succeeded: a missing namespace, an unreachable apiserver or refused credentials are
   * told as the first contact finds them.
   */
  private async begin(): Promise<void> {
    const first = this.contact.first();
    this.startWatchers();
    try {
      await first;
    } catch (err) {
      this.fail(err as RolloutTraceError);
      return;
    }
    if (this.closed) return;
    this.ready = true;
    const deferred = this.deferredFatal;
    this.deferredFatal = undefined;
    if (deferred) return this.fail(deferred);
    // Lists sent while the apiserver did not answer may hang, or wait out a long back-off.
    if (this.contact.firstRetried) this.watchers.listAgainNow();
    this.unanswered.start();
    this.resync();
  }

  /** The watches every trace starts with. */
  private startWatchers(): void {
    // Pods (and ReplicaSets) start once the traced kinds' lists tell the traced selectors.
    this.startWorkloadWatchers();
    this.startWatcher('Event');
    // Nodes diagnose pods on a NotReady node; optional (not waited for; RBAC may refuse them).
    this.startWatcher('Node');
  }

  /**
   * Starts the watch of each kind some subscriber traces, and of no other (the PVC watch starts
   * once a traced one uses claims: {@link ScopedWatches.ensurePvcWatch}).
   */
  private startWorkloadWatchers(): void {
    for (const sub of this.subs.all) this.startWatcher(kindOfSub(sub));
  }

  /** Names of the objects of `kind` in the namespace (from the shared cache; empty before the first list). */
  namesOf(kind: WorkloadKind): string[] {
    return this.watchers.namesOf(kind);
  }

  /** RBAC refuses Nodes: keep tracing without the node-not-ready diagnosis, and say so once. */
  nodesRefused(err: RolloutTraceError): void {
    this.warning = nodesRefusedWarning(this.kc, err);
    for (const sub of [...this.subs.all]) sub.s.onWarning?.(this.warning);
  }

  private startWatcher(kind: WatchedKind, labelSelector?: string): void {
    if (this.watchers.has(kind) || this.closed) return;
    const api = kindApis(this.kc)[kind];
    const firstListFromCache = (SCOPED_KINDS as readonly WatchedKind[]).includes(kind);
    const options = { ...this.options, ...(labelSelector !== undefined ? { labelSelector } : {}), firstListFromCache };
    const watcher = new KindWatcher(this.kc, this.namespace, api as never, watcherHandlers(kind, this), options) as AnyWatcher;
    this.watchers.add(watcher);
    watcher.start();
  }

  /** A watched object changed: routed to the subscribers; a traced workload may widen the scope or need claims. */
  changed(kind: WatchedKind, type: 'upsert' | 'delete', object: KindToObject[WatchedKind]): void {
    if (kind === 'Node' && !this.nodes.changed(type, object as KindToObject['Node'])) return;
    if (kind === 'Event' && type === 'upsert' && this.backlog.delivered(object as KindToObject['Event'])) return;
    this.route(kind, type, object);
    if (type !== 'upsert' || !isWorkloadKind(kind) || !this.subs.traces(object.metadata?.name)) return;
    // Only this workload can be new to the scope (all of them on each update: O(n^2) for many200).
    const workload = object as KindToObject[WorkloadKind];
    this.scoped.ensurePvcWatch([workload]);
    this.scoped.widen([workload]);
    // Its subscribers may sync with replayed Events now.
    for (const sub of this.subs.interested('upsert', kind, workload)) this.maybeSync(sub);
  }

  /**
   * A traced kind's list is in: then the claims and the scoped watches, and the Event replay starts
   * from it (from the first traced kind listed).
   */
  workloadsSynced(kind: WorkloadKind): void {
    this.backlog.start(
      this.watchers.get(kind)?.firstListVersion,
      {
        revisions: this.options.replayRevisions,
        named: this.options.namedEventList,
        replicaSets: [...this.subs.all].some((sub) => kindOfSub(sub) === 'Deployment'),
      },
      !!this.watchers.get('Event')?.isSynced,
    );
    this.scoped.ensurePvcWatch();
    this.scoped.widen();
  }

  /**
   * Re-opens every watch but `kind`'s, whose watch was found silent: a connection that died silently
   * seldom died alone. Left to their own timeouts, the others could stay cut for up to
   * `inactivitySeconds` more: a reconnected Pod watch would report pods Ready while the Event watch
   * still misses the liveness failures that hold success.
   */
  resumeAllBut(kind: WatchedKind): void {
    this.watchers.resumeAllBut(kind);
    this.backlog.resume();
  }

  /** The Event list is in: the backlog's replay stops. */
  eventsListed(): void {
    this.backlog.listed();
  }

  /** The apiserver answered. */
  heard(): void {
    this.contact.heard();
  }

  /** A list or watch is retried. */
  retried(kind: WatchedKind, what: string, err: unknown, delayMs: number): void {
    this.options.onRetry?.(kind, what, err, delayMs);
    this.contact.retried(what, err);
  }

  /** Delivers a change to every subscriber it may concern. */
  private route(kind: WatchedKind, type: 'upsert' | 'delete', object: KindToObject[WatchedKind]): void {
    for (const sub of this.subs.interested(type, kind, object)) this.deliver(sub, type, kind, object);
  }

  private deliver(sub: Subscription, type: 'upsert' | 'delete', kind: WatchedKind, object: KindToObject[WatchedKind]): void {
    deliverTo(sub, { type, kind, object, at: this.now() } as ObjectObservation);
  }

  /** Delivers each waiting subscriber's snapshot and `synced` once it can sync (SourceWatchers.syncFor). */
  resync(): void {
    for (const sub of [...this.subs.all]) this.maybeSync(sub);
  }

  private maybeSync(sub: Subscription): void {
    if (sub.synced || this.closed || !this.ready) return;
    const how = this.watchers.syncFor(sub);
    const subscribed = () => !this.closed && this.subs.all.has(sub);
    // Its own Events listed by name are as good as the Event list for it.
    const named = how === 'replayable' && this.backlog.namedCovers(sub.s.workloadName);
    if (how === 'listed' || named) return deliverSnapshot(sub, this.now(), subscribed);
    if (how !== 'replayable' || !this.backlog.caughtUp) return;
    sub.replayed = true;
    deliverSnapshot(sub, this.now(), subscribed, { type: 'event-backlog', events: 'replayed', at: this.now() });
  }

  /** A watch cannot go on: the trace fails (after the first contact, whose own failure comes first). */
  watchFailed(err: RolloutTraceError): void {
    if (this.ready) this.fail(err);
    else this.deferredFatal ??= err;
  }

  private fail(err: RolloutTraceError): void {
    if (this.closed) return;
    const subs = [...this.subs.all];
    this.close();
    for (const sub of subs) sub.s.onError(err);
  }

  /** Stops every watch; called when the last subscriber leaves or on a fatal error. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.subs.clear();
    this.contact.stop();
    this.unanswered.stop();
    this.watchers.stopAll();
    this.backlog.stop();
    this.onClose?.(this.stats());
  }
}
