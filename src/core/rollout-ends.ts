/**
 * How a rollout ends outside its kind's rule: its workload deleted, the tracker's timeout, a
 * cancel. Pure, like the reducer that calls them.
 */
import { kubectlHints } from './hints.js';
import { moduleOf } from './kinds/index.js';
import { failingProblems, orderedProblems } from './problems.js';
import type { RolloutState } from './state.js';
import type { Observation, Problem, Verdict } from './types.js';
import { buildVerdict } from './verdict.js';
import { kindOf } from './workloads.js';

/** The problem of a workload deleted while its rollout was tracked. */
export function deletedProblem(s: RolloutState, at: number): Problem {
  const kind = kindOf(s);
  const ref = { namespace: s.target.namespace, name: s.target.name, kind, facts: s.facts };
  return {
    id: `workload-deleted/${kind}/${s.target.name}`,
    class: 'workload-deleted',
    object: { kind, name: s.target.name },
    reason: 'Deleted',
    message: `${kind} ${s.target.namespace}/${s.target.name} was deleted`,
    explanation: `the ${kind} was deleted while its rollout was being tracked`,
    firstSeen: at,
    lastSeen: at,
    events: [],
    hints: kubectlHints(ref, { kind, name: ref.name, deleted: true }),
  };
}

/**
 * The verdict of the tracker's `timeout` or `cancel`: the rollout ends now, whatever its state. A
 * timeout while a decided failure only waits for its pods' cause (`causeWaitUntil`) gives that
 * failure: the rollout did not run out of time, it had failed.
 */
export function stopped(s: RolloutState, obs: Extract<Observation, { type: 'timeout' | 'cancel' }>): Verdict {
  const { at } = obs;
  const failing = failingProblems(s, at);
  const problems = orderedProblems(s, failing);
  if (obs.type === 'cancel') return buildVerdict(s, { outcome: 'cancelled', at, problems, ...(obs.reason ? { reason: obs.reason } : {}) });
  // Waiting for its cause, or done waiting with no tick since: decided either way.
  const decided = failing.length > 0 && moduleOf(s).causeWaitUntil?.(s, failing) !== undefined;
  if (s.synced && s.eventBacklog === 'listed' && decided) return buildVerdict(s, { outcome: 'failed', at, problems });
  return buildVerdict(s, {
    outcome: 'timed-out',
    at,
    problems,
    timeoutSeconds: obs.timeoutSeconds,
    timeoutKind: obs.timeoutKind ?? 'overall',
  });
}
