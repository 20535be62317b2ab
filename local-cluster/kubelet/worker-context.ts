/**
 * What a pod worker works with: the node-wide context (clients, recorder, back-offs, images, IPs,
 * timings) and the part of the worker its helpers use.
 */
import type { CoreV1Api, V1Pod } from '@kubernetes/client-node';
import type { EventRecorder } from './events.js';
import type { KubeletBackoff } from './kubelet-backoff.js';
import type { PodWorker } from './pod-worker.js';

/** Node-wide state and settings a pod worker uses. */
export interface WorkerContext {
  nodeName: string;
  core: CoreV1Api;
  recorder: EventRecorder;
  /** Images present on the node (resolved names). */
  images: Set<string>;
  /** The kubelet's image pull back-off (keyed `<pod uid>_<image>`). */
  imageBackoff: KubeletBackoff;
  /** The kubelet's container restart back-off. */
  crashBackoff: KubeletBackoff;
  /** Retry period after a failed sync (the real pod worker's is 10-15 s). */
  syncRetryMs: number;
  /** Upper bound on the termination grace period the simulation waits. */
  maxGraceMs: number;
  /** Volume mount timeout before "Unable to attach or mount volumes" (real: 2m3s). */
  mountTimeoutMs: number;
  /** Back-off of failed pod-status writes (default 500 ms doubling to 10 s, the status manager's re-sync). */
  statusRetryMs?: { initial: number; max: number };
  /**
   * Delay before writing the status again when another writer changed it (the real status manager
   * notices on its 10 s syncBatch, 5 s on average). Default 5000.
   */
  reconcileMs?: number;
  allocateIP(): string;
  releaseIP(ip: string): void;
  log(line: string): void;
}

/**
 * What the container helpers (images, lifecycle, volumes) use of a pod worker: the node's context,
 * the pod, its timers and sleeps, its Event references, and the status write.
 */
export type WorkerHost = Pick<
  PodWorker,
  'ctx' | 'pod' | 'podIP' | 'uid' | 'isTerminating' | 'isStopped' | 'timer' | 'sleep' | 'onExit' | 'podRef' | 'containerRef' | 'writeStatus'
>;
/** The kubelet's `format.Pod`: `name_namespace(uid)`. */
export function formatPod(pod: V1Pod): string {
  return `${pod.metadata?.name}_${pod.metadata?.namespace}(${pod.metadata?.uid})`;
}
