/**
 * A quota's refusal and the pods that free it. A quota that refuses the traced workload's pods is
 * freed by any pod of the namespace as it goes: the workload's own old pods, another workload's
 * (a rollout beside it, a Deployment deleted to be replaced with `deleteBeforeReplace`). The
 * trace watches only its own pods, so the tracker lists the namespace's terminating pods while
 * such a refusal is open (`terminating-pods` observations, src/track/quota-holders.ts); those pods
 * make the refusal transient (workloads.ts `terminatingUntil`), and this says how long a refusal
 * that found none waits for a list before it fails.
 */
import { QUOTA_REFUSAL } from './diagnose/index.js';
import { deadlineOf } from './problems.js';
import type { RolloutState } from './state.js';
import type { Problem } from './types.js';

/** Whether `p` is a quota's refusal of the workload's pods (a `replica-failure` whose message says so). */
export function isQuotaRefusal(p: Problem): boolean {
  return p.class === 'replica-failure' && QUOTA_REFUSAL.test(p.message);
}

/** How long a failing quota refusal waits past its deadline for a list taken after it (ms). */
export const QUOTA_LIST_WAIT_MS = 10_000;

/**
 * Until when the failing quota refusals among `failing` wait (ms), or undefined when none does.
 * When the tracker lists the namespace's terminating pods, a refusal fails only on a list taken at
 * or after its deadline (a pod that began terminating since the list before would free the quota),
 * or {@link QUOTA_LIST_WAIT_MS} after the deadline when no such list comes. A trace that never
 * listed (a recording made without lists) decides at the deadline.
 */
export function quotaListWaitUntil(state: RolloutState, failing: readonly Problem[]): number | undefined {
  const listed = state.terminatingListed;
  if (!listed) return undefined;
  let until: number | undefined;
  for (const p of failing) {
    if (!isQuotaRefusal(p)) continue;
    const deadline = deadlineOf(state, p);
    if (deadline === undefined || listed.at >= deadline) continue;
    until = Math.max(until ?? 0, deadline + QUOTA_LIST_WAIT_MS);
  }
  return until;
}
