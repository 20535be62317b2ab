/** `waiting` events: nothing to judge yet, each said once. */
import type { Emit } from './emit.js';
import type { EmittedMemo, RolloutState } from './state.js';
import { tracedDeployment } from './state.js';
import { kindOf } from './workloads.js';

/**
 * Whether the traced object is not there yet: not found once the lists are synced, or only a stale
 * generation of it. Emits each `waiting` once. @returns true while there is none.
 */
export function waitingForObject(s: RolloutState, memo: EmittedMemo, emit: Emit): boolean {
  const kind = kindOf(s);
  if (s.workload) return false;
  if (s.staleGeneration !== undefined) {
    if (memo.reconcilingGeneration !== s.staleGeneration) {
      memo.reconcilingGeneration = s.staleGeneration;
      emit({
        type: 'waiting',
        reason: 'controller-reconciling',
        message: `waiting for generation ${s.target.minGeneration ?? '?'} of the ${kind} (seen generation ${s.staleGeneration})`,
      });
    }
  } else if (s.synced && !memo.notFound) {
    memo.notFound = true;
    emit({ type: 'waiting', reason: 'not-found', message: `${kind} ${s.target.namespace}/${s.target.name} not found` });
  }
  return true;
}

/**
 * Whether there is nothing to judge yet for a Deployment: it is not there ({@link waitingForObject}),
 * or its controller has not observed its generation. Emits each `waiting` once.
 */
export function waitingForDeployment(s: RolloutState, memo: EmittedMemo, emit: Emit): boolean {
  const d = tracedDeployment(s);
  if (waitingForObject(s, memo, emit) || !d) return true;
  if (s.pulumi.reconciled) return false;
  const gen = d.metadata?.generation ?? 0;
  if (memo.reconcilingGeneration !== gen) {
    memo.reconcilingGeneration = gen;
    emit({
      type: 'waiting',
      reason: 'controller-reconciling',
      message: `waiting for the Deployment controller to observe generation ${gen} (observed ${d.status?.observedGeneration ?? 'none'})`,
    });
  }
  return true;
}
