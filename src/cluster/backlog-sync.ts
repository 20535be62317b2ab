/**
 * The shared source's side of the Event backlog's replay (backlog-replay.ts): starts it after the
 * Deployment list, routes its Events and `fresh` proofs to the subscribers, tells the subscribers
 * synced with replayed Events when the list came (or the replay broke), and keeps the Event watch
 * from delivering again what the replay already delivered.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KindToObject } from '../core/index.js';
import { BacklogReplay, etcdRevision } from './backlog-replay.js';
import { deliverMarker, type SubscriberIndex } from './routing.js';

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
  private timer: NodeJS.Timeout | undefined;
  private eventsListed = false;
  private stopped = false;

  constructor(private readonly host: BacklogHost) {}

  /**
   * Starts the replay from the traced workload list's revision (`firstListVersion`) minus
   * `revisions` (0: never) if the Event list is still under way {@link REPLAY_AFTER_MS} later;
   * ReplicaSets are replayed only for a Deployment (`replicaSets`).
   */
  start(firstListVersion: string | undefined, revisions: number | undefined, eventsListed: boolean, replicaSets: boolean): void {
    const since = etcdRevision(firstListVersion);
    if (since === undefined || revisions === 0 || eventsListed || this.timer) return;
    // A list that is quick (most namespaces) needs no replay: three watches fewer.
    this.timer = setTimeout(() => this.replayFrom(since, revisions, replicaSets), REPLAY_AFTER_MS);
    this.timer.unref();
  }

  private replayFrom(since: bigint, revisions: number | undefined, replicaSets: boolean): void {
    if (this.eventsListed || this.stopped) return;
    const { host } = this;
    this.replay = new BacklogReplay(
      host.kc,
      host.namespace,
      since,
      {
        event: (type, e) => host.route(type, e),
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

  /** True while the replayed Events are complete up to the Deployment list's revision. */
  get caughtUp(): boolean {
    return !this.eventsListed && (this.replay?.caughtUp ?? false);
  }

  /** Replay watches opened, per kind. */
  get opened(): Record<string, number> {
    return this.replay?.opened ?? {};
  }

  /** The Event list is in: the replay stops; subscribers synced with replayed Events are told. */
  listed(): void {
    this.eventsListed = true;
    if (this.timer) clearTimeout(this.timer);
    this.replay?.stop();
    this.tell('listed');
  }

  /**
   * True when the replay already delivered this version of the Event (the Event watch's copy is not
   * news); forgets the replay once the Event watch is past it.
   */
  delivered(event: KindToObject['Event']): boolean {
    if (!this.replay) return false;
    if (this.replay.hasDelivered(event)) return true;
    const rv = etcdRevision(event.metadata?.resourceVersion);
    if (this.eventsListed && rv !== undefined && rv >= this.replay.lastRevision) this.replay = undefined;
    return false;
  }

  /** Re-opens the replay's watches from their last revision (a watch of the source was found silent). */
  resume(): void {
    this.replay?.resume();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.replay?.stop();
  }

  /** Tells the subscribers synced with replayed Events what became of the backlog (once). */
  private tell(events: 'listed' | 'missing'): void {
    for (const sub of [...this.host.subs.all]) {
      if (!sub.replayed) continue;
      sub.replayed = false;
      sub.s.onObservation({ type: 'event-backlog', events, at: this.host.now() });
    }
  }
}
