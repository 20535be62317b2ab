/**
 * The shared source's side of the Event backlog's two shortcuts while the Event list is under way:
 * the replay (backlog-replay.ts) and the named list (named-events.ts). Starts both after the
 * traced workload list, routes their Events (never an older version of an Event after a newer one)
 * and the replay's `fresh` proofs to the subscribers, tells the subscribers synced with replayed
 * Events when the list came, the named list covered them or the replay broke, and keeps the Event
 * watch from delivering again what they already delivered.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KindToObject } from '../core/index.js';
import { BacklogReplay, etcdRevision } from './backlog-replay.js';
import { NamedEvents } from './named-events.js';
import { deliverMarker, type SubscriberIndex, type Subscription } from './routing.js';

/** How long after the Deployment list an Event list still under way gets a replay (ms). */
export const REPLAY_AFTER_MS = 50;

/** What the replay needs of its source. */
export interface BacklogHost {
  readonly kc: KubeConfig;
  readonly namespace: string;
  readonly subs: SubscriberIndex;
  /** Delivers an Event change to every subscriber it may concern. */
  route(type: 'upsert' | 'delete', event: KindToObject['Event']): void;
  now(): number;
  /** Looks at every subscriber's sync again. */
  resync(): void;
  /** The traced Deployments' label selector (undefined: every object of the namespace). */
  selector(): string | undefined;
}

/** One source's replay of its Event backlog. */
export class BacklogSync {
  private replay: BacklogReplay | undefined;
  private named: NamedEvents | undefined;
  /** Workloads whose named Events are listed and watched. */
  private readonly namedListed = new Set<string>();
  /** The newest revision delivered of each Event the replay or the named list delivered, by uid. */
  private deliveredAt = new Map<string, bigint>();
  /** The newest revision among them. */
  private deliveredUpTo = -1n;
  private timer: NodeJS.Timeout | undefined;
  private eventsListed = false;
  private stopped = false;

  constructor(private readonly host: BacklogHost) {}

  /**
   * Starts the shortcuts if the Event list is still under way {@link REPLAY_AFTER_MS} after the
   * traced workload list (revision `firstListVersion`): the replay from that revision minus
   * `revisions` (0: no replay; ReplicaSets replayed only for a Deployment, `replicaSets`) and,
   * unless `named` is false, the named list at that revision.
   */
  start(
    firstListVersion: string | undefined,
    shortcuts: { revisions?: number | undefined; named?: boolean | undefined; replicaSets: boolean },
    eventsListed: boolean,
  ): void {
    const since = etcdRevision(firstListVersion);
    const { revisions, named = true } = shortcuts;
    if (since === undefined || (revisions === 0 && !named) || eventsListed || this.timer) return;
    // A list that is quick (most namespaces) needs neither: watches fewer.
    this.timer = setTimeout(() => {
      if (this.eventsListed || this.stopped) return;
      if (revisions !== 0) this.replayFrom(since, revisions, shortcuts.replicaSets);
      if (named) this.listNamed(since);
    }, REPLAY_AFTER_MS);
    this.timer.unref();
  }

  private replayFrom(since: bigint, revisions: number | undefined, replicaSets: boolean): void {
    const { host } = this;
    this.replay = new BacklogReplay(
      host.kc,
      host.namespace,
      since,
      {
        event: (type, e) => this.routeEvent(type, e),
        created: (object) => {
          const fresh = { type: 'fresh', uid: object.metadata?.uid ?? '', at: host.now() } as const;
          const kind = object.kind === 'ReplicaSet' ? 'ReplicaSet' : 'Pod';
          for (const sub of host.subs.interested('upsert', kind, object)) deliverMarker(sub, fresh);
        },
        changed: () => {
          if (this.replay?.isBroken) this.tell('missing');
          host.resync();
        },
      },
      host.subs.skipEventLine,
      host.selector(),
      revisions,
    );
    this.replay.start(replicaSets);
  }

  private listNamed(since: bigint): void {
    const { host } = this;
    this.named = new NamedEvents(
      host.kc,
      host.namespace,
      since,
      {
        event: (type, e) => this.routeEvent(type, e),
        listed: (names) => this.namedDone(names),
      },
      host.subs.skipEventLine,
    );
    this.named.start([...host.subs.all].map((sub) => sub.s.workloadName));
  }

  /** Routes an Event the replay or the named list delivered, unless a newer version of it was. */
  private routeEvent(type: 'upsert' | 'delete', event: KindToObject['Event']): void {
    const uid = event.metadata?.uid;
    const rv = etcdRevision(event.metadata?.resourceVersion);
    if (uid && rv !== undefined) {
      const at = this.deliveredAt.get(uid);
      if (at !== undefined && rv <= at) return;
      this.deliveredAt.set(uid, rv);
      if (rv > this.deliveredUpTo) this.deliveredUpTo = rv;
    }
    this.host.route(type, event);
  }

  /** The named list covers `names`: their subscribers synced with replayed Events now have them listed. */
  private namedDone(names: readonly string[]): void {
    if (this.eventsListed || this.stopped) return;
    for (const name of names) this.namedListed.add(name);
    this.tell('listed', (sub) => this.namedListed.has(sub.s.workloadName));
    this.host.resync();
  }

  /** True while the named list covers the workload `name` (its Events are as good as listed). */
  namedCovers(name: string): boolean {
    return !this.eventsListed && this.namedListed.has(name);
  }

  /** True while the replayed Events are complete up to the Deployment list's revision. */
  get caughtUp(): boolean {
    return !this.eventsListed && (this.replay?.caughtUp ?? false);
  }

  /** Replay watches opened, per kind. */
  get opened(): Record<string, number> {
    const opened: Record<string, number> = { ...this.replay?.opened };
    if (this.named) opened.Event = (opened.Event ?? 0) + this.named.opened;
    return opened;
  }

  /** The Event list is in: the replay stops; subscribers synced with replayed Events are told. */
  listed(): void {
    this.eventsListed = true;
    if (this.timer) clearTimeout(this.timer);
    this.replay?.stop();
    this.named?.stop();
    this.tell('listed');
  }

  /**
   * True when the replay already delivered this version of the Event (the Event watch's copy is not
   * news); forgets the replay once the Event watch is past it.
   */
  delivered(event: KindToObject['Event']): boolean {
    if (this.deliveredAt.size === 0) return false;
    const at = this.deliveredAt.get(event.metadata?.uid ?? '');
    const rv = etcdRevision(event.metadata?.resourceVersion);
    if (at !== undefined && rv !== undefined && rv <= at) return true;
    if (this.eventsListed && rv !== undefined && rv >= this.deliveredUpTo) this.deliveredAt.clear();
    return false;
  }

  /** Re-opens the replay's watches from their last revision (a watch of the source was found silent). */
  resume(): void {
    this.replay?.resume();
    this.named?.resume();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.replay?.stop();
    this.named?.stop();
  }

  /** Tells the subscribers synced with replayed Events (those `which` picks) what became of the backlog. */
  private tell(events: 'listed' | 'missing', which: (sub: Subscription) => boolean = () => true): void {
    for (const sub of [...this.host.subs.all]) {
      if (!sub.replayed || !which(sub)) continue;
      // A broken replay's subscriber still waits for the list's `listed`.
      if (events === 'listed') sub.replayed = false;
      sub.s.onObservation({ type: 'event-backlog', events, at: this.host.now() });
    }
  }
}
