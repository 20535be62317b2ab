/**
 * `--watch`: after the verdict the tracker closes its watches, so the CLI keeps following the
 * Deployments itself (kubespy-style) to show pods being killed and replaced, or relabeled and
 * orphaned, and new revisions. The events come from the core reducer itself, fed the same
 * observations the tracker feeds it, so they are the tracker's events by construction; only its
 * verdict is ignored (the rollout was already judged), so no deadline ticks are needed either.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { KindWatcher, kindApis } from '../cluster/index.js';
import type { Observation, Policy, RolloutEvent, WatchedKind } from '../core/index.js';
import { defaultPolicy, initialState, type RolloutState, reduce } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';

/** A running follower; `stop()` closes every watch. */
export interface Follower {
  stop(): void;
  /** Resolves with a fatal watch error (e.g. forbidden), if one happens. */
  readonly failed: Promise<RolloutTraceError>;
}

/**
 * The kinds the follower watches. Events too, so a later broken rollout shows its warnings; the
 * initial lists (old Events included) only rebuild what the verdict already showed.
 */
const FOLLOWED = ['Deployment', 'ReplicaSet', 'Pod', 'Event'] as const satisfies readonly WatchedKind[];

/** Options of {@link followDeployments}. */
export interface FollowOptions {
  policy?: Policy;
  now?: () => number;
  /** Called once the initial lists are in: from then on every change is reported. */
  onLive?: () => void;
}

/**
 * Follows `names` in `namespace`, calling `emit` for each change after the initial lists (those
 * only rebuild what the verdict already showed).
 */
export function followDeployments(
  kc: KubeConfig,
  namespace: string,
  names: string[],
  emit: (e: RolloutEvent) => void,
  { policy = defaultPolicy(), now = Date.now, onLive }: FollowOptions = {},
): Follower {
  const apis = kindApis(kc);
  let states: RolloutState[] = names.map((name) => initialState({ namespace, name }, policy, now()));
  let live = false;
  const unsynced = new Set<WatchedKind>(FOLLOWED);
  let reportFatal!: (err: RolloutTraceError) => void;
  const failed = new Promise<RolloutTraceError>((resolve) => (reportFatal = resolve));

  const feed = (obs: Observation) => {
    states = states.map((state) => {
      const [next, events] = reduce(state, obs);
      if (live) for (const e of events) if (e.type !== 'verdict') emit(e);
      if (next.verdict === undefined) return next;
      // A reducer with a verdict is final; without it, it keeps reporting changes.
      const { verdict, ...rest } = next;
      return rest;
    });
  };

  const handlers = <K extends (typeof FOLLOWED)[number]>(kind: K) => ({
    change: (type: 'upsert' | 'delete', object: Extract<Observation, { kind: K }>['object']) =>
      feed({ type, kind, object, at: now() } as Observation),
    synced: () => {
      if (!unsynced.delete(kind) || unsynced.size > 0) return;
      feed({ type: 'synced', at: now() });
      live = true;
      onLive?.();
    },
    contact: () => undefined,
    fatal: (err: RolloutTraceError) => reportFatal(err),
  });
  const watchers = [
    new KindWatcher(kc, namespace, apis.Deployment, handlers('Deployment')),
    new KindWatcher(kc, namespace, apis.ReplicaSet, handlers('ReplicaSet')),
    new KindWatcher(kc, namespace, apis.Pod, handlers('Pod')),
    new KindWatcher(kc, namespace, apis.Event, handlers('Event')),
  ];
  for (const w of watchers) w.start();
  return {
    failed,
    stop() {
      for (const w of watchers) w.stop();
    },
  };
}
