/**
 * A status count against the live pods it counts: success waits while a workload's (or a
 * ReplicaSet's) status counts a Ready pod that is gone or no longer Ready (hold.ts; each kind's
 * `staleCount`).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { canBecomeReady, isPodReady } from './k8s.js';
import type { RolloutState } from './state.js';

/** Why success waits although the criterion is met. */
export interface SuccessHold {
  /** Change key (no times in it): a `held` event is emitted when it changes. */
  key: string;
  message: string;
  pods: string[];
  /** When the hold ends if nothing changes (ms); absent while a problem is open. */
  until?: number;
}

/**
 * A status that counts more Ready pods than are Ready among the live pods it counts: a pod it
 * counted was deleted (a crash-looping pod deleted, an eviction) or stopped being Ready, and its
 * controller has not counted again yet. Success waits for the pods, not for the count (the pods'
 * watch and the owner's are not ordered, so a pod that just became Ready can also show here for a
 * moment). `owner` is the ReplicaSet or workload, `pods` its pods in the cache.
 */
export function staleReadiness(
  state: RolloutState,
  owner: { kind: string; name: string; uid: string },
  counted: number,
  pods: V1Pod[],
): SuccessHold | undefined {
  // With none of its pods seen and none lost (a status alone), there is nothing to check the count against.
  if (pods.length === 0 && !state.memo.readyLost[owner.uid]) return undefined;
  const ready = pods.filter((p) => canBecomeReady(p) && isPodReady(p)).length;
  if (ready >= counted) return undefined;
  const plural = (n: number) => (n === 1 ? '' : 's');
  return {
    key: `stale|${owner.uid}|${counted}|${ready}`,
    message: `${owner.kind} ${owner.name} counts ${counted} Ready pod${plural(counted)}, but ${ready} of its live pods ${ready === 1 ? 'is' : 'are'} Ready (a pod it counted was deleted or is no longer Ready); success waits until its count and its pods agree`,
    pods: [],
  };
}
