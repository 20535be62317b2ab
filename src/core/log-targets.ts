/**
 * Which container logs a live log stream should follow: every started container instance
 * (init containers included) of the new ReplicaSet's pods (a StatefulSet's, DaemonSet's or Job's
 * pods of the current template). Pure: the tracker opens the streams.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { currentPods, workloadRevision } from './current-pods.js';
import { revisionOf } from './k8s.js';
import { newReplicaSet } from './relations.js';
import type { RolloutState } from './state.js';
import { kindOf } from './workloads.js';

/** One container instance whose log can be streamed. */
export interface LogTarget {
  pod: string;
  container: string;
  /** The instance's `containerID`: a restart is a new instance, hence a new stream. */
  instance: string;
  revision?: string;
  /** True once the instance has terminated (its log is complete). */
  finished: boolean;
}

/**
 * The started container instances of the new revision's pods, in pod then container order.
 * `containers` limits the container names (all when absent or empty).
 */
export function logTargets(state: RolloutState, containers?: readonly string[]): LogTarget[] {
  const deployment = kindOf(state) === 'Deployment';
  const rs = newReplicaSet(state);
  if (deployment && !rs) return [];
  const revision = (deployment ? revisionOf(rs) : workloadRevision(state)) || undefined;
  const wanted = containers && containers.length > 0 ? new Set(containers) : undefined;
  const out: LogTarget[] = [];
  // The pods of the current template (its kind's `current`: a Deployment's new ReplicaSet's).
  for (const pod of currentPods(state)) {
    // A pod being deleted (a failed Job's others, a scaled-down replica) offers only its ended
    // instances: their logs are served until the pod is gone, and a stream of a running one would be cut.
    const leaving = pod.metadata?.deletionTimestamp !== undefined;
    for (const s of statusesOf(pod)) {
      if (wanted && !wanted.has(s.name)) continue;
      const latest = latestInstance(s);
      if (latest && (!leaving || latest.finished)) out.push({ pod: pod.metadata?.name ?? '', container: s.name, revision, ...latest });
    }
  }
  return out;
}

/**
 * The container's latest started instance: the one running or terminated, or, while it waits to
 * restart (CrashLoopBackOff), the one that ended (`lastState`), whose log the kubelet serves until
 * the next instance starts. A trace that begins after a crash still streams it.
 */
function latestInstance(s: V1ContainerStatus): { instance: string; finished: boolean } | undefined {
  if (s.state?.running !== undefined || s.state?.terminated !== undefined) {
    return s.containerID ? { instance: s.containerID, finished: s.state?.terminated !== undefined } : undefined;
  }
  const ended = s.lastState?.terminated?.containerID;
  return s.state?.waiting !== undefined && ended ? { instance: ended, finished: true } : undefined;
}

function statusesOf(pod: V1Pod): V1ContainerStatus[] {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
}
