/**
 * One pod's `pods/status` as the kubelet's status manager keeps it (pkg/kubelet/status/
 * status_manager.go): the latest status built at write time and merge-patched when it changed,
 * retried until it lands ({@link StatusWriter}), and written again when another writer changed it.
 */

import type { V1Pod } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { PodWorker } from './pod-worker.js';
import { buildPodStatus, unreadyGates } from './status.js';
import { StatusWriter } from './status-writer.js';

/** What this kubelet last wrote to one pod's status, and the writes still owed. */
export class PodStatusSync {
  private readonly writer: StatusWriter;
  private lastWritten = '';
  /** Each condition's status as last written (`Ready` → `True`), to notice another writer's change. */
  private writtenConditions = new Map<string, string>();
  private reconcileTimer?: NodeJS.Timeout;

  constructor(private readonly worker: PodWorker) {
    const { ctx, pod } = worker;
    this.writer = new StatusWriter(() => this.attempt(), {
      log: ctx.log,
      what: `status of pod ${pod.metadata?.namespace}/${pod.metadata?.name}`,
      ...(ctx.statusRetryMs ? { initialMs: ctx.statusRetryMs.initial, maxMs: ctx.statusRetryMs.max } : {}),
    });
  }

  /** Writes the latest status if it changed (after any write in flight; retried until it lands). */
  write(): Promise<void> {
    return this.writer.write();
  }

  /** Stops writing (the pod left the node). */
  stop(): void {
    this.writer.stop();
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
  }

  /**
   * A newer pod from the watch: a readiness gate's condition another controller set changes Ready,
   * so the status is written again at once; any other change another writer made is reconciled.
   */
  podUpdated(previous: V1Pod, pod: V1Pod): void {
    if (unreadyGates(pod).join() !== unreadyGates(previous).join()) void this.write();
    this.reconcileIfOverwritten(pod);
  }

  /**
   * The status manager's reconcile (status_manager.go `needsReconcile`, run by its 10 s syncBatch):
   * when the stored status differs from what this kubelet wrote, e.g. the node lifecycle controller
   * set `Ready=False` (NodeNotReady) while the node missed its heartbeats, the kubelet writes its own
   * status again. Without it a pod stays not Ready for ever after its node came back.
   */
  private reconcileIfOverwritten(pod: V1Pod): void {
    const w = this.worker;
    if (w.isStopped || w.isTerminating || this.writtenConditions.size === 0 || this.reconcileTimer) return;
    const stored = new Map((pod.status?.conditions ?? []).map((c) => [c.type, c.status]));
    const diverged = [...this.writtenConditions].some(([type, status]) => stored.get(type) !== status);
    if (!diverged) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = undefined;
      this.lastWritten = '';
      void this.write();
    }, w.ctx.reconcileMs ?? 5000);
  }

  private async attempt(): Promise<void> {
    const w = this.worker;
    if (w.isStopped) return;
    const status = w.endedStatus ?? buildPodStatus(w);
    const json = JSON.stringify(status);
    if (json === this.lastWritten) return;
    try {
      const updated = await w.ctx.core.patchNamespacedPodStatus(
        { name: w.pod.metadata!.name!, namespace: w.pod.metadata!.namespace!, body: { metadata: { uid: w.uid }, status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      this.lastWritten = json;
      const conditions = (status.conditions ?? []) as Array<{ type: string; status: string }>;
      this.writtenConditions = new Map(conditions.map((c) => [c.type, c.status]));
      if (isNewer(updated, w.pod)) w.pod = updated;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return;
      throw err;
    }
  }
}

/** True when `a` has a larger resourceVersion than `b` (etcd revisions are numeric). */
export function isNewer(a: V1Pod, b: V1Pod): boolean {
  try {
    return BigInt(a.metadata?.resourceVersion ?? '0') >= BigInt(b.metadata?.resourceVersion ?? '0');
  } catch {
    return true;
  }
}
