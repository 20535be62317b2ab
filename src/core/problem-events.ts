/**
 * Problems as events: the change-only `problem` / `problem-cleared` events of each new set of
 * current problems (problems.ts finds them), and the once-per-classifier warning for a user
 * classifier that threw.
 */
import { classPolicyOf } from './classifiers.js';
import { problemCleared, rememberCause } from './departed.js';
import type { ClassifierFailure } from './diagnose/index.js';
import type { Emit } from './emit.js';
import { deadlineOf } from './problems.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Problem } from './types.js';

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
    emit({ type: 'problem-cleared', id, problem: problemCleared(state, memo, { ...p, lastSeen: at }) });
  }
  for (const p of Object.values(next)) {
    rememberCause(memo, p);
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
