/**
 * Which pods an observation asks to diagnose again. Diagnosing every pod on every observation costs
 * O(pods) per observation, O(pods²) per rollout; this keeps it to the pods an observation can
 * change, for every kind.
 */

import { currentPodSetKey, currentPodsUnordered } from './current-pods.js';
import type { Touched } from './emit.js';
import { hasRestarted, reportedLater } from './idle-tick.js';
import { moduleOf } from './kinds/index.js';
import type { PodScope } from './problems.js';
import type { EmittedMemo, RolloutState } from './state.js';
import type { Observation } from './types.js';
import { kindOf } from './workloads.js';

/**
 * The current template's pods whose problems may have changed:
 * - all of them when that set changed (a new ReplicaSet, a StatefulSet's or DaemonSet's new
 *   revision), after a sync, or when the workload changed and user classifiers (which see it)
 *   depend on it;
 * - on a tick, those whose diagnosis depends on time: restarted containers, running init
 *   containers, ready containers behind a readiness gate and current problems (all of them with user classifiers);
 * - when a node went NotReady or Ready again, the pods bound to it;
 * - else the pods the observations touched (or whose Events they are), and the pods with problems
 *   when the kind says so (`rediagnosesProblemPods`: a StatefulSet's `OrderedReady` wait names the
 *   ordinals that exist, and the replicas).
 * `obs` is the last of the observations (`touched`: what each of them changed).
 */
export function podScope(s: RolloutState, memo: EmittedMemo, obs: Observation, touched: readonly Touched[]): PodScope {
  const key = currentPodSetKey(s);
  const classifiers = (s.policy.classifiers?.length ?? 0) > 0;
  if (key !== memo.diagnosedPodSet || obs.type === 'synced') {
    if (key !== undefined) memo.diagnosedPodSet = key;
    return 'all';
  }
  const kind = kindOf(s);
  if (obs.type === 'tick') {
    if (classifiers) return 'all';
    const names = problemPods(s);
    for (const pod of currentPodsUnordered(s)) if (hasRestarted(pod) || reportedLater(pod)) names.add(pod.metadata?.name ?? '');
    return [...names];
  }
  if (classifiers && touched.some((t) => t.kind === kind)) return 'all';
  // A node's change alone asks only for its pods.
  const onlyNodes = touched.length > 0 && touched.every((t) => t.kind === 'Node');
  const names = !onlyNodes && moduleOf(s).rediagnosesProblemPods ? problemPods(s) : new Set<string>();
  for (const t of touched) {
    if (t.kind === 'Node' && t.readinessChanged) podsOnNode(s, t.name, names);
    else if (t.kind === 'Pod' || t.kind === 'Event') names.add(t.name);
  }
  return [...names];
}

/** Adds to `names` the current template's pods bound to node `node`. */
function podsOnNode(s: RolloutState, node: string, names: Set<string>): void {
  for (const pod of currentPodsUnordered(s)) if (pod.spec?.nodeName === node) names.add(pod.metadata?.name ?? '');
}

/** Names of the pods that have a problem now. */
function problemPods(s: RolloutState): Set<string> {
  const names = new Set<string>();
  for (const p of Object.values(s.problems)) if (p.object.kind === 'Pod') names.add(p.object.name);
  return names;
}
