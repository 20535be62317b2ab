/**
 * What a namespace source does when one of its watchers speaks: the callbacks of each kind's
 * {@link KindWatcher}, by kind (the Event watcher passes routine lines over and tells the backlog its
 * list is in; the Node watcher's refusal is a warning, any other kind's fails the trace).
 */
import type { KindToObject, WatchedKind, WorkloadKind } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';
import type { KindWatcherHandlers } from './kind-watcher-options.js';
import type { SubscriberIndex } from './routing.js';
import { FULLY_KEPT, isWorkloadKind } from './source-kinds.js';

/** The namespace source as its watchers' callbacks see it. */
export interface WatcherHost {
  readonly subs: SubscriberIndex;
  /** An object of `kind` changed. */
  changed(kind: WatchedKind, type: 'upsert' | 'delete', object: KindToObject[WatchedKind]): void;
  /** A traced kind's first list is in. */
  workloadsSynced(kind: WorkloadKind): void;
  /** The Event list is in. */
  eventsListed(): void;
  /** Looks at every subscriber's sync again. */
  resync(): void;
  /** The apiserver answered. */
  heard(): void;
  /** `kind`'s watch was found silent: the others are re-opened. */
  resumeAllBut(kind: WatchedKind): void;
  /** RBAC refuses Nodes. */
  nodesRefused(err: RolloutTraceError): void;
  /** A watch cannot go on. */
  watchFailed(err: RolloutTraceError): void;
  /** A list or watch of `kind` is retried after `delayMs`. */
  retried(kind: WatchedKind, what: string, err: unknown, delayMs: number): void;
}

/** The callbacks of the watcher of `kind`. */
export function watcherHandlers(kind: WatchedKind, host: WatcherHost): KindWatcherHandlers<WatchedKind> {
  return {
    change: (type, object) => host.changed(kind, type, object),
    synced: () => {
      if (isWorkloadKind(kind)) host.workloadsSynced(kind);
    },
    listed: () => {
      if (kind === 'Event') host.eventsListed();
      host.resync();
    },
    ...(kind === 'Event' ? { skipLine: host.subs.skipEventLine } : {}),
    ...(isWorkloadKind(kind) || kind === 'ReplicaSet' ? { lineMayWait: host.subs.lineMayWait(kind) } : {}),
    keep: (object) => FULLY_KEPT.has(kind) || host.subs.concernsSome('upsert', kind, object),
    watching: () => host.resync(),
    contact: () => host.heard(),
    silent: () => host.resumeAllBut(kind),
    fatal: (err) => (kind === 'Node' ? host.nodesRefused(err) : host.watchFailed(err)),
    retry: (what, err, delayMs) => host.retried(kind, what, err, delayMs),
  };
}
