/**
 * Pods on a node that is not Ready: the kubelet died, the node lost its network, or it is being
 * drained badly. Such a pod never starts or becomes Ready until the node comes back or the pod is
 * evicted (after its NoExecute toleration of the not-ready/unreachable taint, 300 s by default)
 * and replaced. Without this, the rollout just waits for `--timeout`.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { canBecomeReady, podCondition } from '../k8s.js';
import type { NodeReadiness } from '../state.js';
import type { NodeProblem } from '../types.js';
import type { Finding } from './container.js';

const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';

/**
 * Seconds until the pod is evicted from a node that is not Ready (`status` `False`: not-ready
 * taint; `Unknown`: unreachable taint): its NoExecute toleration's `tolerationSeconds`; 0 without
 * a toleration (evicted at once); undefined when it tolerates the taint for ever.
 */
export function evictionSeconds(pod: V1Pod, status: string): number | undefined {
  const key = status === 'Unknown' ? UNREACHABLE_TAINT : NOT_READY_TAINT;
  const toleration = (pod.spec?.tolerations ?? []).find(
    (t) => (t.key === key || (t.key === undefined && t.operator === 'Exists')) && (t.effect === 'NoExecute' || t.effect === undefined),
  );
  if (!toleration) return 0;
  return toleration.tolerationSeconds ?? undefined;
}

/**
 * A `node-not-ready` finding for a pod that is not Ready and runs on a node that is not Ready, or
 * undefined. `node` is the node's Ready condition (undefined when the node is Ready or unknown).
 */
export function diagnoseNode(pod: V1Pod, node: NodeReadiness | undefined): Finding | undefined {
  const nodeName = pod.spec?.nodeName;
  if (!nodeName || !node || !canBecomeReady(pod)) return undefined;
  if (podCondition(pod, 'Ready')?.status === 'True') return undefined;
  const eviction = evictionSeconds(pod, node.status);
  const detail: NodeProblem = { name: nodeName, ...node, ...(eviction !== undefined ? { evictionSeconds: eviction } : {}) };
  const what = node.status === 'Unknown' ? 'unreachable (its kubelet stopped reporting)' : 'not ready';
  const since = node.since ? ` since ${node.since}` : '';
  const why = node.reason || node.message ? ` (${[node.reason, node.message].filter(Boolean).join(': ')})` : '';
  return {
    class: 'node-not-ready',
    object: { kind: 'Pod', name: pod.metadata?.name ?? '' },
    reason: node.reason ?? (node.status === 'Unknown' ? 'NodeStatusUnknown' : 'NodeNotReady'),
    message: node.message ?? '',
    explanation:
      `node ${nodeName} is ${what}${since}${why}: the pod cannot start or become ready there` +
      (eviction === undefined
        ? ' and tolerates it for ever (never evicted)'
        : eviction === 0
          ? '; it is evicted and replaced at once'
          : `; it is evicted and replaced after ${eviction}s`),
    node: detail,
  };
}
