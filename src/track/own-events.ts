/**
 * The events the tracker makes itself (the core makes the rest): pure constructors, time comes in
 * as `at`. Every sink prints them like the core's.
 */
import type { LogTarget, RolloutEvent, WorkloadRef } from '../core/index.js';

/** `workload`, and its `deployment` (namespace and name) and `kind`, as every event carries them. */
function about(workload: WorkloadRef) {
  return { workload, deployment: { namespace: workload.namespace, name: workload.name }, kind: workload.kind };
}

/** The apiserver is being retried (down, frozen or overloaded): a `waiting` event, `api-server`. */
export function apiServerWaiting(workload: WorkloadRef, message: string, at: number): RolloutEvent {
  return { type: 'waiting', reason: 'api-server', message, at, ...about(workload) };
}

/**
 * A degraded diagnosis (not a rollout problem, e.g. nodes not readable): a Warning from object
 * `rollout-trace`, printed once like a Kubernetes Warning event.
 */
export function trackerWarning(workload: WorkloadRef, reason: string, message: string, at: number): RolloutEvent {
  const lastSeen = new Date(at).toISOString();
  return {
    type: 'k8s-event',
    event: { type: 'Warning', reason, message, object: 'rollout-trace', count: 1, lastSeen },
    at,
    ...about(workload),
  };
}

/** One line of a followed container log. */
export function logLine(workload: WorkloadRef, target: LogTarget, line: string, at: number): RolloutEvent {
  const { pod, container, revision } = target;
  return { type: 'log', at, ...about(workload), pod, container, ...(revision !== undefined ? { revision } : {}), line };
}
