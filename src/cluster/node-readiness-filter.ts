/**
 * Which Node changes reach the trackers. The core reads one thing of a Node: its readiness (the
 * Ready condition's status, reason, message and transition time, `nodeReadiness`). A kubelet
 * writes its Node's status every 10 s (a new `lastHeartbeatTime`), and a Node concerns every
 * tracker of the namespace: with 200 Deployments and 27 nodes that was about 540 deliveries a
 * second that the core then ignored. Only a change of readiness, taints or labels (which decide
 * where a DaemonSet runs pods) is delivered, and a Node that joins or leaves.
 */
import { type KindToObject, nodeReadiness } from '../core/index.js';

/** Remembers each Node's readiness as last delivered. */
export class NodeReadinessFilter {
  private readonly last = new Map<string, string>();

  /** True when `node`'s readiness, taints or labels differ from those last delivered, or it is new or deleted. */
  changed(type: 'upsert' | 'delete', node: KindToObject['Node']): boolean {
    const name = node.metadata?.name ?? '';
    const before = this.last.get(name);
    if (type === 'delete') {
      this.last.delete(name);
      return before !== undefined;
    }
    const key = JSON.stringify([nodeReadiness(node, type) ?? null, node.spec?.taints ?? [], node.metadata?.labels ?? {}]);
    this.last.set(name, key);
    return before !== key;
  }
}
