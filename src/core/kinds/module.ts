/**
 * What a workload kind's module gives the one derivation (reducer.ts): its rule, its pods, its
 * revision, its words. Everything else (pod rows, problems and their windows, the settle hold,
 * ended pods, Events, verdicts) is the same for every kind and lives outside the modules.
 */
import type { Emit } from '../emit.js';
import type { SuccessHold } from '../hold.js';
import type { Touched } from '../intake.js';
import type { EmittedMemo, RolloutState } from '../state.js';
import type { Verdict } from '../types.js';
import type { KindFacts } from './facts.js';
import type { JobProgress, PodProgress, RuleResult } from './rule.js';

/** One workload kind, as the derivation reads it. Every member is pure (no I/O, no clock). */
export interface KindModule {
  facts: KindFacts;
  /**
   * Whether there is nothing to judge yet: the object is not there, or only a stale generation of
   * it, or (a Deployment) its controller has not observed it. Emits each `waiting` once.
   */
  waiting(s: RolloutState, memo: EmittedMemo, emit: Emit): boolean;
  /** `revision` / `superseded` on a new template, and the kind's own changes (paused, scaled, conditions; nodes left without a pod). */
  emitChanges(s: RolloutState, memo: EmittedMemo, emit: Emit, touched: Touched | undefined): void;
  /**
   * Rows: of every owned object and pod when first seen, then of what an observation touched.
   * @returns the involved-object names newly ours (their Events are news).
   */
  emitRows(s: RolloutState, memo: EmittedMemo, touched: Touched | undefined, emit: Emit): string[];
  /** The kind's phases (kubespy's for a Deployment); `succeeded`: the criterion is met now. */
  emitPhases(s: RolloutState, memo: EmittedMemo, emit: Emit, succeeded: boolean): void;
  /** `progress` in the kind's words, on change. */
  emitProgress(s: RolloutState, memo: EmittedMemo, emit: Emit): void;
  /** The kind's rule for the current object (undefined before it is seen). */
  rule(s: RolloutState): RuleResult<PodProgress | JobProgress> | undefined;
  /** Whether the policy's success criterion (`full`, a count, a share, maxUnavailable) holds now. */
  criterionMet(s: RolloutState): boolean;
  /** A status that counts more Ready pods than its live pods have (hold.ts `staleReadiness`), if any. */
  staleCount(s: RolloutState): SuccessHold | undefined;
  /** The verdict's counts. */
  replicas(s: RolloutState): Verdict['replicas'];
  /** Progress in words for summaries: `2/3 pods ready`, `7/10 succeeded, 2 running`. */
  progressWords(s: RolloutState): string;
  /** The verdict's fields only this kind has (a Job's {@link Verdict.job} counts). */
  verdictExtra?(s: RolloutState): Partial<Verdict>;
  /** The `complete` phase's message. */
  completeMessage(s: RolloutState, memo: EmittedMemo): string;
  /**
   * Whether a live pod can hold success while it settles (its problem open, or a restart less
   * than `settleSeconds` ago) and whether its ended pods are noted and judged (`pods-ended`):
   * false for a Job, whose pods end by design.
   */
  podsRunOn: boolean;
  /**
   * Whether every object whose older Events could hold or fail this success was created after the
   * Event replay's start revision (`s.fresh`), so its Events are all among the replayed ones
   * (event-backlog.ts): a Deployment's new ReplicaSet and its live pods; a StatefulSet's or
   * DaemonSet's live pods; every pod of a Job.
   */
  replayCovers(s: RolloutState): boolean;
}
