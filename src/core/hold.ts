/**
 * The success hold: a crash loop is never a success. When the success criterion is met but a
 * new-revision pod has an open failing-class problem, or has not stayed Ready for
 * `policy.settleSeconds` since such a problem cleared (or since its container restarted), success
 * waits. The hold ends when the pods settle, or the problem's window fails the rollout. A healthy
 * rollout (no restart, no problem on its new pods) is never held.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { classPolicyOf } from './classifiers.js';
import { currentPod, currentPodsUnordered } from './current-pods.js';
import { firstLine } from './diagnose/first-line.js';
import type { Emit } from './emit.js';
import { formatDuration, formatWindow } from './format-duration.js';
import { canBecomeReady, eventTime, isPodReady, longRunningStatuses, timeOf } from './k8s.js';
import type { KindModule } from './kinds/module.js';
import { deadlineOf } from './problems.js';
import { kubeEventsAbout } from './relations.js';
import type { SuccessHold } from './stale-readiness.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Problem } from './types.js';
import { problemLine } from './verdict.js';

/** The live pods of the current template (a Deployment's new ReplicaSet's, a StatefulSet's update revision's...). */
function livePods(state: RolloutState): V1Pod[] {
  return [...currentPodsUnordered(state)].filter(canBecomeReady);
}

/** A fail-action problem on a live new-revision pod whose window has not run out. */
function holdsSuccess(state: RolloutState, p: Problem, live: ReadonlySet<string>, at: number): boolean {
  if (p.object.kind !== 'Pod' || !live.has(p.object.name)) return false;
  if (classPolicyOf(state.policy, p.class).action !== 'fail') return false;
  const deadline = deadlineOf(state, p);
  // Past its window without failing the rollout (tolerate, scope): the policy lets it pass.
  return deadline === undefined || deadline > at;
}

/** A container that stopped and was restarted (a Deployment's pods always restart): its current run's start. */
function restartedAt(cs: V1ContainerStatus): number | undefined {
  if ((cs.restartCount ?? 0) < 1 || !cs.lastState?.terminated) return undefined;
  return timeOf(cs.state?.running?.startedAt);
}

function restartClassFails(state: RolloutState, cs: V1ContainerStatus): boolean {
  const cls = cs.lastState?.terminated?.reason === 'OOMKilled' ? 'oom-killed' : 'crash-loop';
  return classPolicyOf(state.policy, cls).action === 'fail';
}

/**
 * Updates `memo.settling` (pod -> when it has settled): a holding problem that cleared on a live
 * pod starts its settle time; a settling pod seen not Ready starts it again; gone or settled pods
 * are dropped. Call after the problems of this observation are known, with the ones that cleared.
 */
export function trackSettling(state: RolloutState, memo: EmittedMemo, cleared: Problem[], at: number): void {
  const settling = Object.entries(memo.settling);
  if (settling.length === 0 && cleared.length === 0) return; // the usual case: nothing to look up
  const settleMs = state.policy.settleSeconds * 1000;
  // Looked up by name (not a walk of every pod): this runs on every observation.
  const live = (name: string) => {
    const pod = currentPod(state, name);
    return pod && canBecomeReady(pod) ? pod : undefined;
  };
  const next: Record<string, number> = {};
  for (const [name, until] of settling) {
    const pod = live(name);
    if (!pod || until <= at) continue;
    next[name] = isPodReady(pod) ? until : at + settleMs;
  }
  for (const p of cleared) {
    if (p.object.kind !== 'Pod' || !live(p.object.name)) continue;
    if (classPolicyOf(state.policy, p.class).action !== 'fail') continue;
    next[p.object.name] = Math.max(next[p.object.name] ?? 0, at + settleMs);
  }
  memo.settling = next;
}

/** Pods still settling at `at`: from `memo.settling` and from containers that restarted recently. */
function settlingPods(state: RolloutState, at: number, live: readonly V1Pod[]): Array<{ pod: string; until: number; why: string }> {
  const settleMs = state.policy.settleSeconds * 1000;
  const out: Array<{ pod: string; until: number; why: string }> = [];
  for (const pod of live) {
    const name = pod.metadata?.name ?? '';
    let until = state.memo.settling[name] ?? 0;
    let why = 'recovered from a problem';
    for (const cs of longRunningStatuses(pod)) {
      const started = restartedAt(cs);
      if (started === undefined || !restartClassFails(state, cs) || started + settleMs <= until) continue;
      until = started + settleMs;
      const t = cs.lastState?.terminated;
      const restarts = cs.restartCount === 1 ? '1 restart' : `${cs.restartCount} restarts`;
      why = `container "${cs.name}" restarted after it ${t?.reason === 'OOMKilled' ? 'was OOM-killed' : `exited with code ${t?.exitCode ?? '?'}`} (${restarts})`;
    }
    const failing = lastLivenessFailure(state, name);
    if (failing && failing.at + settleMs > until) {
      until = failing.at + settleMs;
      why = `is failing its liveness probe (${failing.message}): the kubelet will restart it`;
    }
    if (until > at) out.push({ pod: name, until, why });
  }
  return out;
}

/**
 * The pod's latest `Unhealthy` "Liveness probe failed" Warning: a Ready pod whose liveness probe
 * fails is about to be killed and restarted, so it has not settled (flapping readiness).
 */
function lastLivenessFailure(state: RolloutState, pod: string): { at: number; message: string } | undefined {
  let latest: { at: number; message: string } | undefined;
  for (const e of kubeEventsAbout(state, 'Pod', pod)) {
    if (e.reason !== 'Unhealthy' || !/^Liveness probe failed/.test(e.message ?? '')) continue;
    const at = eventTime(e);
    if (!latest || at > latest.at) latest = { at, message: firstLine(e.message ?? '', 80) ?? 'Liveness probe failed' };
  }
  return latest;
}

function morePods(n: number): string {
  return n > 0 ? ` (and ${n} more pod${n === 1 ? '' : 's'})` : '';
}

/**
 * Why success is held at `at`, or undefined when it is not. `staleCount`: the kind's status count
 * against its live pods (its module's). A kind whose pods end by design (a Job) is held by nothing
 * but its count.
 */
export function successHold(state: RolloutState, at: number, kind: Pick<KindModule, 'staleCount' | 'podsRunOn'>): SuccessHold | undefined {
  if (!kind.podsRunOn) return kind.staleCount(state);
  const settle = formatWindow(state.policy.settleSeconds * 1000);
  const live = livePods(state);
  const problems = Object.values(state.problems);
  // Most observations near success have no problem open: no set of the live pods' names then.
  const liveNames = problems.length > 0 ? new Set(live.map((p) => p.metadata?.name ?? '')) : new Set<string>();
  const open = problems.filter((p) => holdsSuccess(state, p, liveNames, at));
  if (open.length > 0) {
    const pods = [...new Set(open.map((p) => p.object.name))].sort();
    const first = open[0] as Problem;
    return {
      key: `open|${open.map((p) => p.id).join(',')}`,
      message: `${problemLine(first)}${morePods(pods.length - 1)}; success waits until it clears and the pod stays Ready ${settle}, or its window fails the rollout`,
      pods,
    };
  }
  const stale = kind.staleCount(state);
  if (stale) return stale;
  const settling = settlingPods(state, at, live);
  if (settling.length === 0) return undefined;
  const until = Math.max(...settling.map((s) => s.until));
  const first = settling[0] as (typeof settling)[number];
  const pods = settling.map((s) => s.pod);
  return {
    key: `settle|${pods.join(',')}`,
    message: `pod ${first.pod} ${first.why}${morePods(pods.length - 1)}; success once it has stayed Ready ${settle} (in ${formatDuration(until - at)})`,
    pods,
    until,
  };
}

/** Emits `held` when success is held for a new reason (or pods); nothing while it is not held. */
export function emitHold(hold: SuccessHold, memo: EmittedMemo, emit: Emit): void {
  if (memo.held === hold.key) return;
  memo.held = hold.key;
  emit({ type: 'held', message: hold.message, pods: hold.pods, ...(hold.until !== undefined ? { until: hold.until } : {}) });
}
