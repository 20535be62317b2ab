/** Which kinds a namespace source watches, and how (namespace-source.ts). */
import type { WatchedKind, WorkloadKind } from '../core/index.js';
import type { Subscription } from './routing.js';

/** The kinds every subscriber needs listed and watched before `synced`. */
export const BASE_KINDS = ['Deployment', 'ReplicaSet', 'Pod', 'Event'] as const satisfies readonly WatchedKind[];
/** The kinds a subscriber synced with replayed Events needs listed (see backlog-replay.ts). */
export const REPLAY_SYNC_KINDS = ['Deployment', 'ReplicaSet', 'Pod'] as const satisfies readonly WatchedKind[];
/** The kinds whose watches are label-selected by the traced Deployments' selectors. */
export const SCOPED_KINDS = ['ReplicaSet', 'Pod'] as const satisfies readonly WatchedKind[];
/** Kinds whose every object is cached (their lists are small and a late subscriber needs no re-list). */
export const FULLY_KEPT: ReadonlySet<WatchedKind> = new Set<WatchedKind>([
  'Deployment',
  'PersistentVolumeClaim',
  'StatefulSet',
  'DaemonSet',
  'Job',
]);

/** The kind a subscriber traces (default Deployment). */
export const kindOfSub = (sub: Subscription): WorkloadKind => sub.s.kind ?? 'Deployment';
