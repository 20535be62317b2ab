/**
 * What a workload kind's module gives the one derivation (reducer.ts): its rule, its pods, its
 * revision, its words. Everything else (pod rows, problems and their windows, the settle hold,
 * ended pods, Events, verdicts) is the same for every kind and lives outside the modules.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Finding } from '../diagnose/index.js';
import type { Emit, Touched } from '../emit.js';
import type { SuccessHold } from '../stale-readiness.js';
import type { EmittedMemo, RolloutState } from '../state.js';
import type { Problem, Verdict } from '../types.js';
import type { Workload } from '../workloads.js';
import type { KindFacts } from './facts.js';
import type { JobProgress, PodProgress, RuleResult } from './rule.js';

/** The pods of a workload that run its current template. */
export interface CurrentPods {
  /** In no order. */
  unordered(s: RolloutState): Iterable<V1Pod>;
  /** Sorted by name. */
  sorted(s: RolloutState): V1Pod[];
  /** The pod `name`, if it is one of them. */
  one(s: RolloutState, name: string): V1Pod | undefined;
  /** A key that changes when the set does (a new ReplicaSet, a new revision); undefined before there is one. */
  key(s: RolloutState): string | undefined;
}

/** One workload kind, as the derivation reads it. Every member is pure (no I/O, no clock). */
export interface KindModule {
  facts: KindFacts;
  /**
   * Whether there is nothing to judge yet: the object is not there, or only a stale generation of
   * it, or (a Deployment) its controller has not observed it. Emits each `waiting` once.
   */
  waiting(s: RolloutState, memo: EmittedMemo, emit: Emit): boolean;
  /** `revision` / `superseded` on a new template, and the kind's own changes (paused, scaled, conditions; nodes left without a pod). */
  emitChanges(s: RolloutState, memo: EmittedMemo, emit: Emit, touched: readonly Touched[]): void;
  /**
   * Rows: of every owned object and pod when first seen, then of what the observations touched.
   * @returns the involved-object names newly ours (their Events are news).
   */
  emitRows(s: RolloutState, memo: EmittedMemo, touched: readonly Touched[], emit: Emit): string[];
  /** The kind's phases (kubespy's for a Deployment); `succeeded`: the criterion is met now. */
  emitPhases(s: RolloutState, memo: EmittedMemo, emit: Emit, succeeded: boolean): void;
  /** `progress` in the kind's words, on change. */
  emitProgress(s: RolloutState, memo: EmittedMemo, emit: Emit): void;
  /** The kind's rule for the current object (undefined before it is seen). */
  rule(s: RolloutState): RuleResult<PodProgress | JobProgress> | undefined;
  /** The kind's rule for an object of the kind (a live object read outside a trace). */
  objectRule(w: Workload): RuleResult<PodProgress | JobProgress>;
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
  /** The revision of the object's current template as the kind names it ('' when it has none: a Job). */
  templateRevision(w: Workload): string;
  /** The revision a pod of the workload was created from ('' when the kind's pods carry none). */
  podRevision(pod: V1Pod): string;
  /** What a verdict's summary calls the rollout when not its revision (`job migrate`). */
  subject?(s: RolloutState): string;
  /** The pods that run the current template (a Deployment's new ReplicaSet's; see workloads.ts). */
  current: CurrentPods;
  /** What kubectl would still wait for, when a trace times out with no problem open. */
  stillWaitingFor(s: RolloutState): string | undefined;
  /** Findings only this kind's pods have, beside the diagnosis every pod gets (a Job's failed pod). */
  podFindings?(pod: V1Pod): Finding[];
  /**
   * A finding of the workload that only a person can clear, read from its pods while its rule says
   * `progressing` (a StatefulSet's forced rollback: a failing pod of a template no longer wanted).
   */
  stuckFinding?(s: RolloutState): Finding | undefined;
  /**
   * Whether this problem never fails the kind on its window, only reported: its controller retries
   * it itself (a Job's crashes, which its backoffLimit judges), or the kind's rule does not wait
   * for what it holds up (a Job's pods need not be Ready).
   */
  neverFails?(p: Problem): boolean;
  /**
   * Whether the kind's controller has fewer live pods than it wants now (a StatefulSet's replicas,
   * a DaemonSet's scheduled nodes, a Job's active pods): its FailedCreate Events are then current.
   * Absent (a Deployment): its ReplicaSets say so themselves.
   */
  podsShort?(s: RolloutState): boolean;
  /** A problem in the kind's words (a DaemonSet pod's node, a StatefulSet's `OrderedReady` wait). */
  explainProblem?(s: RolloutState, p: Problem): Problem;
  /** Whether the pods with a problem are diagnosed again on every observation (their words name the other pods). */
  rediagnosesProblemPods?: boolean;
  /**
   * Until when (ms) the failure `failing` waits for its cause to be seen: a Job failed for its pods,
   * whose status came before theirs (another watch). Undefined, or the member absent: it never waits.
   */
  causeWaitUntil?(s: RolloutState, failing: readonly Problem[]): number | undefined;
  /** Causes a verdict lists for leaving pods whose failure the trace never saw (a Job's, deleted as it failed). */
  unseenExits?(s: RolloutState, known: Problem[]): Problem[];
  /** `hints` without those that cannot work any more (`kubectl logs job/` with no pod left). */
  liveHints?(s: RolloutState, hints: string[]): string[];
  /** The containers whose logs a succeeded verdict shows (a Job's last succeeded pods). */
  successLogContainers?(s: RolloutState): Array<{ pod: string; container: string }>;
  /** Pulumi's own await messages for a failure summary (modelled for the Deployment). */
  pulumiMessages?(s: RolloutState): string[];
  /** Claims the workload's pods mount beyond its template's volumes (a StatefulSet's claim templates). */
  templateClaims?(w: Workload): string[];
  /** Whether its pods are placed per node, so the trace keeps the Nodes (a DaemonSet). */
  keepsNodes?: boolean;
}
