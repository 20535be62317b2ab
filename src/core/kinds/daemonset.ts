/**
 * The DaemonSet: its rule (kubectl's, plus kstatus's observedGeneration presence, which Pulumi
 * uses), its pods (label `pod-template-generation` equal to the DaemonSet's annotation
 * `deprecated.daemonset.template.generation`; the API server sets it to the generation of each
 * template change), its revision (that generation), its success counts, the nodes it runs no pod
 * on, and its words.
 */
import type { V1DaemonSet } from '@kubernetes/client-node';
import { daemonPodNode, noteUncoveredNodes } from '../daemonset-nodes.js';
import { type Emit, phase, phaseEmitted, type Touched } from '../emit.js';
import { canBecomeReady } from '../k8s.js';
import type { EmittedMemo, RolloutState } from '../state.js';
import { daemonSetMaxUnavailable, requiredOf } from '../success.js';
import type { Problem } from '../types.js';
import { DAEMONSET_TEMPLATE_GENERATION_ANNOTATION, POD_TEMPLATE_GENERATION_LABEL, workloadPods } from '../workloads.js';
import { KIND_FACTS } from './facts.js';
import type { KindModule } from './module.js';
import { fewerLivePods, ownedPodsOf, podRuleMembers } from './owned-pods.js';
import { observed, type PodProgress, type PodRuleResult, type RuleReason } from './rule.js';

/** Its pods and revisions: the controller labels each pod with the generation the API server keeps in the annotation. */
const owned = ownedPodsOf({
  templateRevision: (w) => w.metadata?.annotations?.[DAEMONSET_TEMPLATE_GENERATION_ANNOTATION] ?? '',
  podRevision: (pod) => pod.metadata?.labels?.[POD_TEMPLATE_GENERATION_LABEL] ?? '',
});
const workloadRevision = owned.revision;
const currentReady = owned.currentReady;

/**
 * A DaemonSet's rule (kubectl's, plus kstatus's observedGeneration presence, which Pulumi uses):
 * done when the controller observed the latest generation and on every node that should run a pod
 * (`desiredNumberScheduled`, which moves when nodes join or leave) the pod runs the current template
 * and is available. OnDelete with nodes left on the previous template is `blocked`.
 */
export function daemonSetRule(ds: V1DaemonSet): PodRuleResult {
  const s = ds.status;
  const progress: PodProgress = {
    desired: s?.desiredNumberScheduled ?? 0,
    ready: s?.numberReady ?? 0,
    updated: s?.updatedNumberScheduled ?? 0,
    available: s?.numberAvailable ?? 0,
  };
  const at = (state: 'progressing' | 'done' | 'blocked', reason: RuleReason, message: string): PodRuleResult => ({
    state,
    reason,
    message,
    progress,
  });
  if (!observed(ds.metadata, s?.observedGeneration) || s?.desiredNumberScheduled === undefined) {
    return at('progressing', 'NotObserved', 'Waiting for daemon set spec update to be observed...');
  }
  const name = ds.metadata?.name ?? '';
  const { desired, updated, available } = progress;
  if (updated < desired) {
    // Nodes whose pod runs a previous template: under OnDelete only a person deleting it moves them.
    // None (a new DaemonSet, a node that just joined): the controller is still placing current pods.
    const previous = (s.currentNumberScheduled ?? 0) - updated;
    if (ds.spec?.updateStrategy?.type === 'OnDelete' && previous > 0) {
      const message = `OnDelete update strategy: ${previous} of ${desired} nodes still run a pod of the previous template, and the DaemonSet controller replaces a pod only when someone deletes it`;
      return at('blocked', 'OnDelete', message);
    }
    return at(
      'progressing',
      'PodsNotUpdated',
      `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    );
  }
  if (available < desired) {
    return at(
      'progressing',
      'PodsNotAvailable',
      `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
    );
  }
  return at('done', 'RolledOut', `daemon set "${name}" successfully rolled out`);
}

/**
 * The policy's criterion: `full` is the rule's `done`; a count, a share or maxUnavailable (the
 * DaemonSet's own, in nodes) needs that many live pods of the current template Ready, of the nodes
 * that should run one, once the controller observed the latest generation.
 */
function criterionMet(s: RolloutState): boolean {
  const ds = s.workload as V1DaemonSet | undefined;
  if (!ds) return false;
  if (s.policy.success.mode === 'full') return daemonSetRule(ds).state === 'done';
  const desired = ds.status?.desiredNumberScheduled;
  if (!observed(ds.metadata, ds.status?.observedGeneration) || desired === undefined || workloadRevision(s) === '') return false;
  const need = requiredOf(s.policy.success, desired, () => daemonSetMaxUnavailable(ds, desired)) ?? 0;
  return currentReady(s) >= need;
}

/**
 * The nodes whose pod the observations may have removed, or that they may have made untolerated:
 * every node after a sync, a change of the DaemonSet or a pod gone, or when several nodes changed;
 * the node itself when one changed; else none.
 */
function mayUncoverNodes(s: RolloutState, touched: readonly Touched[]): 'all' | string | undefined {
  if (touched.length === 0) return 'all';
  let node: string | undefined;
  for (const t of touched) {
    if (t.kind === 'DaemonSet' || (t.kind === 'Pod' && !s.pods.has(t.name))) return 'all';
    if (t.kind !== 'Node') continue;
    if (node !== undefined && node !== t.name) return 'all';
    node = t.name;
  }
  return node;
}

/** A DaemonSet's phase, once per revision: `updating` while nodes still run a pod of an older template, else `scaling-up` while nodes lack a Ready pod. */
function emitPhases(s: RolloutState, memo: EmittedMemo, emit: Emit, succeeded: boolean): void {
  const ds = s.workload as V1DaemonSet | undefined;
  if (!ds || succeeded || phaseEmitted(memo, 'updating', 'scaling-up')) return;
  const st = ds.status;
  const desired = st?.desiredNumberScheduled ?? 0;
  const updated = st?.updatedNumberScheduled ?? 0;
  if (desired === 0) return;
  const generation = ds.metadata?.generation;
  const older = workloadPods(s).some((p) => {
    const g = p.metadata?.labels?.[POD_TEMPLATE_GENERATION_LABEL];
    return canBecomeReady(p) && g !== undefined && generation !== undefined && Number(g) < generation;
  });
  if (older && updated < desired) {
    phase(
      memo,
      emit,
      'updating',
      `updating the pods of ${desired} nodes to template generation ${generation}: ${updated}/${desired} updated`,
    );
  } else if ((st?.numberReady ?? 0) < desired) {
    phase(memo, emit, 'scaling-up', `creating one pod per node: ${st?.numberReady ?? 0}/${desired} nodes run a ready pod`);
  }
}

/**
 * A DaemonSet pod that cannot be scheduled is its node's: the node it is for is named (its
 * resources, a port, a volume: the scheduler's message says which), so the node without the agent is known.
 */
function withDaemonNode(state: RolloutState, problem: Problem): Problem {
  if (problem.object.kind !== 'Pod' || problem.class !== 'unschedulable') return problem;
  const pod = state.pods.get(problem.object.name);
  const node = pod && daemonPodNode(pod);
  return node ? { ...problem, explanation: `node ${node} cannot run its DaemonSet pod: ${problem.explanation}` } : problem;
}

const rule = (s: RolloutState): PodRuleResult | undefined => (s.workload ? daemonSetRule(s.workload as V1DaemonSet) : undefined);

/**
 * Whether the DaemonSet lacks pods on the nodes it wants: fewer live pods than it schedules, or a
 * status not written for its generation (its controller writes none while its creates fail).
 */
function podsShort(s: RolloutState): boolean {
  const ds = s.workload as V1DaemonSet;
  return (ds.status?.observedGeneration ?? 0) < (ds.metadata?.generation ?? 0) || fewerLivePods(s, ds.status?.desiredNumberScheduled ?? 0);
}

/** The DaemonSet's module. */
export const daemonSetModule: KindModule = {
  ...owned.members,
  facts: KIND_FACTS.DaemonSet,
  emitChanges: (s, memo, emit, touched) => {
    owned.emitRevision(s, memo, emit);
    const which = mayUncoverNodes(s, touched);
    if (which) noteUncoveredNodes(s, memo, owned.current.unordered(s), emit, which);
  },
  ...podRuleMembers(rule),
  objectRule: (w) => daemonSetRule(w as V1DaemonSet),
  criterionMet,
  emitPhases,
  completeMessage: (s, memo) => {
    const p = rule(s)?.progress;
    return `revision ${memo.revision ?? '?'} complete: ${p?.ready ?? 0}/${p?.desired ?? 0} nodes run a ready pod`;
  },
  podsRunOn: true,
  explainProblem: withDaemonNode,
  keepsNodes: true,
  podsShort,
};
