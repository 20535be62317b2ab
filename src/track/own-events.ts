/**
 * The events the tracker makes itself (the core makes the rest): pure constructors, time comes in
 * as `at`. Every sink prints them like the core's.
 */
import type { DeploymentRef, LogTarget, RolloutEvent } from '../core/index.js';

/** The apiserver is being retried (down, frozen or overloaded): a `waiting` event, `api-server`. */
export function apiServerWaiting(deployment: DeploymentRef, message: string, at: number): RolloutEvent {
  return { type: 'waiting', reason: 'api-server', message, at, deployment };
}

/**
 * A degraded diagnosis (not a rollout problem, e.g. nodes not readable): a Warning from object
 * `rollout-trace`, printed once like a Kubernetes Warning event.
 */
export function trackerWarning(deployment: DeploymentRef, reason: string, message: string, at: number): RolloutEvent {
  const lastSeen = new Date(at).toISOString();
  return { type: 'k8s-event', event: { type: 'Warning', reason, message, object: 'rollout-trace', count: 1, lastSeen }, at, deployment };
}

/** One line of a followed container log. */
export function logLine(deployment: DeploymentRef, target: LogTarget, line: string, at: number): RolloutEvent {
  const { pod, container, revision } = target;
  return { type: 'log', at, deployment, pod, container, ...(revision !== undefined ? { revision } : {}), line };
}
