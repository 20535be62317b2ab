/**
 * Deriving a StatefulSet's, DaemonSet's or Job's rollout from the cached objects: the reducer's
 * `derive` for these kinds. The same pod rows, Events, problems and failure policy as a
 * Deployment's; the rolled-out rule, revision and progress words are the kind's (workloads.ts,
 * workload-rules.ts), and so are its own problems (workload-problems.ts).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { noteUncoveredNodes } from './daemonset-nodes.js';
import { type Emit, emitK8sEvents, emitPod } from './emit.js';
import { emitHold, staleReadiness } from './hold.js';
import type { Touched } from './intake.js';
import { podScope } from './pod-scope.js';
import { failingProblems, orderedProblems, type PodScope } from './problems.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Observation, Problem, Verdict } from './types.js';
import { buildVerdict } from './verdict.js';
import { waitingForObject } from './waiting.js';
import { currentPodsUnordered, kindOf, podRevision, ruleReplicas, workloadPods, workloadRevision, workloadRule } from './workloads.js';

type Draft = { -readonly [K in keyof RolloutState]: RolloutState[K] };

/** What the reducer lends this module (they live in reducer.ts). */
export interface DeriveHelpers {
  /** Recomputes the problems of the pods in `scope` and the workload's, emits `problem` / `problem-cleared`. */
  updateProblems(s: Draft, memo: EmittedMemo, at: number, emit: Emit, scope: PodScope): Problem[];
  /** Sets and emits the verdict. */
  finish(s: Draft, emit: Emit, v: Verdict): void;
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

/**
 * Pod rows: of every pod the workload owns when it is first seen, then of the pod an observation
 * touched. @returns the pods newly ours (their Events are news).
 */
function emitWorkloadRows(s: Draft, memo: EmittedMemo, touched: Touched | undefined, emit: Emit): string[] {
  const opened: string[] = [];
  const uid = s.workload?.metadata?.uid ?? '';
  const row = (pod: V1Pod) => emitPod(memo, pod, { name: '', revision: podRevision(s, pod) }, s.ownedPods, opened, emit);
  if (!memo.walked[uid]) {
    memo.walked[uid] = true;
    for (const pod of workloadPods(s)) row(pod);
  } else if (touched?.kind === 'Pod') {
    const pod = s.podsByReplicaSet.get(uid)?.get(touched.name);
    if (pod) row(pod);
  }
  return opened;
}

/**
 * The nodes whose DaemonSet pod an observation may have removed, or that it may have made
 * untolerated: every node after a sync, a change of the DaemonSet or a pod gone; the node itself
 * when it changed; else none.
 */
function mayUncoverNodes(s: Draft, touched: Touched | undefined): 'all' | string | undefined {
  if (touched === undefined || touched.kind === 'DaemonSet') return 'all';
  if (touched.kind === 'Node') return touched.name;
  return touched.kind === 'Pod' && !s.pods.has(touched.name) ? 'all' : undefined;
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

function workloadOwner(s: Draft): { kind: string; name: string; uid: string } {
  return { kind: kindOf(s), name: s.target.name, uid: s.workload?.metadata?.uid ?? '' };
}

/** The observation a derive follows: its time, itself, and what it touched in the cache. */
export interface DeriveInput {
  at: number;
  obs: Observation;
  touched: Touched | undefined;
}

/** Everything an observation changed about a StatefulSet's, DaemonSet's or Job's rollout, then a verdict. */
export function deriveWorkload(s: Draft, memo: EmittedMemo, input: DeriveInput, emit: Emit, h: DeriveHelpers): void {
  const { at, touched } = input;
  if (waitingForObject(s, memo, emit)) return;
  emitWorkloadRevision(s, memo, emit);
  const opened = emitWorkloadRows(s, memo, touched, emit);
  const uncovered = kindOf(s) === 'DaemonSet' ? mayUncoverNodes(s, touched) : undefined;
  if (uncovered) noteUncoveredNodes(s, memo, currentPodsUnordered(s), emit, uncovered);
  emitWorkloadProgress(s, memo, emit);
  emitK8sEvents(s, memo, s.ownedPods, opened, touched, emit);
  h.updateProblems(s, memo, at, emit, podScope(s, memo, input.obs, touched));
  const failing = failingProblems(s, at);
  // Until the initial lists are in, no failure: the pods that say why may not be listed yet.
  if (failing.length > 0 && !s.synced) return;
  if (failing.length > 0) return h.finish(s, emit, buildVerdict(s, { outcome: 'failed', at, problems: orderedProblems(s, failing) }));
  const rule = workloadRule(s);
  if (rule?.state !== 'done') return;
  // A Job's succeeded pods may be gone (a TTL, a clean-up): its count is its record, not a readiness.
  const stale = kindOf(s) === 'Job' ? undefined : staleReadiness(s, workloadOwner(s), ruleReplicas(rule).ready, workloadPods(s));
  if (stale) return emitHold(stale, memo, emit);
  h.finish(s, emit, buildVerdict(s, { outcome: 'succeeded', at, problems: orderedProblems(s, []) }));
}
