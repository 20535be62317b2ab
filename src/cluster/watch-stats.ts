/**
 * Watch counters per kind, shared by a source and the process-wide registry.
 */
import type { WatchedKind } from '../core/index.js';

/** Every kind a source may watch. */
export const ALL_KINDS: readonly WatchedKind[] = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'ReplicaSet',
  'Pod',
  'Event',
  'PersistentVolumeClaim',
  'Node',
];

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
  /**
   * Objects the apiserver sent (list items and watch events, kept or not): what label-selected
   * watches save shows here.
   */
  received: Record<WatchedKind, number>;
}

/** A zero counter for every kind. */
export function zeroPerKind(): Record<WatchedKind, number> {
  return Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>;
}

/** What {@link statsOf} reads of a watcher. */
interface Counted {
  readonly api: { readonly kind: WatchedKind };
  readonly opened: number;
  readonly active: number;
  readonly lists: number;
  readonly received: number;
  readonly cache: { readonly size: number };
}

/** The counters of a source's watchers. */
export function statsOf(watchers: Iterable<Counted>): WatchStats {
  const s: WatchStats = {
    opened: zeroPerKind(),
    active: zeroPerKind(),
    lists: zeroPerKind(),
    cached: zeroPerKind(),
    received: zeroPerKind(),
  };
  for (const w of watchers) {
    const kind = w.api.kind;
    s.opened[kind] = w.opened;
    s.active[kind] = w.active;
    s.lists[kind] = w.lists;
    s.cached[kind] = w.cache.size;
    s.received[kind] = w.received;
  }
  return s;
}
