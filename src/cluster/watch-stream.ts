/**
 * One watch request of a {@link KindWatcher} ({@link LineWatch}, bookmarks on, server-side
 * timeout), how it ended, and what the loop does next.
 *
 * client-node aborts a watch after 30 s without bytes; the apiserver sends a quiet watch's first
 * bookmark after 120 s, then one a minute (and one 2 s before the timeout), so that abort would
 * end every quiet watch early. The watcher raises it to `inactivitySeconds` (default 150): only a
 * watch that got not even a bookmark for that long is presumed dead.
 */
import type { KindToObject, WatchedKind } from '../core/index.js';
import { statusOf } from './api-errors.js';
import type { LineBatching, LineMayWait, LineSkip, LineWatch } from './line-watch.js';

/** How one watch request ended. */
export type WatchEnd =
  | { kind: 'closed'; events: number; ms: number }
  | { kind: 'timeout'; events: number }
  /** 410 Gone: the resourceVersion is older than what the apiserver keeps (`message` says how old). */
  | { kind: 'gone'; message?: string }
  | { kind: 'stream-error'; status: unknown }
  | { kind: 'error'; err: unknown; events: number; ms: number };

/** The watch events a watcher is handed. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'SKIPPED';
const EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'SKIPPED']);

/** The watcher side of one watch request. */
export interface StreamListener<K extends WatchedKind> {
  /** False once the watcher stopped: further events are ignored. */
  live(): boolean;
  /** Any event arrived (the apiserver answered). */
  heard(): void;
  /** One object event or bookmark (objects already slimmed); SKIPPED: a line passed over unparsed. */
  event(type: WatchEventType, object: KindToObject[K]): void;
  /** The apiserver accepted the watch; `controller` aborts it. */
  accepted(controller: AbortController): void;
  /** The request ended; `accepted` says whether {@link accepted} was called. */
  ended(accepted: boolean): void;
  /** Drops what the core never reads (see KindApi.slim). */
  slim?(object: KindToObject[K]): KindToObject[K];
}

/** Query parameters of one watch request. */
export interface WatchParams {
  resourceVersion: string | undefined;
  timeoutSeconds: number;
  labelSelector?: string | undefined;
  /** Lines to pass over unparsed (see LineSkip). */
  skip?: LineSkip | undefined;
  /** Lines handled in batches (read-batches.ts): all of them (Pods, Events), or those a {@link LineMayWait} lets wait. */
  batched?: LineBatching;
}

/** Opens one watch on `path` and resolves with how it ended (never rejects). */
export function streamOnce<K extends WatchedKind>(
  watch: LineWatch,
  path: string,
  params: WatchParams,
  listener: StreamListener<K>,
): Promise<WatchEnd> {
  return new Promise<WatchEnd>((resolve) => {
    const startedAt = Date.now();
    let events = 0;
    let finished = false;
    let accepted = false;
    let gone: { message?: string } | undefined;
    let streamError: unknown;
    const onEvent = (type: string, raw: KindToObject[K] & { code?: number }) => {
      if (!listener.live()) return;
      events++;
      listener.heard();
      if (type === 'ERROR') {
        if (raw?.code === 410) gone = { message: (raw as { message?: string }).message ?? '' };
        else streamError = raw;
        return;
      }
      if (!EVENT_TYPES.has(type)) return;
      const obj = listener.slim && type !== 'SKIPPED' ? (listener.slim(raw) as typeof raw) : raw;
      listener.event(type as WatchEventType, obj);
    };
    const onDone = (err: unknown) => {
      if (finished) return;
      finished = true;
      listener.ended(accepted);
      if (gone) return resolve({ kind: 'gone', ...gone });
      if (streamError) return resolve({ kind: 'stream-error', status: streamError });
      if (err && (err as { name?: string }).name === 'TimeoutError') return resolve({ kind: 'timeout', events });
      if (err) return resolve({ kind: 'error', err, events, ms: Date.now() - startedAt });
      resolve({ kind: 'closed', events, ms: Date.now() - startedAt });
    };
    const query = {
      allowWatchBookmarks: true,
      resourceVersion: params.resourceVersion,
      timeoutSeconds: params.timeoutSeconds,
      ...(params.labelSelector ? { labelSelector: params.labelSelector } : {}),
    };
    watch.watch(path, query, onEvent, onDone, params.skip, params.batched).then(
      (controller) => {
        if (finished) return;
        if (!listener.live()) {
          controller.abort();
          return;
        }
        accepted = true;
        listener.accepted(controller);
      },
      (err: unknown) => onDone(err ?? new Error('watch failed')),
    );
  });
}

/** What the loop does after a watch ended. */
export interface NextStep {
  /** Drop the resourceVersion: the next step is a list. */
  relist: boolean;
  /** Start the back-off over (the watch was healthy). */
  resetBackoff: boolean;
  /** Check this failure (fatal on 401/403), then pause with back-off. */
  failure?: unknown;
  /** Pause with back-off because of this (not a failure to check). */
  pause?: unknown;
  /** Consecutive silent watches so far. */
  silent: number;
}

/** Tunables of {@link afterWatch}. */
export interface AfterWatchOptions {
  silentWatchesBeforeRelist: number;
  healthyWatchMs: number;
}

/**
 * Decides what follows a watch that ended as `end`, given the consecutive silent watches before it
 * and the back-off's consecutive failures.
 */
export function afterWatch(end: WatchEnd, silent: number, attempts: number, o: AfterWatchOptions): NextStep {
  switch (end.kind) {
    case 'timeout': {
      // No byte, not even a bookmark, for `inactivitySeconds`: the connection is presumed dead;
      // re-watch from the last resourceVersion. A watch that stays silent again and again may be
      // parked on a resourceVersion the apiserver will never reach (e.g. after an etcd restore):
      // re-list after a few of those.
      const count = end.events === 0 ? silent + 1 : 0;
      const relist = count >= o.silentWatchesBeforeRelist;
      return { relist, resetBackoff: false, silent: relist ? 0 : count };
    }
    case 'closed':
      // The server ended the stream (timeoutSeconds). Re-watch at once, unless streams keep
      // ending immediately with nothing in them — then back off so we don't spin.
      if (end.events === 0 && end.ms < 1000)
        return { relist: false, resetBackoff: false, pause: new Error('watch closed immediately'), silent };
      return { relist: false, resetBackoff: true, silent };
    case 'gone':
      return { relist: true, resetBackoff: false, silent };
    case 'stream-error':
      return { relist: true, resetBackoff: false, pause: end.status, silent };
    case 'error': {
      // A watch that worked for a while and then broke (connection reset, proxy restart) is a
      // fresh failure: reconnect after the initial delay and resume from its resourceVersion.
      const resetBackoff = end.events > 0 || end.ms >= o.healthyWatchMs;
      if (statusOf(end.err) === 410) return { relist: true, resetBackoff, silent };
      // Watches keep failing (e.g. 504 "Too large resource version" from an apiserver that is
      // behind): resume from a fresh list rather than the same resourceVersion forever.
      return { relist: (resetBackoff ? 0 : attempts) >= 2, resetBackoff, failure: end.err, silent };
    }
  }
}

/** A watch that lived this long before an error counts as healthy (the back-off starts over). */
export const HEALTHY_WATCH_MS = 10_000;

/** Consecutive silent watches after which the loop re-lists. */
export const SILENT_WATCHES_BEFORE_RELIST = 4;

/**
 * More than the longest silence of a healthy quiet watch. Measured on the 1.20 apiserver (a raw
 * watch of an empty namespace, timeoutSeconds 200): the first bookmark comes 120 s after the watch
 * opens, then one every 60 s, and one 2 s before the timeout. At 100 s every quiet watch was
 * aborted before its first bookmark: the bench's 5 quiet minutes cost 9 re-opens for 5 kinds.
 */
export const INACTIVITY_SECONDS = 150;

/** 240-300 s, so the watches of many trackers don't all reconnect in the same second. */
export function jitteredWatchTimeout(): number {
  return 240 + Math.floor(Math.random() * 60);
}
