/** Which ticks can change nothing, so the reducer skips them (the hot path of many traced rollouts). */
import type { V1Pod } from '@kubernetes/client-node';
import { currentPodsUnordered } from './current-pods.js';
import { heldByGate } from './diagnose/pod.js';
import { canBecomeReady, longRunningStatuses } from './k8s.js';
import { moduleOf } from './kinds/index.js';
import type { RolloutState } from './state.js';
import type { Observation } from './types.js';

/**
 * Whether a tick can change nothing: nothing in the state depends on time. Time enters the core
 * only through open problems (their windows), the success hold and settling pods (their ends),
 * restarted new pods (a restart is a crash loop for RECENT_RESTART_MS), running init containers and
 * ready containers behind a readiness gate (reported after INIT_RUNNING_REPORT_MS, GATE_REPORT_MS) and user classifiers (they get `now`); everything else is a function of the objects, already derived by the observation
 * that brought them. A tracker ticks every second: on 200 Deployments those derives were ~2 s of
 * CPU that changed nothing (bench many200).
 */
export function idleTick(s: RolloutState): boolean {
  if (timeMattersBeyondPods(s)) return false;
  for (const pod of currentPodsUnordered(s)) if (hasRestarted(pod) || reportedLater(pod)) return false;
  return true;
}

/** Whether time matters through classifiers, the hold, an open problem or a settling pod (no pod walked). */
function timeMattersBeyondPods(s: RolloutState): boolean {
  if ((s.policy.classifiers?.length ?? 0) > 0 || s.memo.held !== undefined) return true;
  for (const _ in s.problems) return true;
  for (const _ in s.memo.settling) return true;
  return false;
}

/**
 * Whether `pod` waits in a state reported once it lasted long enough, a matter of time alone: an
 * init container running (`init-running`), or ready containers behind a readiness gate (`readiness-gate`).
 */
export function reportedLater(pod: V1Pod): boolean {
  if (pod.status?.phase === 'Pending') return (pod.status.initContainerStatuses ?? []).some((c) => c.state?.running !== undefined);
  return heldByGate(pod);
}

/** A container of `pod` restarted: its diagnosis depends on time (RECENT_RESTART_MS, the settle hold). */
export function hasRestarted(pod: V1Pod): boolean {
  return canBecomeReady(pod) && longRunningStatuses(pod).some((c) => (c.restartCount ?? 0) > 0);
}

/** The key of the workload's current pods (see {@link ticksMatterAfter}): it changes when the set does. */
export function currentPodsKey(s: RolloutState): string | undefined {
  return moduleOf(s).current.key(s);
}

/**
 * Whether a tick may change something after `obs`, when a tick before it found nothing to do
 * ({@link idleTick}) and the current pods' key was `keyBefore`: judged from what `obs` changed,
 * without walking the pods. True wherever {@link idleTick} would be false: a pod's restarts and
 * waits change only with its own observation, the current set only with its key; any other
 * observation than an object's counts as a change.
 */
export function ticksMatterAfter(s: RolloutState, obs: Observation, keyBefore: string | undefined): boolean {
  if (timeMattersBeyondPods(s)) return true;
  if (obs.type !== 'upsert' && obs.type !== 'delete') return true;
  if (obs.kind === 'Pod') return obs.type === 'upsert' && (hasRestarted(obs.object) || reportedLater(obs.object));
  if (obs.kind === 'Event' || obs.kind === 'Node' || obs.kind === 'PersistentVolumeClaim') return false;
  return currentPodsKey(s) !== keyBefore;
}
