/**
 * The Deployment: its rule (kubectl's `rollout status`, one function of the object, as kstatus
 * returns it), its pods (the new ReplicaSet's: relations.ts), its revision (the revision
 * annotation), its success criterion (Pulumi's predicate and the partial modes: success.ts), its
 * phases (kubespy's) and its words. Pulumi's await model is pulumi-await.ts.
 */
import type { V1Deployment } from '@kubernetes/client-node';
import { emitDeploymentChanges, emitPhases, emitProgress, emitRevision, emitRows } from '../emit.js';
import { canBecomeReady, deploymentCondition, revisionOf } from '../k8s.js';
import { replicaSetReadiness } from '../pulumi-await.js';
import { pulumiErrorMessages } from '../pulumi-messages.js';
import { newReplicaSet, podOf, podsOf, replicaSetOfRevision, trackedPvcs } from '../relations.js';
import { rolloutGap } from '../rolled-out.js';
import { type SuccessHold, staleReadiness } from '../stale-readiness.js';
import type { RolloutState } from '../state.js';
import { tracedDeployment } from '../state.js';
import { criterionMet } from '../success.js';
import type { Verdict } from '../types.js';
import { waitingForDeployment } from '../waiting.js';
import { KIND_FACTS } from './facts.js';
import type { CurrentPods, KindModule } from './module.js';
import { observed, type PodProgress, type RuleResult } from './rule.js';

/** The result of {@link deploymentRule}. */
export type DeploymentRuleResult = RuleResult<PodProgress>;

/**
 * A Deployment's rule, kubectl's (`DeploymentStatusViewer.Status`) with kstatus's reasons: failed
 * when the controller says its progress deadline passed; blocked while paused with the template
 * not rolled out; done when the controller observed the latest generation, every desired pod runs
 * the current template, no old pod is left and the updated pods are available. The tracker's
 * success also needs Pulumi's predicate and the new ReplicaSet itself Ready (success.ts).
 */
export function deploymentRule(d: V1Deployment): DeploymentRuleResult {
  const s = d.status;
  const name = d.metadata?.name ?? '';
  const progress: PodProgress = {
    desired: d.spec?.replicas ?? 1,
    ready: s?.readyReplicas ?? 0,
    updated: s?.updatedReplicas ?? 0,
    available: s?.availableReplicas ?? 0,
  };
  const at = (state: 'progressing' | 'done' | 'blocked', reason: DeploymentRuleResult['reason'], message: string): DeploymentRuleResult =>
    ({ state, reason, message, progress }) as DeploymentRuleResult;
  if (!observed(d.metadata, s?.observedGeneration))
    return at('progressing', 'NotObserved', 'Waiting for deployment spec update to be observed...');
  const deadline = deploymentCondition(d, 'Progressing');
  if (deadline?.reason === 'ProgressDeadlineExceeded') {
    return {
      state: 'failed',
      reason: 'ProgressDeadlineExceeded',
      message: `deployment "${name}" exceeded its progress deadline`,
      progress,
    };
  }
  const gap = rolloutGap(d, 'complete');
  if (gap === undefined) return at('done', 'RolledOut', `deployment "${name}" successfully rolled out`);
  if (d.spec?.paused === true) return at('blocked', 'Paused', `deployment "${name}" is paused (spec.paused: true) and ${gap}`);
  const { desired, updated, available } = progress;
  const total = s?.replicas ?? 0;
  if (updated < desired) {
    return at(
      'progressing',
      'PodsNotUpdated',
      `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${desired} new replicas have been updated...`,
    );
  }
  if (total > updated) {
    return at(
      'progressing',
      'OldPodsPending',
      `Waiting for deployment "${name}" rollout to finish: ${total - updated} old replicas are pending termination...`,
    );
  }
  return at(
    'progressing',
    'PodsNotAvailable',
    `Waiting for deployment "${name}" rollout to finish: ${available} of ${updated} updated replicas are available...`,
  );
}

const rule = (s: RolloutState): DeploymentRuleResult | undefined => {
  const d = tracedDeployment(s);
  return d ? deploymentRule(d) : undefined;
};

/** A Deployment's current pods: its new ReplicaSet's (relations.ts). */
const currentPods: CurrentPods = {
  unordered: (s) => s.podsByOwner.get(newReplicaSet(s)?.metadata?.uid ?? '')?.values() ?? [],
  sorted: (s) => podsOf(s, newReplicaSet(s)),
  one: (s, name) => podOf(s, newReplicaSet(s), name),
  key: (s) => newReplicaSet(s)?.metadata?.uid,
};

/** Replica counts for the verdict and progress events. */
export function replicaCounts(state: RolloutState): Verdict['replicas'] {
  const d = tracedDeployment(state);
  const rs = newReplicaSet(state);
  return {
    desired: d?.spec?.replicas ?? 1,
    ready: rs?.status?.readyReplicas ?? 0,
    updated: d?.status?.updatedReplicas ?? 0,
    available: d?.status?.availableReplicas ?? 0,
  };
}

/** Pulumi's sub-error lines for the current state. */
export function pulumiMessagesOf(state: RolloutState): string[] {
  const rs = replicaSetOfRevision(state, state.pulumi.revision);
  return pulumiErrorMessages(state.pulumi, trackedPvcs(state), podsOf(state, rs));
}

/** The new ReplicaSet's Ready count against its live pods ({@link staleReadiness}). */
export function staleReplicaSet(state: RolloutState): SuccessHold | undefined {
  const rs = newReplicaSet(state);
  if (!rs) return undefined;
  const owner = { kind: 'ReplicaSet', name: rs.metadata?.name ?? '', uid: rs.metadata?.uid ?? '' };
  return staleReadiness(state, owner, replicaSetReadiness(rs).ready, podsOf(state, rs));
}

/** The Deployment's module. */
export const deploymentModule: KindModule = {
  facts: KIND_FACTS.Deployment,
  waiting: waitingForDeployment,
  emitChanges: (s, memo, emit) => {
    emitRevision(s, memo, emit);
    emitDeploymentChanges(s, memo, emit);
  },
  emitRows: (s, memo, touched, emit) => emitRows(s, memo, s.ownedPods, touched, emit),
  emitPhases,
  emitProgress,
  rule,
  objectRule: (w) => deploymentRule(w as V1Deployment),
  criterionMet,
  staleCount: staleReplicaSet,
  replicas: replicaCounts,
  progressWords: (s) => {
    const r = replicaCounts(s);
    return `${r.ready}/${r.desired} pods ready`;
  },
  completeMessage: (s, memo) => {
    const rs = newReplicaSet(s);
    const counts = rs ? replicaSetReadiness(rs) : { ready: 0, spec: 0 };
    return `revision ${memo.revision ?? '?'} complete: ${counts.ready}/${counts.spec} pods ready`;
  },
  podsRunOn: true,
  current: currentPods,
  // Its revision is the annotation; its pods carry their ReplicaSet's (a row names it).
  templateRevision: revisionOf,
  podRevision: () => '',
  stillWaitingFor: (s) => {
    const d = tracedDeployment(s);
    return d ? rolloutGap(d, 'complete') : undefined;
  },
  pulumiMessages: pulumiMessagesOf,
  replayCovers: (s) => {
    const rs = newReplicaSet(s);
    if (!rs || !s.fresh.has(rs.metadata?.uid ?? '')) return false;
    return podsOf(s, rs).every((p) => !canBecomeReady(p) || s.fresh.has(p.metadata?.uid ?? ''));
  },
};
