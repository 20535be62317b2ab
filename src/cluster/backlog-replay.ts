/**
 * The Event backlog's replay. In a namespace with tens of thousands of Events, the Event list is
 * one etcd scan of all of them: most of a second before the first verdict (docs/performance.md,
 * "The Event backlog"). Beside that list, this opens watches from a recent revision R (the
 * Deployment list's revision minus {@link REPLAY_REVISIONS}):
 * - Events from R: etcd replays what was written since, so the cost follows the cluster's recent
 *   writes, not the namespace's size. Once a line at or past the Deployment list's revision came,
 *   every Event written since R up to then has been delivered (a watch is in revision order).
 * - Pods and ReplicaSets from R, with the traced Deployments' label selector when one is known
 *   (served by the watch cache, which sends only what matches; namespace-wide while a traced
 *   Deployment is missing): one ADDED with a controller was created after R (see
 *   the note where it calls `created`). Every Event about it was written after it, so it is among the replayed
 *   ones.
 * The source turns these into `event-backlog` and `fresh` observations (src/core/event-backlog.ts
 * decides what may be judged with them) and stops the replay once the Event list is in.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KindToObject } from '../core/index.js';
import { type LineSkip, LineWatch } from './line-watch.js';
import { isControlled, notAddedLineVersion } from './relevance.js';
import { abortWith, runSideWatch } from './side-watch.js';
import { streamOnce, type WatchEnd, type WatchEventType } from './watch-stream.js';

/** How far back (in etcd revisions) the replay starts before the Deployment list's revision. */
export const REPLAY_REVISIONS = 1000;

type ReplayKind = 'Event' | 'Pod' | 'ReplicaSet';

/** What the replay tells its source. */
export interface BacklogReplayHandlers {
  /** A replayed Event change. */
  event(type: 'upsert' | 'delete', event: KindToObject['Event']): void;
  /** A Pod or ReplicaSet created after R. */
  created(object: KindToObject['Pod'] | KindToObject['ReplicaSet']): void;
  /** The Events caught up with the start revision, or the replay broke: look at the subscribers again. */
  changed(): void;
}

/** A resourceVersion as a number (etcd's revision), or undefined if it is not one. */
export function etcdRevision(resourceVersion: string | undefined): bigint | undefined {
  return resourceVersion && /^\d{1,19}$/.test(resourceVersion) ? BigInt(resourceVersion) : undefined;
}

/**
 * The oldest revision a watch cache keeps, from kube-apiserver's 410 answer to an older watch:
 * `too old resource version: 30489 (31012)` (the second number: the oldest kept, minus one).
 */
export function oldestKept(message: string | undefined): bigint | undefined {
  const m = /too old resource version: \d+ \((\d+)\)/.exec(message ?? '');
  return m ? BigInt(m[1] as string) : undefined;
}

/** The replay watches of one namespace; see the module comment. */
export class BacklogReplay {
  /** Watches opened, per kind. */
  readonly opened: Record<ReplayKind, number> = { Event: 0, Pod: 0, ReplicaSet: 0 };
  private highest = -1n;
  /** Lines each watch read before the Events caught up. */
  private readonly lines: Record<ReplayKind, number> = { Event: 0, Pod: 0, ReplicaSet: 0 };
  /** Each kind's open watch. */
  private readonly watches = new Map<ReplayKind, AbortController>();
  /** Kinds whose watch was cut by {@link resume}, to be re-opened at once. */
  private readonly resuming = new Set<ReplayKind>();
  /** Probes stopped for reading too much (no more `created` from them). */
  private readonly givenUp = new Set<ReplayKind>();
  private broken = false;
  private stopped = false;
  private readonly lifetime = new AbortController();
  private readonly watch: LineWatch;

  constructor(
    kc: KubeConfig,
    private readonly namespace: string,
    /** The Deployment list's revision: the Events are complete once the replay passed it. */
    private readonly since: bigint,
    private readonly handlers: BacklogReplayHandlers,
    private readonly skipEventLine: LineSkip,
    /** The traced Deployments' label selector (undefined: the Pod and ReplicaSet watches see the whole namespace). */
    private readonly labelSelector: string | undefined,
    private readonly revisions = REPLAY_REVISIONS,
    /**
     * Lines each watch may read before the Events caught up: at most one per revision replayed,
     * and the writes while it catches up; far more means the apiserver replays from elsewhere than
     * asked. Bounded, whatever it does.
     */
    private readonly lineBudget = 2 * revisions + 2000,
  ) {
    this.watch = new LineWatch(kc);
  }

  /** Opens the watches from R: Events, Pods, and ReplicaSets unless `replicaSets` is false (no Deployment traced). */
  start(replicaSets = true): void {
    const from = this.since > BigInt(this.revisions) ? this.since - BigInt(this.revisions) : 1n;
    const ns = encodeURIComponent(this.namespace);
    void this.run('Event', `/api/v1/namespaces/${ns}/events`, from, this.skipEventLine);
    void this.run('Pod', `/api/v1/namespaces/${ns}/pods`, from, notAddedLineVersion);
    if (replicaSets) void this.run('ReplicaSet', `/apis/apps/v1/namespaces/${ns}/replicasets`, from, notAddedLineVersion);
  }

  /** True while every Event written since R up to the start revision has been delivered, and more come. */
  get caughtUp(): boolean {
    return !this.broken && !this.stopped && this.highest >= this.since;
  }

  /** True once the Event replay failed for good (its Events may have a gap). */
  get isBroken(): boolean {
    return this.broken;
  }

  /** Re-opens the open watches from their last revision, at once (a watch of the source was found silent). */
  resume(): void {
    for (const [kind, controller] of this.watches) {
      this.resuming.add(kind);
      controller.abort();
    }
  }

  /** Closes the watches (what was delivered stays known to {@link hasDelivered}). */
  stop(): void {
    this.stopped = true;
    this.lifetime.abort();
  }

  private async run(kind: ReplayKind, path: string, from: bigint, skip: LineSkip): Promise<void> {
    let version = from;
    let expiries = 0;
    const ended = await runSideWatch({
      stopped: () => this.stopped || this.givenUp.has(kind),
      once: () =>
        this.watchOnce(kind, path, version, skip, (rv) => {
          version = rv;
        }),
      takeResume: () => this.resuming.delete(kind),
      retryGone: (end) => {
        const later = kind === 'Event' ? undefined : this.laterStart(end.message, expiries++);
        if (later === undefined || later <= version) return false;
        version = later;
        return true;
      },
      signal: this.lifetime.signal,
    });
    if (ended === 'gave-up' && kind === 'Event') {
      this.broken = true;
      this.handlers.changed();
    }
  }

  /**
   * Where a Pod or ReplicaSet watch starts again when the watch cache no longer reaches back to
   * where it asked: the oldest revision the cache keeps, then (a busy cache moves on meanwhile) the
   * start revision; undefined: give up. Later than R is sound: what was created after it is younger
   * than R too; only fewer objects are proven fresh.
   */
  private laterStart(message: string | undefined, expiries: number): bigint | undefined {
    if (expiries === 0) return oldestKept(message) ?? this.since;
    return expiries === 1 ? this.since : undefined;
  }

  private watchOnce(kind: ReplayKind, path: string, from: bigint, skip: LineSkip, at: (rv: bigint) => void): Promise<WatchEnd> {
    return streamOnce<ReplayKind>(
      this.watch,
      path,
      { resourceVersion: from.toString(), timeoutSeconds: 60, skip, labelSelector: kind === 'Event' ? undefined : this.labelSelector },
      {
        live: () => !this.stopped,
        heard: () => undefined,
        event: (type, obj) => {
          if (this.givenUp.has(kind)) return;
          if (!this.caughtUp && ++this.lines[kind] > this.lineBudget) return this.overBudget(kind);
          const rv = etcdRevision(obj?.metadata?.resourceVersion);
          if (rv !== undefined) at(rv);
          if (kind === 'Event') this.onEvent(type, obj as KindToObject['Event'], rv);
          // A label-selected watch also says ADDED for an object whose labels start to match. A Pod
          // or ReplicaSet its controller created carries the controller's ownerReference from its
          // creation on; one relabeled into the selector is an orphan (or another controller's) at
          // that moment, adopted only in a later write. So ADDED with a controller is a creation.
          else if (type === 'ADDED' && isControlled(obj)) this.handlers.created(obj as KindToObject['Pod']);
        },
        accepted: (controller) => {
          this.opened[kind]++;
          this.watches.set(kind, controller);
          abortWith(controller, this.lifetime.signal);
        },
        ended: () => {
          this.watches.delete(kind);
        },
      },
    );
  }

  /** Too much before catching up: the Events count as broken (the verdict waits for the list); a probe just stops. */
  private overBudget(kind: ReplayKind): void {
    if (kind === 'Event') {
      this.broken = true;
      this.stop();
      this.handlers.changed();
    } else {
      this.givenUp.add(kind);
      this.watches.get(kind)?.abort();
    }
  }

  private onEvent(type: WatchEventType, event: KindToObject['Event'], rv: bigint | undefined): void {
    if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') {
      this.handlers.event(type === 'DELETED' ? 'delete' : 'upsert', event);
    }
    if (rv === undefined || rv <= this.highest) return;
    const before = this.caughtUp;
    this.highest = rv;
    if (!before && this.caughtUp) this.handlers.changed();
  }
}
