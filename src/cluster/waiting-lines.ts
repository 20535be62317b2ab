/**
 * Which lines of the workload and ReplicaSet watches may wait for the next batch of Pod and Event
 * lines (read-batches.ts). A workload's status changes with nearly every pod's (a StatefulSet's
 * ready and current counts, a Job's active and succeeded ones), so a line that never waited
 * drained each batch after a pod or two (docs/performance.md, "Pod and Event lines in batches").
 * A line waits only when it cannot bring a verdict: a change (not an addition or a deletion) after
 * which the kind's own rule still says `progressing`, or a ReplicaSet not yet ready by Pulumi's
 * count. Lines keep their order either way: a line that does not wait handles every line before it
 * first, so a verdict sees the same objects as without the batches, only without their delay.
 * A partial success criterion (`--success`) can be met by any line: its traces let none wait
 * (routing.ts).
 */
import type { V1ReplicaSet } from '@kubernetes/client-node';
import { kindModule, replicaSetReadiness, type WatchedKind, type Workload } from '../core/index.js';
import { isWorkloadKind } from './source-kinds.js';

/** Whether a watch event of `kind` (`type` as the apiserver names it) may wait for the next batch. */
export function mayWaitForBatch(kind: WatchedKind, type: string, object: unknown): boolean {
  // A bookmark or a line passed over carries only a resourceVersion (the watcher drains before using it).
  if (type === 'BOOKMARK' || type === 'SKIPPED') return true;
  if (type !== 'MODIFIED' || object === null || typeof object !== 'object') return false;
  if (kind === 'ReplicaSet') return !replicaSetReadiness(object as V1ReplicaSet).done;
  if (!isWorkloadKind(kind)) return false;
  return kindModule(kind).objectRule(object as Workload).state === 'progressing';
}
