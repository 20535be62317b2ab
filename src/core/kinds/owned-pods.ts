/**
 * What the kinds that own their pods (StatefulSet, DaemonSet, Job) share: their revision event,
 * their pod rows, their progress line, their success counts and their status's Ready count.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { type Emit, emitPod, type Touched } from '../emit.js';
import { canBecomeReady, isPodReady } from '../k8s.js';
import { type SuccessHold, staleReadiness } from '../stale-readiness.js';
import type { EmittedMemo, RolloutState } from '../state.js';
import type { Verdict } from '../types.js';
import { waitingForObject } from '../waiting.js';
import { kindOf, type Workload, workloadPods } from '../workloads.js';
import type { CurrentPods, KindModule } from './module.js';
import type { JobProgress, PodProgress, RuleResult } from './rule.js';

/** How a kind that owns its pods names revisions: its module's `templateRevision` and `podRevision`. */
export interface OwnedRevisions {
  templateRevision(w: Workload): string;
  podRevision(pod: V1Pod): string;
}

/** The revision of the traced object's current template ('' before it is seen). */
function revisionNow(s: RolloutState, r: OwnedRevisions): string {
  return s.workload ? r.templateRevision(s.workload) : '';
}

/** `revision` when the current template's revision changes (a StatefulSet's updateRevision, a DaemonSet's template generation). */
function emitOwnedRevision(s: RolloutState, memo: EmittedMemo, emit: Emit, r: OwnedRevisions): void {
  const rev = revisionNow(s, r);
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
 * Pod rows: of every pod the workload owns when it is first seen, then of the pods the
 * observations touched. @returns the pods newly ours (their Events are news).
 */
export function emitOwnedRows(
  s: RolloutState,
  memo: EmittedMemo,
  touched: readonly Touched[],
  emit: Emit,
  o: { readyIsRunning?: boolean; podRevision?: (pod: V1Pod) => string } = {},
): string[] {
  const opened: string[] = [];
  const uid = s.workload?.metadata?.uid ?? '';
  const owner = { name: '', revision: '', ...(o.readyIsRunning ? { readyIsRunning: true } : {}) };
  const row = (pod: V1Pod) => emitPod(memo, pod, { ...owner, revision: o.podRevision?.(pod) ?? '' }, s.ownedPods, opened, emit);
  if (!memo.walked[uid]) {
    memo.walked[uid] = true;
    for (const pod of workloadPods(s)) row(pod);
  } else {
    for (const t of touched) {
      const pod = t.kind === 'Pod' ? s.podsByOwner.get(uid)?.get(t.name) : undefined;
      if (pod) row(pod);
    }
  }
  return opened;
}

/** The rule's progress, on change, with its message. */
export function emitRuleProgress(
  memo: EmittedMemo,
  emit: Emit,
  rule: RuleResult<PodProgress | JobProgress> | undefined,
  counts: Verdict['replicas'],
): void {
  if (!rule) return;
  const key = `${rule.message}|${counts.desired}|${counts.ready}|${counts.updated}|${counts.available}`;
  if (memo.progress === key) return;
  memo.progress = key;
  emit({ type: 'progress', ...counts, message: rule.message });
}

/** Live pods of the current template that are Ready (what a partial success counts). */
function currentReady(s: RolloutState, current: CurrentPods): number {
  let n = 0;
  for (const pod of current.unordered(s)) if (canBecomeReady(pod) && isPodReady(pod)) n++;
  return n;
}

/** A pod count of a StatefulSet's or DaemonSet's status against its live Ready pods (hold.ts). */
export function ownedStaleCount(s: RolloutState, counted: number): SuccessHold | undefined {
  const owner = { kind: kindOf(s), name: s.target.name, uid: s.workload?.metadata?.uid ?? '' };
  return staleReadiness(s, owner, counted, workloadPods(s));
}

/** Counts of a StatefulSet's or DaemonSet's rule, as the verdict gives them. */
export function podCounts(p: PodProgress | undefined): Verdict['replicas'] {
  return p
    ? { desired: p.desired, ready: p.ready, updated: p.updated, available: p.available }
    : { desired: 0, ready: 0, updated: 0, available: 0 };
}

/** The members of a StatefulSet's or DaemonSet's module read from its rule's pod counts. */
export function podRuleMembers(rule: (s: RolloutState) => RuleResult<PodProgress> | undefined) {
  return {
    emitProgress: (s, memo, emit) => emitRuleProgress(memo, emit, rule(s), podCounts(rule(s)?.progress)),
    rule,
    staleCount: (s) => ownedStaleCount(s, rule(s)?.progress.ready ?? 0),
    replicas: (s) => podCounts(rule(s)?.progress),
    progressWords: (s) => {
      const p = rule(s)?.progress;
      return p ? `${p.ready}/${p.desired} pods ready, ${p.updated} updated` : 'not seen yet';
    },
    stillWaitingFor: (s) => rule(s)?.message,
  } satisfies Partial<KindModule>;
}

/**
 * Whether every pod the workload owns (live ones only, unless `endedToo`) was created after the
 * Event replay's start revision (see {@link KindModule.replayCovers}).
 */
export function ownedPodsFresh(s: RolloutState, o: { endedToo?: boolean } = {}): boolean {
  const pods = s.podsByOwner.get(s.workload?.metadata?.uid ?? '')?.values() ?? [];
  for (const p of pods) if ((o.endedToo || canBecomeReady(p)) && !s.fresh.has(p.metadata?.uid ?? '')) return false;
  return true;
}

/** Whether the workload owns fewer live pods (not ended, not being deleted) than `wanted`. */
export function fewerLivePods(s: RolloutState, wanted: number): boolean {
  let live = 0;
  for (const p of s.podsByOwner.get(s.workload?.metadata?.uid ?? '')?.values() ?? [])
    if (canBecomeReady(p) && ++live >= wanted) return false;
  return live < wanted;
}

/** Whether `pod` runs `revision` (the object's current one; '' while not known, and for a Job: every pod does). */
function runsRevision(pod: V1Pod, revision: string, r: OwnedRevisions): boolean {
  return revision === '' || r.podRevision(pod) === revision;
}

/** The pods the workload owns that run its current revision. */
function* ownedPods(s: RolloutState, r: OwnedRevisions): Generator<V1Pod> {
  const revision = revisionNow(s, r);
  for (const pod of s.podsByOwner.get(s.workload?.metadata?.uid ?? '')?.values() ?? []) {
    if (runsRevision(pod, revision, r)) yield pod;
  }
}

/**
 * The current template's pods of a kind that owns its pods: those whose revision label
 * ({@link KindModule.podRevision}) is the object's current revision.
 */
function ownedCurrentPods(r: OwnedRevisions): CurrentPods {
  return {
    unordered: (s) => ownedPods(s, r),
    sorted: (s) => [...ownedPods(s, r)].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1)),
    one: (s, name) => {
      const pod = s.podsByOwner.get(s.workload?.metadata?.uid ?? '')?.get(name);
      return pod && runsRevision(pod, revisionNow(s, r), r) ? pod : undefined;
    },
    key: (s) => {
      const uid = s.workload?.metadata?.uid;
      return uid === undefined ? undefined : `${uid}/${revisionNow(s, r)}`;
    },
  };
}

/**
 * What a kind that owns its pods shares, for its revisions: `members` (its module's waiting, rows,
 * Event replay, current pods and revisions) and the helpers its own members call: the revision
 * now, the `revision` event, its current pods and how many of them are Ready.
 */
export function ownedPodsOf(r: OwnedRevisions) {
  const current = ownedCurrentPods(r);
  return {
    current,
    revision: (s: RolloutState) => revisionNow(s, r),
    emitRevision: (s: RolloutState, memo: EmittedMemo, emit: Emit) => emitOwnedRevision(s, memo, emit, r),
    currentReady: (s: RolloutState) => currentReady(s, current),
    members: {
      waiting: waitingForObject,
      emitRows: (s, memo, touched, emit) => emitOwnedRows(s, memo, touched, emit, { podRevision: r.podRevision }),
      replayCovers: (s) => ownedPodsFresh(s),
      current,
      templateRevision: r.templateRevision,
      podRevision: r.podRevision,
    } satisfies Partial<KindModule>,
  };
}
