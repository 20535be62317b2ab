/**
 * A restarted kubelet re-adopts the pods bound to its node: their containers' IDs, restart counts,
 * readiness and last states come back from the status an earlier kubelet process wrote.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { ContainerRuntime, Instance } from './runtime.js';
import { finish } from './runtime.js';

/** What the pod worker takes back besides its containers. */
export interface Adopted {
  startTime?: Date;
  podIP?: string;
}

/** Rebuilds runtime state from a status written by an earlier kubelet process (restart). */
export function adoptFromStatus(pod: V1Pod, containers: ContainerRuntime[]): Adopted | undefined {
  const status = pod.status;
  if (!status?.containerStatuses?.some((s) => s.containerID)) return undefined;
  const adopted: Adopted = {};
  if (status.startTime) adopted.startTime = new Date(status.startTime);
  if (status.podIP) adopted.podIP = status.podIP;
  const byName = new Map([...(status.initContainerStatuses ?? []), ...status.containerStatuses].map((s) => [s.name, s]));
  for (const c of containers) {
    const s = byName.get(c.name);
    if (!s?.containerID) continue;
    const id = s.containerID.replace(/^\w+:\/\//, '');
    c.imageID = s.imageID;
    c.resolvedImage = s.image;
    c.restartOffset = s.restartCount ?? 0;
    const instance: Instance = { id, startedAt: new Date(), logs: [], listeners: new Set() };
    if (s.state?.running) {
      instance.startedAt = new Date(s.state.running.startedAt ?? Date.now());
      c.ready = !!s.ready;
      c.started = s.started ?? true;
    } else if (s.state?.terminated || s.lastState?.terminated) {
      const t = (s.state?.terminated ?? s.lastState?.terminated)!;
      if (s.state?.waiting) c.waiting = { reason: s.state.waiting.reason ?? 'ContainerCreating', message: s.state.waiting.message };
      instance.startedAt = new Date(t.startedAt ?? Date.now());
      finish(instance, t.exitCode, t.reason ?? 'Error', t.message, new Date(t.finishedAt ?? Date.now()));
    } else continue;
    c.instances.push(instance);
  }
  return adopted;
}
