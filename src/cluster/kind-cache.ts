/**
 * A {@link KindWatcher}'s cache of one kind: which objects it keeps, and how a fresh list replaces
 * it (the differences are emitted as changes).
 */
import type { KindToObject, WatchedKind } from '../core/index.js';

/** The cache's view of the watcher's handlers. */
export interface CacheHandlers<K extends WatchedKind> {
  change(type: 'upsert' | 'delete', object: KindToObject[K]): void;
  keep?(object: KindToObject[K]): boolean;
}

/** Replaces `cache` with a fresh list, emitting deletes for vanished and upserts for changed objects. */
export function applyList<K extends WatchedKind>(cache: Map<string, KindToObject[K]>, items: KindToObject[K][], h: CacheHandlers<K>): void {
  const fresh = new Map<string, KindToObject[K]>();
  for (const item of items) fresh.set(keyOf(item), item);
  for (const [key, old] of [...cache]) {
    if (!fresh.has(key)) {
      cache.delete(key);
      h.change('delete', old);
    }
  }
  for (const [key, item] of fresh) {
    const old = cache.get(key);
    if (!remember(cache, key, item, h)) continue;
    if (!old || old.metadata?.resourceVersion !== item.metadata?.resourceVersion) h.change('upsert', item);
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
function stripManagedFields(obj: { metadata?: { managedFields?: unknown } }): void {
  if (obj.metadata?.managedFields) delete obj.metadata.managedFields;
}
