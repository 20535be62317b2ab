/** Tracking problems over time and applying the failure policy. */
import { classPolicyOf } from './classifiers.js';
import {
  type ClassifierFailure,
  classifyPod,
  diagnoseDeployment,
  diagnosePaused,
  diagnosePodFindings,
  diagnosePvc,
  diagnoseReplicaSet,
  type Finding,
  type PullKind,
  toProblem,
} from './diagnose/index.js';
import { probeBudgetSeconds } from './diagnose/probe.js';
import { compareProblems, failDeadline } from './policy.js';
import { eventsAbout, newReplicaSet, podsOf, referencedPvcNames } from './relations.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Problem } from './types.js';

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

/** Updates `memo.notReadySince` for new-ReplicaSet containers that run but are not ready. */
export function trackNotReady(state: RolloutState, memo: EmittedMemo, at: number): void {
  const next: Record<string, number> = {};
  for (const pod of podsOf(state, newReplicaSet(state))) {
    for (const cs of pod.status?.containerStatuses ?? []) {
      if (!cs.state?.running || cs.ready) continue;
      const key = `${pod.metadata?.name}/${cs.name}`;
      next[key] = memo.notReadySince[key] ?? at;
    }
  }
  memo.notReadySince = next;
}

/**
 * Every problem present now (new ReplicaSet's pods, the new ReplicaSet, the Deployment, PVCs),
 * built-in and custom, except classes whose action is `ignore`. Classifiers that threw are
 * appended to `failures`.
 */
export function currentProblems(state: RolloutState, at: number, failures: ClassifierFailure[] = []): Record<string, Problem> {
  const ref = { namespace: state.target.namespace, name: state.target.name };
  const found: Array<{ f: Finding; events: ReturnType<typeof eventsAbout> }> = [];
  const rs = newReplicaSet(state);
  for (const pod of podsOf(state, rs)) {
    const name = pod.metadata?.name ?? '';
    const events = eventsAbout(state, 'Pod', name);
    for (const f of diagnosePodFindings(pod, events, at, { previousPull: previousPulls(state.problems, name) })) {
      found.push({ f, events });
    }
    const custom = classifyPod(pod, events, at, state.policy.classifiers ?? [], state.deployment);
    for (const f of custom.findings) found.push({ f, events });
    failures.push(...custom.failures);
  }
  if (rs) {
    const events = eventsAbout(state, 'ReplicaSet', rs.metadata?.name ?? '');
    const f = diagnoseReplicaSet(rs, events);
    if (f) found.push({ f, events });
  }
  if (state.deployment) {
    const events = eventsAbout(state, 'Deployment', state.target.name);
    for (const f of [diagnoseDeployment(state.deployment), diagnosePaused(state.deployment)]) if (f) found.push({ f, events });
  }
  for (const claim of referencedPvcNames(state.deployment)) {
    const pvc = state.pvcs[claim];
    if (!pvc) continue;
    const events = eventsAbout(state, 'PersistentVolumeClaim', claim);
    const f = diagnosePvc(pvc, events);
    if (f) found.push({ f, events });
  }
  const out: Record<string, Problem> = {};
  for (const { f, events } of found) {
    const p = toProblem(f, ref, events, at);
    if (classPolicyOf(state.policy, p.class).action === 'ignore') continue;
    const prev = state.problems[p.id] ?? earlierPullSighting(state.problems, p);
    out[p.id] = prev ? { ...p, firstSeen: prev.firstSeen } : p;
  }
  return out;
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
  if (p.class !== 'readiness-probe') return failDeadline(p, state.policy);
  const pod = state.pods[p.object.name];
  const spec = pod?.spec?.containers?.find((c) => c.name === p.container);
  const since = state.memo.notReadySince[`${p.object.name}/${p.container}`];
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
  const livePods = podsOf(state, newReplicaSet(state))
    .filter((pod) => !pod.metadata?.deletionTimestamp)
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
