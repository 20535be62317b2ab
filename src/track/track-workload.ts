/** The generic entry point: one workload of any traced kind. */
import type { WorkloadKind } from '../core/index.js';
import type { TrackOptions } from './options.js';
import { trackRollout } from './tracker.js';
import type { Tracking } from './tracking.js';

/**
 * Tracks one workload of any traced kind: a Deployment, StatefulSet, DaemonSet or Job, each
 * judged by its kind's rule (docs/verdicts.md) with the same pod diagnosis, failure policy, events
 * and log tails. `options` are {@link trackRollout}'s (its `name`, `namespace` and `kind` come
 * from `workload`). A Job succeeds when `Complete` and fails when `Failed`; a StatefulSet or
 * DaemonSet with the OnDelete update strategy and pods of the previous template fails at once as
 * `rollout-blocked` (nothing rolls out until someone deletes them).
 *
 * @example
 * const t = trackWorkload({ kind: 'StatefulSet', namespace: 'prod', name: 'postgres' });
 * const verdict = await t.verdict;
 * const job = await trackWorkload({ kind: 'Job', namespace: 'prod', name: 'migrate' }, { timeoutSeconds: 300 }).verdict;
 */
export function trackWorkload(
  workload: { kind: WorkloadKind; namespace?: string; name: string },
  options: Omit<TrackOptions, 'name' | 'kind' | 'namespace'> = {},
): Tracking {
  const { kind, name, namespace } = workload ?? ({} as never);
  return trackRollout({ ...options, kind, name, ...(namespace !== undefined ? { namespace } : {}) });
}
