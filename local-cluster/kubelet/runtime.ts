/**
 * The simulated container runtime's bookkeeping: every container instance a pod has run, its
 * log lines, and what the kubelet's reason cache says about a container that is not running.
 */
import { randomBytes } from 'node:crypto';
import type { V1Container } from '@kubernetes/client-node';
import type { Behaviour } from './behaviour.js';

/** One line a container printed. */
export interface LogLine {
  time: Date;
  text: string;
  stream: 'stdout' | 'stderr';
}

/** One run of a container (what `docker ps -a` would list). */
export interface Instance {
  id: string;
  startedAt: Date;
  finishedAt?: Date;
  exitCode?: number;
  reason?: string;
  message?: string;
  logs: LogLine[];
  /** Notified when lines are appended or the instance finishes (log `follow`). */
  listeners: Set<() => void>;
}

/** Everything the kubelet knows about one container of a pod. */
export interface ContainerRuntime {
  name: string;
  init: boolean;
  spec: V1Container;
  behaviour: Behaviour;
  /** Instances, oldest first; the kubelet only reports the last two. */
  instances: Instance[];
  /** Restarts that happened before this kubelet process adopted the pod. */
  restartOffset: number;
  /** The reason cache: why the container is waiting (ErrImagePull, CrashLoopBackOff, ...). */
  waiting?: { reason: string; message?: string };
  ready: boolean;
  started: boolean;
  imageID?: string;
  resolvedImage?: string;
  /** Pull attempts so far (for `pull-transient`). */
  pullAttempts: number;
  timers: Set<NodeJS.Timeout>;
}

/** A new runtime record for a container spec. */
export function newContainerRuntime(spec: V1Container, init: boolean, behaviour: Behaviour): ContainerRuntime {
  return {
    name: spec.name,
    init,
    spec,
    behaviour,
    instances: [],
    restartOffset: 0,
    ready: false,
    started: false,
    pullAttempts: 0,
    timers: new Set(),
  };
}

/** A docker-style 64-hex container id. */
export function newContainerId(): string {
  return randomBytes(32).toString('hex');
}

/** The current (latest) instance, if any. */
export function current(c: ContainerRuntime): Instance | undefined {
  return c.instances.at(-1);
}

/** True while the latest instance runs. */
export function isRunning(c: ContainerRuntime): boolean {
  const last = current(c);
  return !!last && !last.finishedAt;
}

/** Appends log lines to an instance and wakes followers. */
export function appendLogs(instance: Instance, lines: string[], stream: LogLine['stream'] = 'stdout', at = new Date()): void {
  for (const text of lines) instance.logs.push({ time: at, text, stream });
  for (const l of instance.listeners) l();
}

/** Marks an instance finished and wakes followers. */
export function finish(instance: Instance, exitCode: number, reason: string, message: string | undefined, at = new Date()): void {
  instance.finishedAt = at;
  instance.exitCode = exitCode;
  instance.reason = reason;
  instance.message = message;
  for (const l of instance.listeners) l();
}

/** Clears every pending timer of a container (its probes, its program's exit). */
export function clearTimers(c: ContainerRuntime): void {
  for (const t of c.timers) clearTimeout(t);
  c.timers.clear();
}

/** Kills the container's running instance, if any: it ends now with `exitCode` and `reason`. */
export function killRunning(c: ContainerRuntime, exitCode: number, reason: string): void {
  const last = current(c);
  if (last && !last.finishedAt) finish(last, exitCode, reason, undefined);
}

/** The containerID string the API shows (`docker://<id>`). */
export function containerIdUri(id: string): string {
  return `docker://${id}`;
}
