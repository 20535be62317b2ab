/**
 * Which of a namespace source's watches depend on what is traced, and with which selector: the Pod
 * (and, for a Deployment, the ReplicaSet) watches, label-selected by the traced workloads'
 * selectors ({@link WatchScope}), and the PVC watch, once a traced workload mounts claims.
 */
import type { V1LabelSelector } from '@kubernetes/client-node';
import { KIND_FACTS, type KindToObject, type WatchedKind, type WorkloadKind } from '../core/index.js';
import { WatchScope } from './label-scope.js';
import type { SubscriberIndex } from './routing.js';
import { kindOfSub, mountsClaims, SCOPED_KINDS } from './source-kinds.js';
import type { SourceWatchers } from './source-watchers.js';

/** The scoped watches of one namespace source; `start` opens a watch of `kind`. */
export class ScopedWatches {
  private readonly scope = new WatchScope();

  constructor(
    private readonly subs: SubscriberIndex,
    private readonly watchers: SourceWatchers,
    private readonly start: (kind: WatchedKind, labelSelector?: string) => void,
  ) {}

  /** The label selector of the Pod and ReplicaSet watches: undefined while namespace-wide (or before they start). */
  get podSelector(): string | undefined {
    return this.watchers.has('Pod') ? this.scope.selector : undefined;
  }

  /**
   * Widens the Pod (and ReplicaSet) watches' scope to cover every traced workload, or the
   * `upserted` ones only; they re-list when it changed. Starts them once every traced kind is
   * listed; the ReplicaSet watch only when a traced kind's pods belong to ReplicaSets (its facts' `ownedVia`).
   */
  widen(upserted?: Array<KindToObject[WorkloadKind]>): void {
    const kinds = new Set([...this.subs.all].map(kindOfSub));
    if (![...kinds].every((k) => this.watchers.get(k)?.isSynced)) return;
    const traced = upserted ? upserted.map((w) => w.spec?.selector) : this.tracedSelectors();
    const changed = this.scope.widen(traced);
    for (const kind of SCOPED_KINDS) {
      if (kind === 'ReplicaSet' && ![...kinds].some((k) => KIND_FACTS[k].ownedVia.includes('ReplicaSet'))) continue;
      const watcher = this.watchers.get(kind);
      if (!watcher) this.start(kind, this.scope.selector);
      else if (changed) watcher.rescope(this.scope.selector);
    }
  }

  /**
   * Starts the PVC watch once a traced workload (of `workloads`, default every cached one) uses
   * claims: a trace of workloads without claims needs no RBAC on PVCs.
   */
  ensurePvcWatch(workloads: Array<KindToObject[WorkloadKind]> = this.watchers.workloads()): void {
    if (this.watchers.has('PersistentVolumeClaim')) return;
    if (workloads.some((w) => this.subs.traces(w.metadata?.name) && mountsClaims(w))) this.start('PersistentVolumeClaim');
  }

  /**
   * The selectors of the traced workloads, one per subscriber (undefined for one not in the
   * namespace: the scope then goes namespace-wide, since its pods could carry any labels).
   */
  private tracedSelectors(): Array<V1LabelSelector | undefined> {
    const byName = new Map(this.watchers.deployments().map((d) => [d.metadata?.name, d]));
    return [...this.subs.all].map((sub) => {
      const kind = kindOfSub(sub);
      const name = sub.s.workloadName;
      return (kind === 'Deployment' ? byName.get(name) : this.watchers.workload(kind, name))?.spec?.selector;
    });
  }
}
