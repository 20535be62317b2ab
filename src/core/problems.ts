/** Tracking problems over time and applying the failure policy. */
import type { V1Pod } from '@kubernetes/client-node';
import { classPolicyOf } from './classifiers.js';
import { claimNames, currentPod, currentPods } from './current-pods.js';
import {
  type ClassifierFailure,
  classifyPod,
  diagnoseDeployment,
  diagnoseNode,
  diagnosePaused,
  diagnosePodFindings,
  diagnosePvc,
  diagnoseReplicaSet,
  type Finding,
  type PullKind,
  toProblem,
} from './diagnose/index.js';
import { probeBudgetSeconds } from './diagnose/probe.js';
import { diagnoseEndings } from './ended-pods.js';
import { canBecomeReady, longRunningStatuses } from './k8s.js';
import { moduleOf } from './kinds/index.js';
import { compareProblems, failDeadline } from './policy.js';
import { kubeEventsAbout, newReplicaSet } from './relations.js';
import type { EmittedMemo, RolloutState } from './state.js';
import { tracedDeployment } from './state.js';
import type { Problem } from './types.js';
import { workloadFindings } from './workload-problems.js';
import { kindOf, terminatingUntil } from './workloads.js';

function previousPulls(problems: Readonly<Record<string, Problem>>, pod: string): Record<string, PullKind> {
  const out: Record<string, PullKind> = {};
  for (const p of Object.values(problems)) {
    if (p.object.kind !== 'Pod' || p.object.name !== pod || !p.container) continue;
    const key = `${p.initContainer ? 'init:' : ''}${p.container}`;
    if (p.class === 'image-pull-not-found') out[key] = 'permanent';
    else if (p.class === 'image-pull-transient' && out[key] === undefined) out[key] = 'transient';
  }
  return out;
}

/**
 * Which new-ReplicaSet pods to look at again: `all` of them, or just these names (the rest keep
 * what they had).
 */
export type PodScope = 'all' | readonly string[];

/** The current template's pods in `scope` (a Deployment's new ReplicaSet's, see workloads.ts for the other kinds). */
function scopedPods(state: RolloutState, scope: PodScope): V1Pod[] {
  if (scope === 'all') return currentPods(state);
  return scope.map((name) => currentPod(state, name)).filter((p): p is V1Pod => p !== undefined);
}

/** Updates `memo.notReadySince` for new-ReplicaSet containers (in `scope`) that run but are not ready. */
export function trackNotReady(state: RolloutState, memo: EmittedMemo, at: number, scope: PodScope): void {
  let before = memo.notReadySince;
  if (scope === 'all') memo.notReadySince = {};
  else {
    // Hot path (every pod observation): only the scoped pods' entries are taken out.
    before = {};
    for (const name of scope) {
      const was = memo.notReadySince[name];
      if (was === undefined) continue;
      before[name] = was;
      delete memo.notReadySince[name];
    }
  }
  for (const pod of scopedPods(state, scope)) {
    const name = pod.metadata?.name ?? '';
    let since: Record<string, number> | undefined;
    for (const cs of longRunningStatuses(pod)) {
      if (!cs.state?.running || cs.ready) continue;
      since ??= {};
      since[cs.name] = before[name]?.[cs.name] ?? at;
    }
    if (since) memo.notReadySince[name] = since;
  }
}

function diagnosePods(state: RolloutState, at: number, scope: PodScope, failures: ClassifierFailure[]) {
  const found: Array<{ f: Finding; events: ReturnType<typeof kubeEventsAbout> }> = [];
  const kind = moduleOf(state);
  for (const pod of scopedPods(state, scope)) {
    const name = pod.metadata?.name ?? '';
    const events = kubeEventsAbout(state, 'Pod', name);
    for (const f of diagnosePodFindings(pod, events, at, { previousPull: previousPulls(state.problems, name) })) {
      found.push({ f, events });
    }
    const onNode = diagnoseNode(pod, state.notReadyNodes[pod.spec?.nodeName ?? '']);
    if (onNode) found.push({ f: onNode, events });
    for (const f of kind.podFindings?.(pod) ?? []) found.push({ f, events });
    const custom = classifyPod(pod, events, at, state.policy.classifiers ?? [], tracedDeployment(state));
    for (const f of custom.findings) found.push({ f, events });
    failures.push(...custom.failures);
  }
  return found;
}

/**
 * Every problem present now (new ReplicaSet's pods, the new ReplicaSet, the Deployment, PVCs),
 * built-in and custom, except classes whose action is `ignore`. Pods outside `scope` keep their
 * current problems. Classifiers that threw are appended to `failures`.
 */
export function currentProblems(
  state: RolloutState,
  at: number,
  failures: ClassifierFailure[] = [],
  scope: PodScope = 'all',
): Record<string, Problem> {
  const ref = { namespace: state.target.namespace, name: state.target.name, kind: kindOf(state), facts: state.facts };
  const kind = moduleOf(state);
  const rs = newReplicaSet(state);
  const found = diagnosePods(state, at, scope, failures);
  // A Deployment's own problems come from its conditions (below), not from its rule.
  if (state.workload && !tracedDeployment(state)) found.push(...workloadFound(state));
  if (rs) {
    const events = kubeEventsAbout(state, 'ReplicaSet', rs.metadata?.name ?? '');
    const f = diagnoseReplicaSet(rs, events, () => terminatingUntil(state));
    if (f) found.push({ f, events });
  }
  const ended = diagnoseEndings(state, at);
  if (ended) found.push({ f: ended, events: kubeEventsAbout(state, ended.object.kind, ended.object.name) });
  const deployment = tracedDeployment(state);
  if (deployment) {
    const events = kubeEventsAbout(state, 'Deployment', state.target.name);
    for (const f of [diagnoseDeployment(deployment), diagnosePaused(deployment)]) if (f) found.push({ f, events });
  }
  for (const claim of claimNames(state)) {
    const pvc = state.pvcs.get(claim);
    if (!pvc) continue;
    const events = kubeEventsAbout(state, 'PersistentVolumeClaim', claim);
    const f = diagnosePvc(pvc, events);
    if (f) found.push({ f, events });
  }
  const out: Record<string, Problem> = {};
  if (scope !== 'all') {
    const again = new Set(scope);
    for (const [id, p] of Object.entries(state.problems)) if (p.object.kind === 'Pod' && !again.has(p.object.name)) out[id] = p;
  }
  for (const { f, events } of found) {
    const raw = toProblem(f, ref, events, at);
    const p = kind.explainProblem?.(state, raw) ?? raw;
    if (classPolicyOf(state.policy, p.class).action === 'ignore') continue;
    const prev = state.problems[p.id] ?? earlierPullSighting(state.problems, p);
    out[p.id] = prev ? { ...p, firstSeen: prev.firstSeen, ...stillTransient(prev, p) } : p;
  }
  return out;
}

/** A StatefulSet's, DaemonSet's or Job's own findings. */
function workloadFound(state: RolloutState): Array<{ f: Finding; events: ReturnType<typeof kubeEventsAbout> }> {
  const events = kubeEventsAbout(state, kindOf(state), state.target.name);
  return workloadFindings(state).map((f) => ({ f, events }));
}

/**
 * A create the controller retries (`transient`) stays so until it passes: a quota that terminating
 * pods held is free once they are gone, but the refusal stands until the controller's next retry.
 */
function stillTransient(prev: Problem, p: Problem): Pick<Problem, 'transient' | 'retryBy'> {
  if (p.class !== 'replica-failure' || prev.transient !== true) return {};
  const retryBy = Math.max(prev.retryBy ?? 0, p.retryBy ?? 0);
  return retryBy > 0 ? { transient: true, retryBy } : { transient: true };
}

const PULL_CLASSES = new Set<Problem['class']>(['image-pull-not-found', 'image-pull-transient']);

/**
 * A trace that starts during ImagePullBackOff sees "Back-off pulling image" before the event that
 * says "not found", so the same failing pull can be reclassified; its window still counts from
 * the first sighting.
 */
function earlierPullSighting(problems: Readonly<Record<string, Problem>>, p: Problem): Problem | undefined {
  if (!PULL_CLASSES.has(p.class)) return undefined;
  return Object.values(problems).find(
    (q) =>
      PULL_CLASSES.has(q.class) &&
      q.object.kind === p.object.kind &&
      q.object.name === p.object.name &&
      q.container === p.container &&
      Boolean(q.initContainer) === Boolean(p.initContainer),
  );
}

/** The deadline of a problem in this state (readiness windows use the probe and notReadySince). */
export function deadlineOf(state: RolloutState, p: Problem): number | undefined {
  // A class the kind's controller retries itself (a Job's crashes: its own condition decides), or
  // one its rule does not wait on (a Job's pods need not be Ready).
  if (moduleOf(state).neverFails?.(p)) return undefined;
  if (p.class !== 'readiness-probe') return failDeadline(p, state.policy);
  // A startup probe's failures restart the container: its restarts are the crash loop's to judge.
  if (p.probe?.kind === 'startup') return undefined;
  const pod = state.pods.get(p.object.name);
  const spec = [...(pod?.spec?.initContainers ?? []), ...(pod?.spec?.containers ?? [])].find((c) => c.name === p.container);
  const since = state.memo.notReadySince[p.object.name]?.[p.container ?? ''];
  return failDeadline(p, state.policy, {
    probeBudgetSeconds: probeBudgetSeconds(spec?.readinessProbe),
    ...(since !== undefined ? { notReadySince: since } : {}),
  });
}

/**
 * Problems that fail the rollout at `at`, most relevant first. Scope `all-new-pods` needs every
 * live pod of the new ReplicaSet to have an expired problem of that class; `tolerate: N` needs
 * more than N pods with one.
 */
export function failingProblems(state: RolloutState, at: number): Problem[] {
  const expired = Object.values(state.problems).filter((p) => {
    const d = deadlineOf(state, p);
    return d !== undefined && d <= at;
  });
  if (expired.length === 0) return [];
  const livePods = currentPods(state)
    .filter(canBecomeReady)
    .map((pod) => pod.metadata?.name ?? '');
  const podsWith = (cls: Problem['class']) =>
    new Set(expired.filter((q) => q.class === cls && q.object.kind === 'Pod').map((q) => q.object.name));
  return expired
    .filter((p) => {
      if (p.object.kind !== 'Pod') return true;
      const knobs = classPolicyOf(state.policy, p.class);
      if (knobs.scope === 'any-pod' && !knobs.tolerate) return true;
      const failingPods = podsWith(p.class);
      if (failingPods.size <= (knobs.tolerate ?? 0)) return false;
      return knobs.scope === 'any-pod' || (livePods.length > 0 && livePods.every((n) => failingPods.has(n)));
    })
    .sort(compareProblems);
}

/** Current problems for a verdict: failing ones first, then the rest by relevance. */
export function orderedProblems(state: RolloutState, failing: Problem[]): Problem[] {
  const ids = new Set(failing.map((p) => p.id));
  const rest = Object.values(state.problems)
    .filter((p) => !ids.has(p.id))
    .sort(compareProblems);
  return [...failing, ...rest];
}
