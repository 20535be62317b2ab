/**
 * The contract of a {@link KindWatcher}: its callbacks and tunables.
 */
import type { KindToObject, WatchedKind } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';
import type { BackoffOptions } from './backoff.js';
import type { LineMayWait, LineSkip } from './line-watch.js';

/** Callbacks of a KindWatcher. */
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
  /**
   * A watch line nobody needs, passed over unparsed: returns its resourceVersion, or undefined to
   * parse it (see {@link LineSkip}; the Event watch, when no tracker wants a pod's routine Events).
   */
  skipLine?: LineSkip;
  /** Which lines of a watch not batched as a whole may wait for the next batch (a workload's or ReplicaSet's still in progress). */
  lineMayWait?: LineMayWait;
  /** The apiserver answered (a list, a watch opening, or a watch event). */
  contact(): void;
  /** The first watch was accepted. */
  watching?(): void;
  /** The loop gave up (401/403); it is stopped. */
  fatal(err: RolloutTraceError): void;
  /**
   * A watch heard nothing for `inactivitySeconds` and is re-opened. A connection that died silently
   * (a black-holing NAT or load balancer) seldom died alone: the source re-opens its other watches.
   */
  silent?(): void;
  /** A retryable failure happened (for debugging; the loop keeps going). */
  retry?(what: string, err: unknown, delayMs: number): void;
}

/** Tunables of a KindWatcher. */
export interface KindWatcherOptions {
  /** `timeoutSeconds` sent with each watch; the server ends the stream cleanly after it. */
  watchTimeoutSeconds?: number;
  /** Page size of lists. Default 500. */
  pageSize?: number;
  /** Kubernetes label selector of lists and watches (default: every object of the namespace). */
  labelSelector?: string;
  /**
   * The first list takes any version (`resourceVersion=0`, from the apiserver's watch cache, in
   * memory) instead of reading etcd; every later list (a re-list, a new scope) reads etcd, so a
   * list never takes back what a watch already delivered. See docs/performance.md, "Pods listed
   * from the watch cache".
   */
  firstListFromCache?: boolean;
  /** A watch without any byte (event or bookmark) for this long is presumed dead and re-opened. Default 150. */
  inactivitySeconds?: number;
  /** Consecutive silent watches (see `inactivitySeconds`) before a re-list. Default 4. */
  silentWatchesBeforeRelist?: number;
  /** A watch that lived this long (ms) before an error counts as healthy: the back-off starts over. Default 10000. */
  healthyWatchMs?: number;
  backoff?: BackoffOptions;
}
