/**
 * One list+watch loop for one kind in one namespace, written directly on watch requests
 * (line-watch.ts) because client-node's informer stops for good on the first non-410 error
 * (kubernetes-client/javascript #2385) and never asks for bookmarks (client-node src/cache.ts ListWatch).
 *
 * Loop: list (paged) → watch from its resourceVersion with bookmarks and a server-side timeout
 * (240-300 s) → on a clean close, re-watch from the last resourceVersion (a quiet namespace: one
 * watch request per kind every ~4-5 minutes, no list); on 410 Gone, re-list and emit the
 * differences; on network errors, 429 and 5xx, jittered exponential back-off; on 401/403, give up
 * with a RolloutTraceError('forbidden').
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KindToObject, WatchedKind } from '../core/index.js';
import { fatalListOrWatchError, isTransient } from './api-errors.js';
import { Backoff, sleep } from './backoff.js';
import { afterLeavingScope, keyOf, ListIntake, remember } from './kind-cache.js';
import type { KindWatcherHandlers, KindWatcherOptions } from './kind-watcher-options.js';
import type { KindApi } from './kinds.js';
import { LineWatch } from './line-watch.js';
import { listPages } from './list-pages.js';
import { drainReadBatches } from './read-batches.js';
import {
  afterWatch,
  HEALTHY_WATCH_MS,
  INACTIVITY_SECONDS,
  jitteredWatchTimeout,
  SILENT_WATCHES_BEFORE_RELIST,
  streamOnce,
  type WatchEnd,
  type WatchEventType,
} from './watch-stream.js';

export type { KindWatcherHandlers, KindWatcherOptions };

/** A self-healing list+watch of one kind in one namespace; its methods act after every line read before them (read-batches.ts). */
export class KindWatcher<K extends WatchedKind> {
  /** Current objects by uid. */
  readonly cache = new Map<string, KindToObject[K]>();
  /** Watches opened so far (each reconnect counts). */
  opened = 0;
  /** Watches open right now (0 or 1). */
  active = 0;
  /** Lists done so far (1 + re-lists after 410 or errors). */
  lists = 0;
  /** Lists started so far (one more than {@link lists} while a list is under way or failed). */
  listsStarted = 0;
  /** Bookmarks received so far. */
  bookmarks = 0;
  /** Objects the apiserver sent so far (list items and watch events, kept or not). */
  received = 0;
  /** The label selector of lists and watches (undefined: every object); see {@link rescope}. */
  labelSelector: string | undefined;
  /** True once the first list completed. */
  isSynced = false;
  /** True once a watch was accepted (so list AND watch are permitted). */
  hasWatched = false;
  /** The resourceVersion of the first list (undefined before it completed). */
  firstListVersion: string | undefined;
  /** When the open watch was accepted or last heard from (epoch ms). */
  lastHeard = 0;

  private resourceVersion: string | undefined;
  private relistRequested = false;
  private resumeRequested = false;
  private stopped = false;
  private readonly lifetime = new AbortController();
  /** Aborts the list under way, or the pause before the next one ({@link listAgainNow}). */
  private listAttempt = new AbortController();
  private currentWatch: AbortController | undefined;
  private readonly backoff: Backoff;
  private readonly watch: LineWatch;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    readonly api: KindApi<K>,
    private readonly handlers: KindWatcherHandlers<K>,
    private readonly options: KindWatcherOptions = {},
  ) {
    this.backoff = new Backoff(options.backoff);
    this.labelSelector = options.labelSelector;
    this.watch = new LineWatch(kc);
    this.watch.requestTimeoutMs = (options.inactivitySeconds ?? INACTIVITY_SECONDS) * 1000;
  }

  /** Starts the loop (once). */
  start(): void {
    void this.run();
  }

  /** Stops the loop and aborts the open watch and any in-flight list. */
  stop(): void {
    if (this.stopped) return;
    drainReadBatches();
    this.stopped = true;
    this.lifetime.abort();
    this.currentWatch?.abort();
    this.currentWatch = undefined;
  }

  /** Re-lists now (e.g. a subscriber joined whose objects were not kept); the watch resumes after it. */
  relist(): void {
    if (this.stopped) return;
    drainReadBatches();
    this.relistRequested = true;
    this.currentWatch?.abort();
  }

  /**
   * Lists and watches with `labelSelector` from now on: re-lists at once if it changed (objects no
   * longer selected leave the cache as deletes, newly selected ones come as upserts).
   */
  rescope(labelSelector: string | undefined): void {
    if (labelSelector === this.labelSelector) return;
    this.labelSelector = labelSelector;
    this.relist();
  }

  /**
   * While the first list is still to come, gives up the list under way (or the wait before the
   * next) and lists again at once: the apiserver answers again after an outage the list started in.
   */
  listAgainNow(): void {
    if (this.stopped || this.resourceVersion !== undefined) return;
    this.backoff.reset();
    const attempt = this.listAttempt;
    this.listAttempt = new AbortController();
    attempt.abort(new DOMException('listed again after the first contact', 'AbortError'));
  }

  /** The resourceVersion the next watch resumes from (undefined: the next step is a list). */
  get resumeVersion(): string | undefined {
    drainReadBatches();
    return this.resourceVersion;
  }

  /**
   * Re-opens the open watch from its last resourceVersion, at once and without back-off (another
   * watch of the source was found silent: its connection may have died with this one's).
   */
  resume(): void {
    if (this.stopped || !this.currentWatch) return;
    drainReadBatches();
    this.resumeRequested = true;
    this.currentWatch.abort();
  }

  /** {@link resume}s the open watch if it heard nothing since `since` (epoch ms): an outage may have cut it silently. */
  resumeIfSilentSince(since: number): void {
    if (this.lastHeard < since) this.resume();
  }

  /** Cuts the open watch and resumes from `resourceVersion`, as after a network cut (tests: 410 Gone, a mute watch). */
  rewatchFrom(resourceVersion: string): void {
    drainReadBatches();
    this.resourceVersion = resourceVersion;
    this.currentWatch?.abort();
  }

  private async run(): Promise<void> {
    let silent = 0;
    while (!this.stopped) {
      if (this.resourceVersion === undefined) {
        const attempt = this.listAttempt.signal;
        try {
          await this.list(AbortSignal.any([this.lifetime.signal, attempt]));
          this.backoff.reset();
        } catch (err) {
          if (this.stopped) return;
          if (attempt.aborted) continue;
          if (!this.handleFailure('list', err)) return;
          await this.pause('list', err, AbortSignal.any([this.lifetime.signal, this.listAttempt.signal]));
          continue;
        }
      }
      if (this.stopped) return;
      const end = await this.watchOnce();
      if (this.stopped) return;
      const resumed = this.resumeRequested;
      this.resumeRequested = false;
      if (this.relistRequested) {
        this.relistRequested = false;
        this.resourceVersion = undefined;
        continue;
      }
      if (resumed) continue;
      if (end.kind === 'timeout') this.handlers.silent?.();
      const next = afterWatch(end, silent, this.backoff.attempts, {
        silentWatchesBeforeRelist: this.options.silentWatchesBeforeRelist ?? SILENT_WATCHES_BEFORE_RELIST,
        healthyWatchMs: this.options.healthyWatchMs ?? HEALTHY_WATCH_MS,
      });
      silent = next.silent;
      if (next.resetBackoff) this.backoff.reset();
      if (next.failure !== undefined && !this.handleFailure('watch', next.failure)) return;
      if (next.relist) this.resourceVersion = undefined;
      const pause = next.failure ?? next.pause;
      if (pause !== undefined) await this.pause('watch', pause);
    }
  }

  /** Returns false (after reporting) when the failure is fatal (api-errors.ts `fatalListOrWatchError`). */
  private handleFailure(verb: 'list' | 'watch', err: unknown): boolean {
    const fatal = fatalListOrWatchError(this.kc, verb, this.api.resource, this.namespace, err);
    if (!fatal) return true;
    this.stop();
    this.handlers.fatal(fatal);
    return false;
  }

  private async pause(what: string, err: unknown, signal = this.lifetime.signal): Promise<void> {
    const delay = this.backoff.next();
    this.handlers.retry?.(`${what} ${this.api.resource}${isTransient(err) ? '' : ' (unexpected)'}`, err, delay);
    await sleep(delay, signal);
  }

  private async list(signal: AbortSignal): Promise<void> {
    this.listsStarted = this.lists + 1;
    const intake = new ListIntake(this.cache, this.handlers, this.api.listed, (n) => (this.received += n));
    const limit = this.options.pageSize ?? this.api.listPageSize ?? 500;
    const anyVersion = this.lists === 0 && this.options.firstListFromCache === true;
    const request = { namespace: this.namespace, limit, signal, labelSelector: this.labelSelector, anyVersion };
    const resourceVersion = await listPages(this.api, request, intake, () => this.stopped);
    if (resourceVersion === undefined) return;
    this.lists++;
    this.handlers.contact();
    intake.apply();
    this.resourceVersion = resourceVersion;
    if (!this.isSynced) {
      this.isSynced = true;
      this.firstListVersion = resourceVersion;
      this.handlers.synced();
    }
    this.handlers.listed?.();
  }

  private watchOnce(): Promise<WatchEnd> {
    return streamOnce<K>(
      this.watch,
      this.api.path(this.namespace),
      {
        resourceVersion: this.resourceVersion,
        timeoutSeconds: this.options.watchTimeoutSeconds ?? jitteredWatchTimeout(),
        labelSelector: this.labelSelector,
        skip: this.handlers.skipLine,
        batched: this.api.batchedWatch === true || (this.handlers.lineMayWait ?? false),
      },
      {
        live: () => !this.stopped,
        heard: () => {
          this.lastHeard = Date.now();
          this.handlers.contact();
        },
        event: (type, obj) => this.onWatchEvent(type, obj),
        accepted: (controller) => this.onWatchAccepted(controller),
        ended: (accepted) => {
          if (accepted) this.active--;
          this.currentWatch = undefined;
        },
        ...(this.api.slim ? { slim: this.api.slim } : {}),
      },
    );
  }

  private onWatchEvent(type: WatchEventType, obj: KindToObject[K]): void {
    const rv = obj?.metadata?.resourceVersion;
    if (rv) this.resourceVersion = rv;
    if (type !== 'BOOKMARK') this.received++;
    switch (type) {
      case 'ADDED':
      case 'MODIFIED':
        remember(this.cache, keyOf(obj), obj, this.handlers);
        this.handlers.change('upsert', obj);
        break;
      case 'DELETED':
        this.cache.delete(keyOf(obj));
        // A label-selected watch says DELETED for an object relabeled out of its scope too; a real
        // pod deletion went through a graceful one first (`deletionTimestamp`), else a read tells.
        if (this.labelSelector !== undefined && this.api.read !== undefined && !obj.metadata?.deletionTimestamp)
          void this.deletedOrLeft(obj);
        else this.handlers.change('delete', obj);
        break;
      case 'BOOKMARK':
        this.bookmarks++;
        break;
      case 'SKIPPED': // received (counted above), not parsed, needed by nobody
        break;
    }
  }

  /** Emits what became of an object that left the label-selected watch's scope (see {@link afterLeavingScope}). */
  private async deletedOrLeft(obj: KindToObject[K]): Promise<void> {
    const after = await afterLeavingScope(this.api, this.namespace, obj, this.lifetime.signal, () => this.stopped);
    if (after && !this.cache.has(keyOf(obj))) this.handlers.change(after.type, after.object); // else back in scope meanwhile
  }

  private onWatchAccepted(controller: AbortController): void {
    this.currentWatch = controller;
    if (this.relistRequested) controller.abort();
    this.opened++;
    this.active++;
    this.lastHeard = Date.now();
    this.handlers.contact();
    if (!this.hasWatched) {
      this.hasWatched = true;
      this.handlers.watching?.();
    }
  }
}
