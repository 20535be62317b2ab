/**
 * Deriving a StatefulSet's, DaemonSet's or Job's rollout from the cached objects: the reducer's
 * `derive` for these kinds. The same pod rows, Events, problems and failure policy as a
 * Deployment's; the rolled-out rule, revision and progress words are the kind's (workloads.ts,
 * workload-rules.ts), and so are its own problems (workload-problems.ts).
 */
import { noteUncoveredNodes } from './daemonset-nodes.js';
import { type Emit, emitK8sEvents, emitPod } from './emit.js';
import type { Touched } from './intake.js';
import { failingProblems, orderedProblems } from './problems.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Problem, Verdict } from './types.js';
import { buildVerdict } from './verdict.js';
import { currentPods, kindOf, podRevision, ruleReplicas, workloadPods, workloadRevision, workloadRule } from './workloads.js';

type Draft = { -readonly [K in keyof RolloutState]: RolloutState[K] };

/** What the reducer lends this module (they live in reducer.ts). */
export interface DeriveHelpers {
  /** Recomputes every problem, emits `problem` / `problem-cleared`. */
  updateProblems(s: Draft, memo: EmittedMemo, at: number, emit: Emit): Problem[];
  /** Sets and emits the verdict. */
  finish(s: Draft, emit: Emit, v: Verdict): void;
}

/** No workload yet: `waiting` (not found once synced, or a stale generation), each once. @returns true while waiting. */
function waiting(s: Draft, memo: EmittedMemo, emit: Emit): boolean {
  if (s.workload) return false;
  const kind = kindOf(s);
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

/** `revision` when the current template's revision changes (a StatefulSet's updateRevision, a DaemonSet's template generation). */
function emitWorkloadRevision(s: Draft, memo: EmittedMemo, emit: Emit): void {
  const rev = workloadRevision(s);
  if (rev === '' || rev === memo.revision) return;
  const previous = memo.revision;
  if (previous !== undefined) emit({ type: 'superseded', revision: previous, by: rev });
  emit({
    type: 'revision',
    revision: rev,
    ...(previous !== undefined ? { previous } : {}),
    change: previous === undefined ? 'initial' : 'new',
  });
  memo.revision = rev;
}

/** Pod rows of every pod the workload owns. @returns the pods newly ours (their Events are news). */
function emitWorkloadRows(s: Draft, memo: EmittedMemo, emit: Emit): string[] {
  const opened: string[] = [];
  for (const pod of workloadPods(s)) emitPod(memo, pod, { name: '', revision: podRevision(s, pod) }, s.ownedPods, opened, emit);
  return opened;
}

/** The kind's progress in its own words, on change. */
function emitWorkloadProgress(s: Draft, memo: EmittedMemo, emit: Emit): void {
  const rule = workloadRule(s);
  if (!rule) return;
  const counts = ruleReplicas(rule);
  const key = `${rule.message}|${counts.desired}|${counts.ready}|${counts.updated}|${counts.available}`;
  if (memo.progress === key) return;
  memo.progress = key;
  emit({ type: 'progress', ...counts, message: rule.message });
}

/** Everything an observation changed about a StatefulSet's, DaemonSet's or Job's rollout, then a verdict. */
export function deriveWorkload(s: Draft, memo: EmittedMemo, at: number, emit: Emit, touched: Touched | undefined, h: DeriveHelpers): void {
  if (waiting(s, memo, emit)) return;
  emitWorkloadRevision(s, memo, emit);
  const opened = emitWorkloadRows(s, memo, emit);
  if (kindOf(s) === 'DaemonSet') noteUncoveredNodes(s, memo, currentPods(s), emit);
  emitWorkloadProgress(s, memo, emit);
  emitK8sEvents(s, memo, s.ownedPods, opened, touched, emit);
  h.updateProblems(s, memo, at, emit);
  const failing = failingProblems(s, at);
  if (failing.length > 0) return h.finish(s, emit, buildVerdict(s, { outcome: 'failed', at, problems: orderedProblems(s, failing) }));
  if (workloadRule(s)?.state !== 'done') return;
  h.finish(s, emit, buildVerdict(s, { outcome: 'succeeded', at, problems: orderedProblems(s, []) }));
}
