/**
 * Watch counters per kind, shared by a source and the process-wide registry.
 */
import type { WatchedKind } from '../core/index.js';

/** Every kind a source may watch. */
export const ALL_KINDS: readonly WatchedKind[] = ['Deployment', 'ReplicaSet', 'Pod', 'Event', 'PersistentVolumeClaim', 'Node'];

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

/** A zero counter for every kind. */
export function zeroPerKind(): Record<WatchedKind, number> {
  return Object.fromEntries(ALL_KINDS.map((k) => [k, 0])) as Record<WatchedKind, number>;
}
