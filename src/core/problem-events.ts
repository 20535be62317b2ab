/**
 * Problems as events: the change-only `problem` / `problem-cleared` events of each new set of
 * current problems (problems.ts finds them), and the once-per-classifier warning for a user
 * classifier that threw.
 */
import { classPolicyOf } from './classifiers.js';
import type { ClassifierFailure } from './diagnose/index.js';
import type { Emit } from './emit.js';
import { kubectlHints } from './hints.js';
import { deadlineOf } from './problems.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Problem } from './types.js';
import { kindOf } from './workloads.js';

/**
 * A classifier that threw is the user's bug, not the rollout's: it must never crash or fail the
 * rollout, but it must not go unnoticed either. Reported once per classifier, as a warning.
 */
export function reportClassifierFailures(failures: ClassifierFailure[], memo: EmittedMemo, at: number, emit: Emit): void {
  for (const f of failures) {
    if (memo.classifierFailures[f.classifier] !== undefined) continue;
    const message =
      `classifier "${f.classifier}" ${f.error} (pod ${f.pod}, container "${f.container}"); ` +
      `it is skipped wherever it fails and the rollout is judged without it`;
    memo.classifierFailures[f.classifier] = message;
    emit({
      type: 'k8s-event',
      event: {
        type: 'Warning',
        reason: 'ClassifierFailed',
        message,
        object: `Pod/${f.pod}`,
        count: 1,
        lastSeen: new Date(at).toISOString(),
      },
    });
  }
}

/**
 * Pod problems kept after their pod was deleted, for the verdict: the most recent ones (a Job's
 * failed pods, a crash-looping pod someone deleted). Docs: docs/verdicts.md.
 */
export const MAX_DEPARTED = 5;

/** The pod is gone from the cache, or is being deleted. */
function podDeleted(state: RolloutState, name: string): boolean {
  const pod = state.pods.get(name);
  return pod === undefined || pod.metadata?.deletionTimestamp !== undefined;
}

/**
 * Keeps the problem of a deleted pod in `memo.departed` (the oldest beyond {@link MAX_DEPARTED}
 * is forgotten): its kubectl hints become the ones that still work once the pod is gone.
 * @returns the kept problem.
 */
function keepDeparted(state: RolloutState, memo: EmittedMemo, p: Problem): Problem {
  const ref = { namespace: state.target.namespace, name: state.target.name, kind: kindOf(state) };
  const kept: Problem = { ...p, podDeleted: true, hints: kubectlHints(ref, { kind: 'Pod', name: p.object.name, deleted: true }) };
  memo.departed = [...memo.departed.filter((q) => q.id !== p.id), kept].slice(-MAX_DEPARTED);
  return kept;
}

/**
 * Emits what changed from `previous` to the state's current problems: `problem-cleared` for each
 * that went away, `problem` for each new one or one whose reason, gist or deadline changed (a
 * rising failure count alone is not news). A problem whose pod was deleted while it was open is kept
 * for the verdict (`podDeleted`). @returns the problems that cleared.
 */
export function emitProblemChanges(
  state: RolloutState,
  memo: EmittedMemo,
  previous: Readonly<Record<string, Problem>>,
  at: number,
  emit: Emit,
): Problem[] {
  const next = state.problems;
  const cleared: Problem[] = [];
  for (const [id, p] of Object.entries(previous)) {
    if (next[id]) continue;
    delete memo.problems[id];
    cleared.push(p);
    const departed = p.object.kind === 'Pod' && podDeleted(state, p.object.name);
    const problem = departed ? keepDeparted(state, memo, { ...p, lastSeen: at }) : { ...p, lastSeen: at };
    emit({ type: 'problem-cleared', id, problem });
  }
  for (const p of Object.values(next)) {
    const failsAt = deadlineOf(state, p);
    // A readiness probe's failure count rises every period: not news on its own.
    // Nor is a new pod name in a repeated FailedCreate ("pods \"web-x-abcde\" is forbidden").
    const gist = p.explanation.replace(/\(\d+ failures?\)/, '').replace(/pods "[^"]*"/g, 'pods');
    const key = `${p.reason}|${gist}|${failsAt ?? ''}`;
    if (memo.problems[p.id] === key) continue;
    memo.problems[p.id] = key;
    const tolerated = p.object.kind === 'Pod' ? classPolicyOf(state.policy, p.class).tolerate : undefined;
    emit({
      type: 'problem',
      problem: p,
      ...(failsAt !== undefined ? { failsAt } : {}),
      ...(failsAt !== undefined && tolerated ? { tolerated } : {}),
    });
  }
  return cleared;
}
