/**
 * One list+watch loop for one kind in one namespace, written directly on client-node's `Watch`
 * because its informer stops for good on the first non-410 error (client-node #2385) and never
 * asks for bookmarks (see docs in platform.md §1.5-1.6).
 *
 * Loop: list (paged; record resourceVersion) → watch from that resourceVersion with bookmarks and
 * a server-side timeout (240-300 s) → on the server's clean close, re-watch from the last
 * resourceVersion (bookmarks included), so a quiet namespace costs one watch request per kind
 * every ~4-5 minutes and no list; on 410 Gone, re-list and emit the differences; on network
 * errors, 429 and 5xx, retry with jittered exponential back-off; on 401/403, give up with a
 * RolloutTraceError('forbidden').
 *
 * client-node aborts a watch after 30 s without bytes; the apiserver sends a bookmark about once a
 * minute (and 2 s before the timeout), so that abort would end every quiet watch early. The
 * watcher raises it to `inactivitySeconds` (default 100): only a watch that got not even a
 * bookmark for that long is presumed dead.
 */
import { type KubeConfig, Watch } from '@kubernetes/client-node';
import type { KindToObject, WatchedKind } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';
import { forbiddenError, isTransient, statusOf } from './api-errors.js';
import { Backoff, type BackoffOptions, sleep } from './backoff.js';
import type { KindApi } from './kinds.js';

/** Callbacks of a {@link KindWatcher}. */
export interface KindWatcherHandlers<K extends WatchedKind> {
  /** An object was added/changed (`upsert`) or removed (`delete`). */
  change(type: 'upsert' | 'delete', object: KindToObject[K]): void;
  /** The first list completed; the cache is complete from now on. */
  synced(): void;
  /** A list (the first or a re-list) completed and its differences were emitted. */
  listed?(): void;
  /**
   * Whether to cache an object (default: all). Objects nobody traces are passed to `change` but
   * not kept, so memory follows what is traced rather than the namespace.
   */
  keep?(object: KindToObject[K]): boolean;
  /** The apiserver answered (a list, a watch opening, or a watch event). */
  contact(): void;
  /** The first watch was accepted. */
  watching?(): void;
  /** The loop gave up (401/403); it is stopped. */
  fatal(err: RolloutTraceError): void;
  /** A retryable failure happened (for debugging; the loop keeps going). */
  retry?(what: string, err: unknown, delayMs: number): void;
}

/** Tunables of a {@link KindWatcher}. */
export interface KindWatcherOptions {
  /** `timeoutSeconds` sent with each watch; the server ends the stream cleanly after it. */
  watchTimeoutSeconds?: number;
  /** Page size of lists. */
  pageSize?: number;
  /** A watch without any byte (event or bookmark) for this long is presumed dead and re-opened. Default 100. */
  inactivitySeconds?: number;
  /** Consecutive silent watches (see `inactivitySeconds`) before a re-list. Default 4. */
  silentWatchesBeforeRelist?: number;
  /** A watch that lived this long (ms) before an error counts as healthy: the back-off starts over. Default 10000. */
  healthyWatchMs?: number;
  backoff?: BackoffOptions;
}

type WatchEnd =
  | { kind: 'closed'; events: number; ms: number }
  | { kind: 'timeout'; events: number }
  | { kind: 'gone' }
  | { kind: 'stream-error'; status: unknown }
  | { kind: 'error'; err: unknown; events: number; ms: number };

/** A self-healing list+watch of one kind in one namespace. */
export class KindWatcher<K extends WatchedKind> {
  /** Current objects by uid. */
  readonly cache = new Map<string, KindToObject[K]>();
  /** Watches opened so far (each reconnect counts). */
  opened = 0;
  /** Watches open right now (0 or 1). */
  active = 0;
  /** Lists done so far (1 + re-lists after 410 or errors). */
  lists = 0;
  /** Bookmarks received so far. */
  bookmarks = 0;
  /** True once the first list completed. */
  isSynced = false;
  /** True once a watch was accepted (so list AND watch are permitted). */
  hasWatched = false;

  private resourceVersion: string | undefined;
  private relistRequested = false;
  private stopped = false;
  private readonly lifetime = new AbortController();
  private currentWatch: AbortController | undefined;
  private readonly backoff: Backoff;
  private readonly watch: Watch;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    readonly api: KindApi<K>,
    private readonly handlers: KindWatcherHandlers<K>,
    private readonly options: KindWatcherOptions = {},
  ) {
    this.backoff = new Backoff(options.backoff);
    this.watch = new Watch(kc);
    // client-node 2.0.1 keeps its inactivity limit in a private field (pinned version; the quiet-watch
    // integration test fails if it ever stops working).
    (this.watch as unknown as { requestTimeoutMs: number }).requestTimeoutMs = (options.inactivitySeconds ?? INACTIVITY_SECONDS) * 1000;
  }

  /** Starts the loop (once). */
  start(): void {
    void this.run();
  }

  /** Stops the loop and aborts the open watch and any in-flight list. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.lifetime.abort();
    this.currentWatch?.abort();
    this.currentWatch = undefined;
  }

  /** Re-lists now (e.g. a subscriber joined whose objects were not kept); the watch resumes after it. */
  relist(): void {
    if (this.stopped) return;
    this.relistRequested = true;
    this.currentWatch?.abort();
  }

  /** The resourceVersion the next watch resumes from (undefined: the next step is a list). */
  get resumeVersion(): string | undefined {
    return this.resourceVersion;
  }

  /**
   * Cuts the open watch and resumes from `resourceVersion`, as a reconnect after a network cut
   * would (tests: an expired version forces 410 Gone; one far ahead, a watch that never speaks).
   */
  rewatchFrom(resourceVersion: string): void {
    this.resourceVersion = resourceVersion;
    this.currentWatch?.abort();
  }

  private async run(): Promise<void> {
    let silent = 0;
    while (!this.stopped) {
      if (this.resourceVersion === undefined) {
        try {
          await this.list();
          this.backoff.reset();
        } catch (err) {
          if (this.stopped) return;
          if (!this.handleFailure('list', err)) return;
          await this.pause('list', err);
          continue;
        }
      }
      if (this.stopped) return;
      const end = await this.watchOnce();
      if (this.stopped) return;
      if (this.relistRequested) {
        this.relistRequested = false;
        this.resourceVersion = undefined;
        continue;
      }
      switch (end.kind) {
        case 'timeout':
          // No byte, not even a bookmark, for `inactivitySeconds`: the connection is presumed
          // dead; re-watch from the last resourceVersion. A watch that stays silent again and
          // again may be parked on a resourceVersion the apiserver will never reach (e.g. after
          // an etcd restore): re-list after a few of those.
          silent = end.events === 0 ? silent + 1 : 0;
          if (silent >= (this.options.silentWatchesBeforeRelist ?? SILENT_WATCHES_BEFORE_RELIST)) {
            silent = 0;
            this.resourceVersion = undefined;
          }
          break;
        case 'closed':
          // The server ended the stream (timeoutSeconds). Re-watch at once, unless streams keep
          // ending immediately with nothing in them — then back off so we don't spin.
          if (end.events === 0 && end.ms < 1000) await this.pause('watch', new Error('watch closed immediately'));
          else this.backoff.reset();
          break;
        case 'gone':
          this.resourceVersion = undefined;
          break;
        case 'stream-error':
          this.resourceVersion = undefined;
          await this.pause('watch', end.status);
          break;
        case 'error':
          // A watch that worked for a while and then broke (connection reset, proxy restart) is a
          // fresh failure: reconnect after the initial delay and resume from its resourceVersion.
          if (end.events > 0 || end.ms >= (this.options.healthyWatchMs ?? HEALTHY_WATCH_MS)) this.backoff.reset();
          if (statusOf(end.err) === 410) {
            this.resourceVersion = undefined;
            break;
          }
          if (!this.handleFailure('watch', end.err)) return;
          // Watches keep failing (e.g. 504 "Too large resource version" from an apiserver that is
          // behind): resume from a fresh list rather than the same resourceVersion forever.
          if (this.backoff.attempts >= 2) this.resourceVersion = undefined;
          await this.pause('watch', end.err);
          break;
      }
    }
  }

  /** Returns false (after reporting) when the failure is fatal. */
  private handleFailure(verb: 'list' | 'watch', err: unknown): boolean {
    const status = statusOf(err);
    if (status === 401 || status === 403) {
      this.stop();
      this.handlers.fatal(forbiddenError(this.kc, verb, this.api.resource, this.namespace, err));
      return false;
    }
    return true;
  }

  private async pause(what: string, err: unknown): Promise<void> {
    const delay = this.backoff.next();
    this.handlers.retry?.(`${what} ${this.api.resource}${isTransient(err) ? '' : ' (unexpected)'}`, err, delay);
    await sleep(delay, this.lifetime.signal);
  }

  private async list(): Promise<void> {
    const items: KindToObject[K][] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.api.listPage(this.namespace, {
        continueToken,
        limit: this.options.pageSize ?? 500,
        signal: this.lifetime.signal,
      });
      items.push(...(this.api.slim ? page.items.map((o) => this.api.slim!(o)) : page.items));
      resourceVersion = page.resourceVersion;
      continueToken = page.continueToken;
    } while (continueToken && !this.stopped);
    if (this.stopped) return;
    this.lists++;
    this.handlers.contact();
    this.applyList(items);
    this.resourceVersion = resourceVersion;
    if (!this.isSynced) {
      this.isSynced = true;
      this.handlers.synced();
    }
    this.handlers.listed?.();
  }

  /** Replaces the cache with a fresh list, emitting deletes for vanished and upserts for changed objects. */
  private applyList(items: KindToObject[K][]): void {
    const fresh = new Map<string, KindToObject[K]>();
    for (const item of items) fresh.set(keyOf(item), item);
    for (const [key, old] of [...this.cache]) {
      if (!fresh.has(key)) {
        this.cache.delete(key);
        this.handlers.change('delete', old);
      }
    }
    for (const [key, item] of fresh) {
      const old = this.cache.get(key);
      if (!this.remember(key, item)) continue;
      if (!old || old.metadata?.resourceVersion !== item.metadata?.resourceVersion) this.handlers.change('upsert', item);
    }
  }

  /** Caches `object` if it is kept (see {@link KindWatcherHandlers.keep}); returns whether it was. */
  private remember(key: string, object: KindToObject[K]): boolean {
    stripManagedFields(object);
    if (this.handlers.keep && !this.handlers.keep(object)) {
      this.cache.delete(key);
      return false;
    }
    this.cache.set(key, object);
    return true;
  }

  private watchOnce(): Promise<WatchEnd> {
    return new Promise<WatchEnd>((resolve) => {
      const startedAt = Date.now();
      let events = 0;
      let finished = false;
      let counted = false;
      let gone = false;
      let streamError: unknown;
      const onEvent = (type: string, raw: KindToObject[K] & { code?: number }) => {
        if (this.stopped) return;
        const obj = type !== 'ERROR' && this.api.slim ? (this.api.slim(raw) as typeof raw) : raw;
        events++;
        this.handlers.contact();
        const rv = obj?.metadata?.resourceVersion;
        switch (type) {
          case 'ADDED':
          case 'MODIFIED':
            if (rv) this.resourceVersion = rv;
            this.remember(keyOf(obj), obj);
            this.handlers.change('upsert', obj);
            break;
          case 'DELETED':
            if (rv) this.resourceVersion = rv;
            this.cache.delete(keyOf(obj));
            this.handlers.change('delete', obj);
            break;
          case 'BOOKMARK':
            this.bookmarks++;
            if (rv) this.resourceVersion = rv;
            break;
          case 'ERROR':
            if (obj?.code === 410) gone = true;
            else streamError = obj;
            break;
        }
      };
      const onDone = (err: unknown) => {
        if (finished) return;
        finished = true;
        if (counted) this.active--;
        this.currentWatch = undefined;
        if (gone) return resolve({ kind: 'gone' });
        if (streamError) return resolve({ kind: 'stream-error', status: streamError });
        if (err && (err as { name?: string }).name === 'TimeoutError') return resolve({ kind: 'timeout', events });
        if (err) return resolve({ kind: 'error', err, events, ms: Date.now() - startedAt });
        resolve({ kind: 'closed', events, ms: Date.now() - startedAt });
      };
      this.watch
        .watch(
          this.api.path(this.namespace),
          {
            allowWatchBookmarks: true,
            resourceVersion: this.resourceVersion,
            timeoutSeconds: this.options.watchTimeoutSeconds ?? jitteredWatchTimeout(),
          },
          onEvent,
          onDone,
        )
        .then(
          (controller) => {
            if (finished) return;
            if (this.stopped) {
              controller.abort();
              return;
            }
            this.currentWatch = controller;
            if (this.relistRequested) controller.abort();
            counted = true;
            this.opened++;
            this.active++;
            this.handlers.contact();
            if (!this.hasWatched) {
              this.hasWatched = true;
              this.handlers.watching?.();
            }
          },
          (err: unknown) => onDone(err ?? new Error('watch failed')),
        );
    });
  }
}

/** A watch that lived this long before an error counts as healthy (the back-off starts over). */
const HEALTHY_WATCH_MS = 10_000;

/** Consecutive silent watches after which the loop re-lists. */
const SILENT_WATCHES_BEFORE_RELIST = 4;

/** More than the apiserver's ~60 s bookmark period, less than the source's 120 s lost-contact limit. */
const INACTIVITY_SECONDS = 100;

/** 240-300 s, so the watches of many trackers don't all reconnect in the same second. */
function jitteredWatchTimeout(): number {
  return 240 + Math.floor(Math.random() * 60);
}

/** managedFields are read by nothing here and can be most of an object's size. */
function stripManagedFields(obj: { metadata?: { managedFields?: unknown } }): void {
  if (obj.metadata?.managedFields) delete obj.metadata.managedFields;
}

function keyOf(obj: { metadata?: { uid?: string; name?: string } }): string {
  return obj.metadata?.uid ?? obj.metadata?.name ?? '';
}
