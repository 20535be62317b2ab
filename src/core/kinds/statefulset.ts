/**
 * The StatefulSet: its rule (kubectl's and Pulumi's, one function of the object), its pods (label
 * `controller-revision-hash` equal to `status.updateRevision`, the controller's own test), its
 * revision (`updateRevision`), its success counts and its words.
 */
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { type Emit, phase, phaseEmitted } from '../emit.js';
import { canBecomeReady, isPodReady } from '../k8s.js';
import type { EmittedMemo, RolloutState } from '../state.js';
import { requiredOf } from '../success.js';
import type { Problem } from '../types.js';
import { CONTROLLER_REVISION_HASH_LABEL, workloadPods } from '../workloads.js';
import { KIND_FACTS } from './facts.js';
import type { KindModule } from './module.js';
import { fewerLivePods, ownedPodsOf, podRuleMembers } from './owned-pods.js';
import { observed, type PodProgress, type PodRuleResult, type RuleReason } from './rule.js';
import { forcedRollbackFinding, isOrderedReady, ordinalOf, withForcedRollbackHints } from './statefulset-forced-rollback.js';

export { isOrderedReady } from './statefulset-forced-rollback.js';

/** Its pods and revisions; the controller's own test: `getPodRevision(pod) == updateRevision.Name`. */
const owned = ownedPodsOf({
  templateRevision: (w) => (w as V1StatefulSet).status?.updateRevision ?? '',
  podRevision: (pod) => pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '',
});
const workloadRevision = owned.revision;
const currentReady = owned.currentReady;
const currentPods = (s: RolloutState): V1Pod[] => owned.current.sorted(s);

/** A StatefulSet's pod counts; `updated` counts the pods at `updateRevision` (all current pods once the revisions match). */
function stsProgress(sts: V1StatefulSet): PodProgress {
  const s = sts.status;
  const ready = s?.readyReplicas ?? 0;
  const sameRevision = !!s?.currentRevision && s.currentRevision === s.updateRevision;
  const updated = sameRevision ? Math.max(s?.updatedReplicas ?? 0, s?.currentReplicas ?? 0) : (s?.updatedReplicas ?? 0);
  return { desired: sts.spec?.replicas ?? 1, ready, updated, available: s?.availableReplicas ?? ready };
}

/**
 * A StatefulSet's rule. Done when the controller observed the latest generation, every desired pod
 * is Ready and no extra pod is left, and: RollingUpdate with a partition P > 0, the `replicas - P`
 * ordinals at or above P run the current template (kubectl's rule); RollingUpdate without one, every
 * pod runs it and `currentRevision == updateRevision` (Pulumi's rule); OnDelete, every pod runs it,
 * else `blocked` (the controller replaces a pod only when it is deleted). The rule reads the object
 * alone; the state its pods put it in, a forced rollback that needs a person to delete a pod, is
 * the module's `stuckFinding` (statefulset-forced-rollback.ts).
 */
export function statefulSetRule(sts: V1StatefulSet): PodRuleResult {
  const progress = stsProgress(sts);
  const at = (state: 'progressing' | 'done' | 'blocked', reason: RuleReason, message: string): PodRuleResult => ({
    state,
    reason,
    message,
    progress,
  });
  const s = sts.status;
  if (!observed(sts.metadata, s?.observedGeneration))
    return at('progressing', 'NotObserved', 'Waiting for statefulset spec update to be observed...');
  const { desired, ready, updated } = progress;
  if (ready < desired) return at('progressing', 'PodsNotReady', `Waiting for ${desired - ready} pods to be ready...`);
  const extra = (s?.replicas ?? 0) - desired;
  if (extra > 0)
    return at('progressing', 'ExtraPods', `Waiting for statefulset rollout to finish: ${extra} extra pods are pending termination...`);
  const strategy = sts.spec?.updateStrategy;
  if (strategy?.type === 'OnDelete') {
    if (updated >= desired)
      return at('done', 'RolledOut', `statefulset update complete: ${updated} pods run the current template (OnDelete)`);
    const old = desired - updated;
    return at(
      'blocked',
      'OnDelete',
      `OnDelete update strategy: ${old} of ${desired} pods still run the previous template, and the StatefulSet controller replaces a pod only when someone deletes it`,
    );
  }
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  if (partition > 0) {
    const target = Math.max(0, desired - partition);
    if (updated < target) {
      return at(
        'progressing',
        'PodsNotUpdated',
        `Waiting for partitioned roll out to finish: ${updated} out of ${target} new pods have been updated...`,
      );
    }
    return at('done', 'PartitionRolledOut', `partitioned roll out complete: ${updated} new pods have been updated...`);
  }
  const revision = s?.updateRevision ?? '';
  if (updated < desired)
    return at(
      'progressing',
      'PodsNotUpdated',
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${revision}...`,
    );
  if (!s?.currentRevision || s.currentRevision !== s.updateRevision) {
    return at(
      'progressing',
      'RevisionNotCurrent',
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${revision}...`,
    );
  }
  return at('done', 'RolledOut', `statefulset rolling update complete ${updated} pods at revision ${revision}...`);
}

/** The StatefulSet's pods that a partial criterion may count: the ordinals at or above its partition. */
function updatableReplicas(sts: V1StatefulSet): number {
  const desired = sts.spec?.replicas ?? 1;
  const strategy = sts.spec?.updateStrategy;
  if (strategy?.type === 'OnDelete') return desired;
  return Math.max(0, desired - (strategy?.rollingUpdate?.partition ?? 0));
}

/**
 * The policy's criterion: `full` is the rule's `done`; a count or a share needs that many live
 * pods of the current template Ready (at most the ordinals at or above a partition), once the
 * controller observed the latest generation.
 */
function criterionMet(s: RolloutState): boolean {
  const sts = s.workload as V1StatefulSet | undefined;
  if (!sts) return false;
  if (s.policy.success.mode === 'full') return statefulSetRule(sts).state === 'done';
  if (!observed(sts.metadata, sts.status?.observedGeneration) || workloadRevision(s) === '') return false;
  const need = requiredOf(s.policy.success, sts.spec?.replicas ?? 1, () => 1) ?? 0;
  return currentReady(s) >= Math.min(need, updatableReplicas(sts));
}

/** The StatefulSet's live pods by ordinal (`<name>-<ordinal>`). */
function podsByOrdinal(s: RolloutState): Map<number, V1Pod> {
  const prefix = `${s.target.name}-`;
  const out = new Map<number, V1Pod>();
  for (const pod of workloadPods(s)) {
    const name = pod.metadata?.name ?? '';
    const ordinal = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : Number.NaN;
    if (Number.isInteger(ordinal) && canBecomeReady(pod)) out.set(ordinal, pod);
  }
  return out;
}

/** Whether the StatefulSet rolls out a new revision (`currentRevision` not yet `updateRevision`), rather than creating pods. */
function isUpdating(sts: V1StatefulSet): boolean {
  const st = sts.status;
  return !!st?.updateRevision && st.currentRevision !== st.updateRevision;
}

/**
 * The pod the StatefulSet controller works on next, by name: while it rolls out a new revision,
 * the highest ordinal (at or above the partition) not Ready at `updateRevision`; else the lowest
 * ordinal not Ready. Undefined when none is left.
 */
export function nextOrdinal(s: RolloutState): string | undefined {
  const sts = s.workload as V1StatefulSet | undefined;
  if (!sts) return undefined;
  const desired = sts.spec?.replicas ?? 1;
  const pods = podsByOrdinal(s);
  const revision = sts.status?.updateRevision;
  const done = (o: number, current: boolean) => {
    const pod = pods.get(o);
    return !!pod && isPodReady(pod) && (!current || pod.metadata?.labels?.['controller-revision-hash'] === revision);
  };
  if (isUpdating(sts)) {
    const partition = sts.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let o = desired - 1; o >= partition; o--) if (!done(o, true)) return `${s.target.name}-${o}`;
    return undefined;
  }
  for (let o = 0; o < desired; o++) if (!done(o, false)) return `${s.target.name}-${o}`;
  return undefined;
}

/**
 * A StatefulSet's phase, once per revision: `updating` (pods replaced from the highest ordinal
 * down) or `scaling-up` (ordinals created in order, or all at once), naming the next ordinal.
 */
function emitPhases(s: RolloutState, memo: EmittedMemo, emit: Emit, succeeded: boolean): void {
  const sts = s.workload as V1StatefulSet | undefined;
  if (!sts || succeeded || phaseEmitted(memo, 'updating', 'scaling-up')) return;
  if (!observed(sts.metadata, sts.status?.observedGeneration)) return;
  const { progress } = statefulSetRule(sts);
  const next = nextOrdinal(s);
  const then = next ? `; next: ${next}` : '';
  if (isUpdating(sts)) {
    const strategy = sts.spec?.updateStrategy;
    const partition = strategy?.rollingUpdate?.partition ?? 0;
    const how =
      strategy?.type === 'OnDelete'
        ? 'a pod at a time as each is deleted (OnDelete)'
        : `${partition > 0 ? `ordinals ${partition} and above` : 'every ordinal'}, from the highest down`;
    const revision = sts.status?.updateRevision ?? '?';
    phase(memo, emit, 'updating', `updating to revision ${revision} ${how}: ${progress.updated}/${progress.desired} updated${then}`);
  } else if (progress.ready < progress.desired) {
    const how = isOrderedReady(sts) ? 'one ordinal at a time, in order' : 'all at once (Parallel)';
    phase(memo, emit, 'scaling-up', `creating pods ${how}: ${progress.ready}/${progress.desired} ready${then}`);
  }
}

/**
 * Under `OrderedReady` (the default), a failing pod holds every other ordinal: the controller
 * creates or replaces one pod at a time, and only once the previous one is Ready. Says so in the
 * explanation of each pod problem of a failing class.
 */
function withOrderedReadyWait(state: RolloutState, problem: Problem): Problem {
  const sts = state.workload as V1StatefulSet | undefined;
  if (!sts || !isOrderedReady(sts) || problem.object.kind !== 'Pod') return problem;
  if (state.policy.classes[problem.class as keyof typeof state.policy.classes]?.action !== 'fail') return problem;
  const ordinal = ordinalOf(sts, problem.object.name);
  const replicas = sts.spec?.replicas ?? 1;
  if (ordinal === undefined || replicas < 2) return problem;
  const name = sts.metadata?.name ?? '';
  const current = new Set(currentPods(state).map((p) => p.metadata?.name));
  const waiting = Array.from({ length: replicas }, (_, i) => `${name}-${i}`).filter((n, i) => i !== ordinal && !current.has(n));
  if (waiting.length === 0) return problem;
  const wait = `; ${waiting.join(', ')} ${waiting.length === 1 ? 'waits' : 'wait'} for it: podManagementPolicy OrderedReady creates or updates one pod at a time, each once the previous one is Ready`;
  return { ...problem, explanation: `${problem.explanation.replace(/\.$/, '')}${wait}` };
}

/** The claims of its `volumeClaimTemplates`, one per ordinal: `<template>-<name>-<ordinal>`. */
function templateClaims(sts: V1StatefulSet): string[] {
  const out: string[] = [];
  const replicas = sts.spec?.replicas ?? 1;
  for (const t of sts.spec?.volumeClaimTemplates ?? []) {
    for (let i = 0; i < replicas; i++) out.push(`${t.metadata?.name ?? ''}-${sts.metadata?.name ?? ''}-${i}`);
  }
  return out;
}

const rule = (s: RolloutState): PodRuleResult | undefined => (s.workload ? statefulSetRule(s.workload as V1StatefulSet) : undefined);

/** The StatefulSet's module. */
export const statefulSetModule: KindModule = {
  ...owned.members,
  facts: KIND_FACTS.StatefulSet,
  emitChanges: owned.emitRevision,
  ...podRuleMembers(rule),
  objectRule: (w) => statefulSetRule(w as V1StatefulSet),
  criterionMet,
  emitPhases,
  progressWords: (s) => {
    const p = rule(s)?.progress;
    if (!p) return 'not seen yet';
    const next = p.ready < p.desired || p.updated < p.desired ? nextOrdinal(s) : undefined;
    return `${p.ready}/${p.desired} pods ready, ${p.updated} updated${next ? `; waiting for ${next}` : ''}`;
  },
  completeMessage: (s, memo) => {
    const p = rule(s)?.progress;
    return `revision ${memo.revision ?? '?'} complete: ${p?.ready ?? 0}/${p?.desired ?? 0} pods ready`;
  },
  podsRunOn: true,
  explainProblem: (s, p) => withForcedRollbackHints(s, withOrderedReadyWait(s, p)),
  // A failing pod of a template no longer wanted, which OrderedReady never replaces.
  stuckFinding: forcedRollbackFinding,
  // Their OrderedReady wait names the ordinals that exist, and the replicas.
  rediagnosesProblemPods: true,
  templateClaims: (w) => templateClaims(w as V1StatefulSet),
  podsShort: (s) => fewerLivePods(s, (s.workload as V1StatefulSet).spec?.replicas ?? 1),
};
