/**
 * A {@link KindWatcher}'s cache of one kind: which objects it keeps, how a fresh list replaces it
 * (the differences are emitted as changes), and what became of an object that left a
 * label-selected watch's scope (read again from the apiserver).
 */
import type { KindToObject, WatchedKind } from '../core/index.js';
import { sleep } from './backoff.js';
import type { KindApi } from './kinds.js';
import { isControlled } from './relevance.js';

/** The cache's view of the watcher's handlers. */
export interface CacheHandlers<K extends WatchedKind> {
  change(type: 'upsert' | 'delete', object: KindToObject[K]): void;
  keep?(object: KindToObject[K]): boolean;
}

/**
 * A fresh list being taken in page by page: only the objects kept are held (see
 * {@link CacheHandlers.keep}), and {@link apply} then replaces the cache with them, emitting deletes
 * for vanished and upserts for new or changed objects (an object now listed but no longer kept
 * leaves the cache silently).
 */
export class ListIntake<K extends WatchedKind> {
  private readonly fresh = new Map<string, KindToObject[K]>();
  private readonly dropped = new Set<string>();

  constructor(
    private readonly cache: Map<string, KindToObject[K]>,
    private readonly h: CacheHandlers<K>,
    /** Whether a list returns this object (see KindApi.listed); by default every object. */
    private readonly listed?: (object: KindToObject[K]) => boolean,
    /** Hears how many objects each page brought (kept or not). */
    private readonly counted?: (objects: number) => void,
  ) {}

  /** Takes in one page. */
  page(items: readonly KindToObject[K][]): void {
    this.counted?.(items.length);
    for (const item of items) {
      const key = keyOf(item);
      stripManagedFields(item);
      if (!this.h.keep || this.h.keep(item)) this.fresh.set(key, item);
      else if (this.cache.has(key)) this.dropped.add(key);
    }
  }

  /** Forgets the pages so far (the list starts over). */
  restart(): void {
    this.fresh.clear();
    this.dropped.clear();
  }

  /** Replaces the cache with the list. */
  apply(): void {
    for (const [key, old] of [...this.cache]) {
      if (this.fresh.has(key) || (this.listed && !this.listed(old))) continue;
      this.cache.delete(key);
      if (!this.dropped.has(key)) this.h.change('delete', old);
    }
    for (const [key, item] of this.fresh) {
      const old = this.cache.get(key);
      this.cache.set(key, item);
      if (!old || old.metadata?.resourceVersion !== item.metadata?.resourceVersion) this.h.change('upsert', item);
    }
  }
}

/** Caches `object` if it is kept (see {@link CacheHandlers.keep}); returns whether it was. */
export function remember<K extends WatchedKind>(
  cache: Map<string, KindToObject[K]>,
  key: string,
  object: KindToObject[K],
  h: CacheHandlers<K>,
): boolean {
  stripManagedFields(object);
  if (h.keep && !h.keep(object)) {
    cache.delete(key);
    return false;
  }
  cache.set(key, object);
  return true;
}

/** The cache key of an object: its uid (its name if it has none). */
export function keyOf(obj: { metadata?: { uid?: string; name?: string } }): string {
  return obj.metadata?.uid ?? obj.metadata?.name ?? '';
}

/** managedFields are read by nothing here and can be most of an object's size. */
export function stripManagedFields(obj: { metadata?: { managedFields?: unknown } }): void {
  if (obj.metadata?.managedFields) delete obj.metadata.managedFields;
}

/**
 * `object` as it is now if it still exists with the same uid (a pod that left a label-selected
 * watch's scope), else undefined (deleted, or unreadable: a deletion is what the watch said).
 */
export async function stillThere<K extends WatchedKind>(
  api: KindApi<K>,
  namespace: string,
  object: KindToObject[K],
  signal: AbortSignal,
): Promise<KindToObject[K] | undefined> {
  try {
    const now = await api.read!(namespace, object.metadata?.name ?? '', signal);
    if (keyOf(now) !== keyOf(object)) return undefined;
    stripManagedFields(now);
    return now;
  } catch {
    return undefined;
  }
}

/** Reads of an object that left a label-selected watch while still controlled (≈ 10 s in all). */
const RELEASE_READS = 20;
const RELEASE_READ_MS = 500;

/**
 * What became of an object a label-selected watch reported DELETED without a graceful deletion: the
 * object as it is now if it still exists (same uid), else its deletion; undefined once `stopped`.
 * Out of scope, no watch event will say when its controller releases it (a ReplicaSet removes the
 * ownerReference of a pod whose labels stopped matching): while it is still controlled, it is read
 * again for a while, so the core sees the release (`pod-orphaned`), not a pod still owned.
 */
export async function afterLeavingScope<K extends WatchedKind>(
  api: KindApi<K>,
  namespace: string,
  object: KindToObject[K],
  signal: AbortSignal,
  stopped: () => boolean,
): Promise<{ type: 'upsert' | 'delete'; object: KindToObject[K] } | undefined> {
  let now = await stillThere(api, namespace, object, signal);
  for (let i = 0; now && isControlled(now) && i < RELEASE_READS && !stopped(); i++) {
    await sleep(RELEASE_READ_MS, signal);
    now = await stillThere(api, namespace, object, signal);
  }
  if (stopped()) return undefined;
  return now ? { type: 'upsert', object: now } : { type: 'delete', object };
}
