/**
 * Routing of a shared source's objects to its subscribers: an index by Deployment name over the
 * names an object can carry (`web`, `web-<hash>`, `web-<hash>-<id>`), so routing costs O(1) in the
 * number of traced Deployments; {@link mayConcern} still decides exactly.
 */
import type { KindToObject, ObjectObservation, Observation, WatchedKind } from '../core/index.js';
import { ownsItsPods } from '../core/index.js';
import type { LineMayWait } from './line-watch.js';
import { isRoutinePodEvent, mayConcern, routinePodEventLineVersion } from './relevance.js';
import type { SourceSubscriber } from './subscriber.js';
import { mayWaitForBatch } from './waiting-lines.js';

/** One subscriber of a source and its delivery state. */
export interface Subscription {
  readonly s: SourceSubscriber;
  synced: boolean;
  /** Per kind, the list count to wait for before `synced` (a re-list for a late subscriber). */
  lists?: Partial<Record<WatchedKind, number>>;
  /** Observations held until `synced`, delivered as one snapshot (see {@link snapshotOf}). */
  pending: Observation[];
  /** Synced with replayed Events (see backlog-replay.ts): `event-backlog` `listed` is still to come. */
  replayed?: boolean;
}

/** The subscriptions of one source, indexed by Deployment name. */
export class SubscriberIndex {
  /** Every subscription. */
  readonly all = new Set<Subscription>();
  private readonly byName = new Map<string, Set<Subscription>>();
  /** Subscribers that asked for a pod's routine Normal Events. */
  private routine = 0;
  /** Subscribers whose success criterion is partial: no workload or ReplicaSet line waits for them. */
  private partial = 0;

  /** Adds `sub` under its Deployment name. */
  add(sub: Subscription): void {
    if (this.all.has(sub)) return;
    this.all.add(sub);
    if (sub.s.routinePodEvents === true) this.routine++;
    if (sub.s.partialSuccess === true) this.partial++;
    const named = this.byName.get(sub.s.workloadName) ?? new Set();
    named.add(sub);
    this.byName.set(sub.s.workloadName, named);
  }

  /** Removes `sub`. */
  remove(sub: Subscription): void {
    if (!this.all.delete(sub)) return;
    if (sub.s.routinePodEvents === true) this.routine--;
    if (sub.s.partialSuccess === true) this.partial--;
    const named = this.byName.get(sub.s.workloadName);
    named?.delete(sub);
    if (named?.size === 0) this.byName.delete(sub.s.workloadName);
  }

  /** Forgets every subscription. */
  clear(): void {
    this.all.clear();
    this.routine = 0;
    this.partial = 0;
    this.byName.clear();
  }

  /**
   * The Event watch lines to pass over unparsed: a pod's routine Normal Event, unless some
   * subscriber asked for them (see {@link routinePodEventLineVersion}).
   */
  readonly skipEventLine = (line: string): string | undefined => (this.routine > 0 ? undefined : routinePodEventLineVersion(line));

  /**
   * Which lines of `kind`'s watch may wait for the next batch ({@link mayWaitForBatch}), none
   * while some subscriber's success criterion is partial.
   */
  lineMayWait(kind: WatchedKind): LineMayWait {
    return (type, object) => this.partial === 0 && mayWaitForBatch(kind, type, object);
  }

  /** The names of the Deployments traced right now. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** True when some subscriber traces Deployment `name`. */
  traces(name: string | undefined): boolean {
    return name !== undefined && this.byName.has(name);
  }

  /** The subscriptions `object` may concern, found by the Deployment names its name can carry. */
  interested(type: 'upsert' | 'delete', kind: WatchedKind, object: KindToObject[WatchedKind]): Subscription[] {
    const out: Subscription[] = [];
    this.visit(type, kind, object, (sub) => {
      out.push(sub);
      return false;
    });
    return out;
  }

  /** Whether `object` may concern some subscription ({@link interested} without the list). */
  concernsSome(type: 'upsert' | 'delete', kind: WatchedKind, object: KindToObject[WatchedKind]): boolean {
    return this.visit(type, kind, object, () => true);
  }

  /** Calls `found` with each subscription `object` may concern until it returns true; returns whether one did. */
  private visit(
    type: 'upsert' | 'delete',
    kind: WatchedKind,
    object: KindToObject[WatchedKind],
    found: (sub: Subscription) => boolean,
  ): boolean {
    const names = workloadNamesOf(kind, object);
    if (names === 'any') {
      for (const sub of this.all) if (concerns(sub, type, kind, object) && found(sub)) return true;
      return false;
    }
    for (const name of names) {
      const subs = this.byName.get(name);
      if (subs) for (const sub of subs) if (concerns(sub, type, kind, object) && found(sub)) return true;
    }
    return false;
  }
}

/**
 * Whether `object` may concern `sub` ({@link mayConcern}); a pod's routine Normal Events only
 * concern a subscriber that asked for them ({@link SourceSubscriber.routinePodEvents}).
 */
function concerns(sub: Subscription, type: 'upsert' | 'delete', kind: WatchedKind, object: KindToObject[WatchedKind]): boolean {
  if (!mayConcern(sub.s.workloadName, type, kind, object, sub.s.kind)) return false;
  return kind !== 'Event' || type === 'delete' || sub.s.routinePodEvents === true || !isRoutinePodEvent(object as KindToObject['Event']);
}

/** Delivers `obs` to `sub` if it may concern it: at once once synced, else held for the snapshot. */
export function deliverTo(sub: Subscription, obs: ObjectObservation): void {
  if (!concerns(sub, obs.type, obs.kind, obs.object)) return;
  if (sub.synced) sub.s.onObservation(obs);
  else sub.pending.push(obs);
}

/**
 * The initial snapshot is delivered dependents first and the Deployment last, so the core's first
 * look at the Deployment already sees its ReplicaSets and pods (e.g. a re-used ReplicaSet that
 * marks a rollback) whatever order the lists completed in.
 */
const SNAPSHOT_ORDER: Record<WatchedKind, number> = {
  Node: 0,
  ReplicaSet: 0,
  Pod: 1,
  PersistentVolumeClaim: 2,
  Event: 3,
  Deployment: 4,
  StatefulSet: 4,
  DaemonSet: 4,
  Job: 4,
};

/** Delivers an observation about no object (`fresh`, `event-backlog`): at once once synced, else held. */
export function deliverMarker(sub: Subscription, obs: Observation): void {
  if (sub.synced) sub.s.onObservation(obs);
  else sub.pending.push(obs);
}

/**
 * Marks `sub` synced and delivers `prelude` (if any), what was held for it as one snapshot stamped
 * `at`, then `synced`; stops as soon as `subscribed()` turns false (it left, or the source closed).
 */
export function deliverSnapshot(sub: Subscription, at: number, subscribed: () => boolean, prelude?: Observation): void {
  sub.synced = true;
  const snapshot = snapshotOf(sub.pending, at);
  sub.pending = [];
  for (const obs of prelude ? [prelude, ...snapshot] : snapshot) {
    if (!subscribed()) return;
    sub.s.onObservation(obs);
  }
  if (subscribed()) sub.s.onObservation({ type: 'synced', at });
}

/** The held observations in snapshot order (stable within a kind), all stamped `at`. */
function snapshotOf(pending: readonly Observation[], at: number): Observation[] {
  return pending
    .map((obs, i) => ({ obs, i }))
    .sort((a, b) => rank(a.obs) - rank(b.obs) || a.i - b.i)
    .map(({ obs }) => ({ ...obs, at }) as Observation);
}

/**
 * The Deployment names an object's name can belong to (`web`, `web-<hash>`, `web-<hash>-<id>`), or
 * `any` when it can concern every Deployment (PVCs, pods and ReplicaSets without a controller).
 */
function workloadNamesOf(kind: WatchedKind, object: KindToObject[WatchedKind]): string[] | 'any' {
  const owners = object.metadata?.ownerReferences ?? [];
  switch (kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return [object.metadata?.name ?? ''];
    case 'PersistentVolumeClaim':
    case 'Node':
      return 'any';
    case 'Event': {
      const involved = (object as KindToObject['Event']).involvedObject;
      return involved?.kind === 'PersistentVolumeClaim' ? 'any' : prefixesOf(involved?.name ?? '');
    }
    case 'ReplicaSet': {
      const owner = owners.find((r) => r.kind === 'Deployment')?.name;
      if (owner === undefined) return 'any';
      // Each name once (a Deployment's own ReplicaSet carries its owner's name as a prefix).
      const prefixes = prefixesOf(object.metadata?.name ?? '');
      return prefixes.includes(owner) ? prefixes : [owner, ...prefixes];
    }
    case 'Pod': {
      const rs = owners.find((r) => r.kind === 'ReplicaSet')?.name;
      if (rs !== undefined) return prefixesOf(rs);
      // A StatefulSet's, DaemonSet's or Job's own pod: routed by its owner's name.
      const owner = owners.find((r) => ownsItsPods(r.kind))?.name;
      return owner === undefined ? 'any' : [owner];
    }
  }
}

/** `a-b-c` → `a-b-c`, `a-b`, `a`. */
function prefixesOf(name: string): string[] {
  const out = [name];
  for (let i = name.lastIndexOf('-'); i > 0; i = name.lastIndexOf('-', i - 1)) out.push(name.slice(0, i));
  return out;
}

function rank(obs: Observation): number {
  return 'kind' in obs ? SNAPSHOT_ORDER[obs.kind] : 5;
}
