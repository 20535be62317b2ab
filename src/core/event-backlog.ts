/**
 * A verdict before the Event backlog is listed. In a namespace with tens of thousands of Events,
 * listing them is one etcd scan that takes most of a second (docs/performance.md, "The Event
 * backlog"); the source can instead replay the Events written since a recent revision R and say
 * which Pods and ReplicaSets were created after R (`fresh`). Every Event about a fresh object was
 * written after it, so it is among the replayed ones. Until the list is in, the core judges only a
 * success whose objects are all fresh (a Deployment's new ReplicaSet and live new pods, a
 * StatefulSet's or DaemonSet's live pods, a Job's pods); any other verdict (a failure, a
 * success that older Events could hold) waits for the list.
 */

import { claimNames } from './current-pods.js';
import { moduleOf } from './kinds/index.js';
import type { RolloutState } from './state.js';
import type { Observation } from './types.js';

type Draft = { -readonly [K in keyof RolloutState]: RolloutState[K] };
type SyncObservation = Extract<Observation, { type: 'synced' | 'event-backlog' | 'fresh' }>;

/** Takes in `synced`, `event-backlog` or `fresh`; returns whether the rollout must be derived again. */
export function takeSync(s: Draft, obs: SyncObservation): boolean {
  switch (obs.type) {
    case 'synced':
      s.synced = true;
      return true;
    case 'event-backlog':
      // Once listed, a late word from the replay changes nothing.
      if (s.eventBacklog !== 'listed' || obs.events === 'replayed') s.eventBacklog = obs.events;
      if (s.eventBacklog === 'listed') s.fresh = new Set();
      return true;
    case 'fresh':
      if (s.eventBacklog === 'listed') return false;
      s.fresh.add(obs.uid);
      return true;
  }
}

/**
 * True when every Event that could hold or fail this success is known: the backlog is listed, or
 * it was replayed and the objects the kind's success depends on are fresh (its module's
 * `replayCovers`; no claims: a PVC's Events are older than the workload's change).
 */
export function successEventsKnown(state: RolloutState): boolean {
  if (state.eventBacklog === 'listed') return true;
  if (state.eventBacklog === 'missing' || claimNames(state).length > 0) return false;
  return moduleOf(state).replayCovers(state);
}
