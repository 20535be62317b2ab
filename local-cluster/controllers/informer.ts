/**
 * The two halves of a controller as client-go builds one: a cache of one kind fed by a list+watch
 * (an informer: the newest resourceVersion of each object wins, so an object a controller just
 * wrote is not replaced by an older copy still in flight on the watch) and a work queue of keys
 * (`namespace/name`), each key reconciled by one worker at a time, again when it changed meanwhile,
 * and retried with back-off after an error.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { errorText } from '../kubelet/events.js';
import { ObjectWatch, type WatchTarget } from '../kubelet/object-watch.js';

/** An object the cache can key. */
export interface Keyed {
  metadata?: { uid?: string; resourceVersion?: string; namespace?: string; name?: string };
}

/** `namespace/name` of an object (`name` for a cluster-scoped one). */
export function keyOf(obj: Keyed): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? '');
}

/** The namespace part of a key (empty for a cluster-scoped object). */
export function namespaceOfKey(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

const revision = (obj: Keyed | undefined) => Number(obj?.metadata?.resourceVersion ?? 0);

/** A watched kind kept by key; `changed(key)` runs on every add, update and delete. */
export class Informer<T extends Keyed> {
  private readonly objects = new Map<string, T>();
  private readonly keys = new Map<string, string>();
  private readonly watch: ObjectWatch<T>;

  constructor(kc: KubeConfig, target: WatchTarget<T>, changed: (key: string, obj: T | undefined) => void, log: (line: string) => void) {
    this.watch = new ObjectWatch<T>(
      kc,
      target,
      {
        upsert: (obj) => {
          if (this.put(obj)) changed(keyOf(obj), obj);
        },
        remove: (uid) => {
          const key = this.keys.get(uid);
          this.keys.delete(uid);
          if (key === undefined || this.objects.get(key)?.metadata?.uid !== uid) return;
          this.objects.delete(key);
          changed(key, undefined);
        },
        known: () => [...this.keys.keys()],
      },
      log,
    );
  }

  /** Lists, then watches; resolves after the first list. */
  start(): Promise<void> {
    return this.watch.start();
  }

  /** Closes the watch. */
  stop(): void {
    this.watch.stop();
  }

  /** The cached object of `key`. */
  get(key: string): T | undefined {
    return this.objects.get(key);
  }

  /** Every cached object. */
  list(): T[] {
    return [...this.objects.values()];
  }

  /** Keeps `obj` (a write's answer, or a watch event) unless the cache has a newer copy; true when kept. */
  put(obj: T): boolean {
    const key = keyOf(obj);
    const old = this.objects.get(key);
    if (old && old.metadata?.uid === obj.metadata?.uid && revision(old) > revision(obj)) return false;
    this.objects.set(key, obj);
    this.keys.set(obj.metadata?.uid ?? '', key);
    return true;
  }
}

/** Keys to reconcile: one worker per key, parallel across keys, retried 200 ms doubling to 30 s. */
export class WorkQueue {
  private readonly running = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly what: string,
    private readonly reconcile: (key: string) => Promise<void>,
    private readonly log: (line: string) => void,
  ) {}

  /** Reconciles `key` soon (after `afterMs`, e.g. a retry after the controller's own back-off). */
  add(key: string, afterMs = 0): void {
    if (this.stopped) return;
    if (afterMs > 0) {
      clearTimeout(this.timers.get(key));
      this.timers.set(
        key,
        setTimeout(() => this.add(key), afterMs),
      );
      return;
    }
    setImmediate(() => void this.run(key));
  }

  /** Stops every worker and timer (a reconcile under way finishes its current request). */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
  }

  private async run(key: string): Promise<void> {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.running.add(key);
    try {
      await this.reconcile(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.log(`${this.what}: reconciling ${key} failed (attempt ${n}): ${errorText(err)}`);
      this.add(key, Math.min(200 * 2 ** (n - 1), 30_000));
    } finally {
      this.running.delete(key);
      if (this.dirty.delete(key)) this.add(key);
    }
  }
}
