/**
 * A namespace source's watchers, one per kind, and what is read across them: the cached
 * workloads, whether a kind is ready for a subscriber, the counters; and what is done to all of
 * them at once.
 */
import type { V1Deployment } from '@kubernetes/client-node';
import { type KindToObject, type WatchedKind, WORKLOAD_KINDS, type WorkloadKind } from '../core/index.js';
import type { KindWatcher } from './kind-watcher.js';
import type { Subscription } from './routing.js';
import { FULLY_KEPT, kindOfSub, listedBeforeSync } from './source-kinds.js';
import { statsOf, type WatchStats } from './watch-stats.js';

/** A watcher of any kind. */
export type AnyWatcher = { [K in WatchedKind]: KindWatcher<K> }[WatchedKind];

/** The watchers of one namespace source, by kind. */
export class SourceWatchers {
  private readonly byKind = new Map<WatchedKind, AnyWatcher>();

  get(kind: WatchedKind): AnyWatcher | undefined {
    return this.byKind.get(kind);
  }

  has(kind: WatchedKind): boolean {
    return this.byKind.has(kind);
  }

  add(watcher: AnyWatcher): void {
    this.byKind.set(watcher.api.kind, watcher);
  }

  all(): IterableIterator<AnyWatcher> {
    return this.byKind.values();
  }

  /**
   * True once `kind`'s watcher listed and its watch was accepted, with at least `lists` lists
   * done (a subscriber that joined waits for the re-list it asked for).
   */
  ready(kind: WatchedKind, lists = 0): boolean {
    const w = this.byKind.get(kind);
    return !!w && w.isSynced && w.hasWatched && w.lists >= lists;
  }

  /**
   * How `sub` can sync now: `listed` once every kind it needs is listed and watched, the Events
   * included; `replayable` once all but the Events are and replayed Events may stand in for their
   * list (no claims, no re-list awaited, its workload there: backlog-replay.ts); else undefined.
   */
  syncFor(sub: Subscription): 'listed' | 'replayable' | undefined {
    const ready = (k: WatchedKind) => this.ready(k, sub.lists?.[k] ?? 0);
    const pvc = this.has('PersistentVolumeClaim');
    const kind = kindOfSub(sub);
    if (!listedBeforeSync(kind).every(ready) || (pvc && !ready('PersistentVolumeClaim'))) return undefined;
    if (ready('Event')) return 'listed';
    return pvc || sub.lists || !this.workload(kind, sub.s.workloadName) ? undefined : 'replayable';
  }

  /** Deployments currently in the namespace (empty before the first list). */
  deployments(): V1Deployment[] {
    const w = this.byKind.get('Deployment') as KindWatcher<'Deployment'> | undefined;
    return w ? [...w.cache.values()] : [];
  }

  /** Every cached workload: the Deployments, and the StatefulSets, DaemonSets and Jobs of a traced kind. */
  workloads(): Array<KindToObject[WorkloadKind]> {
    const others = WORKLOAD_KINDS.filter((k) => k !== 'Deployment').flatMap((k) => [...(this.byKind.get(k)?.cache.values() ?? [])]);
    return [...this.deployments(), ...(others as Array<KindToObject[WorkloadKind]>)];
  }

  /** The cached workload of `kind` named `name`, if any. */
  workload<K extends WorkloadKind>(kind: K, name: string): KindToObject[K] | undefined {
    const w = this.byKind.get(kind) as KindWatcher<K> | undefined;
    if (!w) return undefined;
    for (const o of w.cache.values()) if (o.metadata?.name === name) return o;
    return undefined;
  }

  /** Names of the cached objects of `kind`. */
  namesOf(kind: WorkloadKind): string[] {
    if (kind === 'Deployment') return this.deployments().map((d) => d.metadata?.name ?? '');
    const w = this.byKind.get(kind);
    return w ? [...w.cache.values()].map((o) => o.metadata?.name ?? '') : [];
  }

  /**
   * A subscriber joins the running source: every listed object is handed to `deliver`, and each
   * kind whose objects were not all kept lists again (they come as upserts) before the subscriber
   * syncs; a list already under way may have passed them, so it waits for the next one to start.
   */
  join(sub: Subscription, deliver: (kind: WatchedKind, object: KindToObject[WatchedKind]) => void): void {
    for (const watcher of this.byKind.values()) {
      if (watcher.isSynced) for (const obj of watcher.cache.values()) deliver(watcher.api.kind, obj);
      if (FULLY_KEPT.has(watcher.api.kind)) continue;
      sub.lists = { ...sub.lists, [watcher.api.kind]: watcher.listsStarted + 1 };
      watcher.relist();
    }
  }

  /** Re-opens every watch but `kind`'s from its resourceVersion (see NamespaceSource's `silent` handler). */
  resumeAllBut(kind: WatchedKind): void {
    for (const [k, w] of this.byKind) if (k !== kind) w.resume();
  }

  /** The resources of the kinds a subscriber cannot sync without whose first list is still to come (Events and Nodes aside). */
  unlisted(subs: Iterable<Subscription>): string[] {
    const kinds = new Set([...subs].flatMap((sub) => listedBeforeSync(kindOfSub(sub))));
    return [...this.byKind.values()].filter((w) => kinds.has(w.api.kind) && !w.isSynced).map((w) => w.api.resource);
  }

  /** Re-opens every watch that heard nothing since `since` (epoch ms) from its resourceVersion. */
  resumeSilentSince(since: number): void {
    for (const w of this.byKind.values()) w.resumeIfSilentSince(since);
  }

  /** Counters per kind; `alsoOpened`: watches opened beside these (the Event replay's), per kind. */
  stats(alsoOpened: Partial<Record<WatchedKind, number>> = {}): WatchStats {
    const stats = statsOf(this.byKind.values());
    for (const [kind, n] of Object.entries(alsoOpened)) stats.opened[kind as WatchedKind] += n;
    return stats;
  }

  /** Every watcher whose first list is still to come lists again at once. */
  listAgainNow(): void {
    for (const w of this.byKind.values()) w.listAgainNow();
  }

  stopAll(): void {
    for (const w of this.byKind.values()) w.stop();
  }
}
