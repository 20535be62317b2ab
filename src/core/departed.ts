/**
 * The causes of pods that are gone: a pod deleted while its problem was open (a failed Job's
 * active pods removed by the Job controller, an eviction, a scale-down, `kubectl delete`), or
 * between two crashes, keeps that problem for the verdict (`podDeleted`), so a failed or timed-out
 * verdict still says which container failed and why. Kept per revision: a verdict lists only the
 * causes seen in the revision it judges. Docs: docs/verdicts.md.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { kubectlHints } from './hints.js';
import type { CauseSeen, EmittedMemo, RolloutState } from './state.js';
import type { Problem } from './types.js';

/** Causes kept for pods that are gone: the most recent ones. */
export const MAX_DEPARTED = 5;

/** The pod is gone from the cache, or is being deleted. */
function podLeaving(state: RolloutState, name: string): boolean {
  const pod = state.pods.get(name);
  return pod === undefined || pod.metadata?.deletionTimestamp !== undefined;
}

/** Whether the pod `name` has an open problem. */
export function hasOpenProblem(state: RolloutState, name: string): boolean {
  return Object.values(state.problems).some((p) => p.object.kind === 'Pod' && p.object.name === name);
}

/** `p` as a problem of a deleted pod: its kubectl hints are the ones that still work once the pod is gone. */
export function asDeleted(state: RolloutState, p: Problem): Problem {
  const ref = { namespace: state.target.namespace, name: state.target.name, facts: state.facts };
  return { ...p, podDeleted: true, hints: kubectlHints(ref, { kind: 'Pod', name: p.object.name, deleted: true }) };
}

function keep(state: RolloutState, memo: EmittedMemo, p: Problem): Problem {
  const kept = asDeleted(state, p);
  const seen: CauseSeen = { problem: kept, ...(memo.revision !== undefined ? { revision: memo.revision } : {}) };
  memo.departed = [...memo.departed.filter((c) => c.problem.id !== p.id), seen].slice(-MAX_DEPARTED);
  delete memo.podCauses[p.object.name];
  return kept;
}

/** A current pod problem with an exit code is remembered as its pod's latest cause. */
export function rememberCause(memo: EmittedMemo, p: Problem): void {
  if (p.object.kind !== 'Pod' || p.exitCode === undefined) return;
  memo.podCauses[p.object.name] = { problem: p, ...(memo.revision !== undefined ? { revision: memo.revision } : {}) };
}

/** A problem that cleared: kept (and returned marked `podDeleted`) when its pod is leaving. */
export function problemCleared(state: RolloutState, memo: EmittedMemo, p: Problem): Problem {
  return p.object.kind === 'Pod' && podLeaving(state, p.object.name) ? keep(state, memo, p) : p;
}

/** A traced pod was deleted: its final state, as the delete showed it, is kept (`departedPods`). */
export function keepDepartedPod(memo: EmittedMemo, pod: V1Pod): void {
  const name = pod.metadata?.name ?? '';
  memo.departedPods = [...memo.departedPods.filter((p) => p.metadata?.name !== name), pod].slice(-MAX_DEPARTED);
}

/**
 * A traced pod was deleted: its latest cause is kept unless a problem of it is still open (that
 * one is kept as it clears).
 */
export function podDeparted(state: RolloutState, memo: EmittedMemo, name: string, at: number): void {
  const cause = memo.podCauses[name];
  if (!cause) return;
  delete memo.podCauses[name];
  if (cause.revision === memo.revision && !hasOpenProblem(state, name)) keep(state, memo, { ...cause.problem, lastSeen: at });
}

/**
 * The causes a verdict lists after its open problems: those kept for pods of its revision that are
 * gone, and the latest crash of each pod being deleted now (the Job controller deletes a failed
 * Job's pods as it marks it failed) that has no open problem, then `unseen`: causes the kind adds
 * for those known (its module's `unseenExits`).
 */
export function departedProblems(state: RolloutState, unseen?: (known: Problem[]) => Problem[]): Problem[] {
  const { memo } = state;
  const out = memo.departed.filter((c) => c.revision === memo.revision).map((c) => c.problem);
  for (const [name, cause] of Object.entries(memo.podCauses)) {
    if (cause.revision !== memo.revision || !podLeaving(state, name) || hasOpenProblem(state, name)) continue;
    if (!out.some((p) => p.id === cause.problem.id)) out.push(asDeleted(state, cause.problem));
  }
  if (unseen) out.push(...unseen(out));
  return out.slice(-MAX_DEPARTED);
}
