/**
 * The nodes a DaemonSet runs no pod on, and why: a taint its pods do not tolerate, or a node
 * selector the node does not match. The DaemonSet controller leaves those nodes out of
 * `desiredNumberScheduled`, so the rollout succeeds without them; each such node is named once
 * (a `note`), so a missing agent is never silent.
 */
import type { V1Node, V1Pod, V1Taint, V1Toleration } from '@kubernetes/client-node';
import type { Emit } from './emit.js';
import type { EmittedMemo, RolloutState } from './state.js';

/** The node a DaemonSet pod is for: its nodeName, else the node its affinity pins it to. */
export function daemonPodNode(pod: V1Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms) {
    const f = t.matchFields?.find((m) => m.key === 'metadata.name' && m.operator === 'In');
    if (f?.values?.[0]) return f.values[0];
  }
  return undefined;
}

/** Whether `toleration` tolerates `taint` (Kubernetes' ToleratesTaint). */
function tolerates(toleration: V1Toleration, taint: V1Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (!toleration.key && toleration.operator !== 'Exists') return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

/** Why a DaemonSet with these tolerations and node selector runs no pod on `node`, or undefined. */
export function whyNoDaemonPod(
  node: V1Node,
  tolerations: readonly V1Toleration[],
  nodeSelector: Record<string, string> | undefined,
): string | undefined {
  const blocking = (node.spec?.taints ?? []).filter(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerations.some((tol) => tolerates(tol, t)),
  );
  if (blocking.length > 0) {
    const words = blocking.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ');
    return `its pods do not tolerate the node's ${blocking.length === 1 ? 'taint' : 'taints'} ${words}`;
  }
  const labels = node.metadata?.labels ?? {};
  const unmatched = Object.entries(nodeSelector ?? {}).filter(([k, v]) => labels[k] !== v);
  if (unmatched.length > 0) return `the node does not match its nodeSelector ${unmatched.map(([k, v]) => `${k}=${v}`).join(', ')}`;
  return undefined;
}

/**
 * A `note` once per node (of `which`: all, or one by name) the traced DaemonSet runs no pod on for
 * a reason of its spec. The pods are walked only when some node has such a reason (it runs on
 * every DaemonSet status update, and most nodes take every pod).
 */
export function noteUncoveredNodes(state: RolloutState, memo: EmittedMemo, pods: Iterable<V1Pod>, emit: Emit, which: 'all' | string): void {
  const spec = state.workload?.spec?.template?.spec;
  let covered: Set<string | undefined> | undefined;
  const one = which === 'all' ? undefined : state.nodes.get(which);
  const nodes: Iterable<[string, V1Node]> = which === 'all' ? state.nodes : one ? [[which, one]] : [];
  for (const [name, node] of nodes) {
    const why = whyNoDaemonPod(node, spec?.tolerations ?? [], spec?.nodeSelector);
    if (!why) continue;
    if (!covered) {
      covered = new Set();
      for (const pod of pods) covered.add(daemonPodNode(pod));
    }
    if (covered.has(name)) continue;
    const key = `daemonset-node/${name}/${why}`;
    if (memo.notes[key]) continue;
    memo.notes[key] = true;
    emit({ type: 'note', object: `Node/${name}`, message: `DaemonSet ${state.target.name} runs no pod on node ${name}: ${why}` });
  }
}
