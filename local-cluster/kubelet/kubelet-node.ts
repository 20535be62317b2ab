/**
 * One simulated kubelet: a Node (heartbeats, Lease), the HTTPS log endpoint, a watch of the
 * pods bound to the node, and a pod worker per pod.
 */
import type { Server } from 'node:https';
import type { CoordinationV1Api, CoreV1Api, KubeConfig, V1Pod, V1Taint } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { EventRecorder, errorText } from './events.js';
import { KubeletBackoff } from './kubelet-backoff.js';
import { startLogServer } from './log-server.js';
import { SimNode } from './node.js';
import { ObjectWatch } from './object-watch.js';
import { admissionFailure, endedStatus, evictionMessage, pressureAdmissionFailure, type Rejection } from './pod-ending.js';
import { PodWorker, type WorkerContext } from './pod-worker.js';

/** Timing knobs of the simulation (milliseconds). */
export interface KubeletTiming {
  backoffBaseMs: number;
  backoffMaxMs: number;
  syncRetryMs: number;
  maxGraceMs: number;
  mountTimeoutMs: number;
}

/** Options of {@link KubeletNode.evict}. */
export interface EvictOptions {
  /** The resource the node runs short of: `memory` (default) or `ephemeral-storage`. */
  resource?: 'memory' | 'ephemeral-storage';
  /** What each container of the pod uses of it (default `301Mi`). */
  usage?: string;
  /** Seconds until the node reports no pressure again (default 300, the kubelet's transition period). */
  pressureSeconds?: number;
}

/** Settings for one simulated kubelet. */
export interface KubeletNodeOptions {
  kc: KubeConfig;
  core: CoreV1Api;
  coordination: CoordinationV1Api;
  name: string;
  index: number;
  cpu: string;
  memory: string;
  maxPods: number;
  taints?: V1Taint[];
  timing: KubeletTiming;
  log: (line: string) => void;
}

/** A running simulated kubelet for one Node. */
export class KubeletNode {
  private readonly workers = new Map<string, PodWorker>();
  private server?: Server;
  private node?: SimNode;
  private watch?: ObjectWatch<V1Pod>;
  private recorder: EventRecorder;
  private readonly usedIPs = new Set<string>();
  private ctx?: WorkerContext;
  /** Uids of pods refused at admission (their Failed status may not be back from the watch yet). */
  private readonly rejected = new Set<string>();
  private pressureTimer?: NodeJS.Timeout;

  constructor(private readonly opts: KubeletNodeOptions) {
    this.recorder = new EventRecorder(opts.core, opts.name, opts.log);
  }

  /** Node name. */
  get name(): string {
    return this.opts.name;
  }

  /** Starts the log server, registers the Node and starts watching its pods. */
  async start(): Promise<void> {
    const { opts } = this;
    const { server, port } = await startLogServer((ns, name) => this.findPod(ns, name));
    this.server = server;
    this.node = new SimNode(
      { name: opts.name, cpu: opts.cpu, memory: opts.memory, maxPods: opts.maxPods, kubeletPort: port, taints: opts.taints },
      opts.index,
      opts.core,
      opts.coordination,
      this.recorder,
      opts.log,
    );
    await this.node.register();
    opts.log(`node ${opts.name}: logs on https://127.0.0.1:${port}, pod CIDR ${this.node.podCidr}`);
    this.ctx = {
      nodeName: opts.name,
      core: opts.core,
      recorder: this.recorder,
      images: new Set(),
      imageBackoff: new KubeletBackoff(opts.timing.backoffBaseMs, opts.timing.backoffMaxMs),
      crashBackoff: new KubeletBackoff(opts.timing.backoffBaseMs, opts.timing.backoffMaxMs),
      syncRetryMs: opts.timing.syncRetryMs,
      maxGraceMs: opts.timing.maxGraceMs,
      mountTimeoutMs: opts.timing.mountTimeoutMs,
      allocateIP: () => this.allocateIP(),
      releaseIP: (ip) => this.usedIPs.delete(ip),
      log: opts.log,
    };
    const fieldSelector = `spec.nodeName=${opts.name}`;
    this.watch = new ObjectWatch<V1Pod>(
      opts.kc,
      {
        path: '/api/v1/pods',
        what: `pod watch for ${opts.name}`,
        fieldSelector,
        list: () => opts.core.listPodForAllNamespaces({ fieldSelector }),
      },
      {
        upsert: (pod) => this.upsert(pod),
        remove: (uid) => this.remove(uid),
        known: () => [...this.workers.keys()],
      },
      opts.log,
    );
    await this.watch.start();
  }

  /** Stops watches, timers and the log server. The Node object stays (like a stopped kubelet's). */
  async stop(): Promise<void> {
    this.watch?.stop();
    this.node?.stop();
    if (this.pressureTimer) clearTimeout(this.pressureTimer);
    for (const w of this.workers.values()) w.stop();
    this.workers.clear();
    // Pending events get 2 s (the apiserver may already be gone).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.recorder.flush().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 2000);
      }),
    ]);
    clearTimeout(timer);
    if (this.server) {
      const server = this.server;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  }

  private findPod(namespace: string, name: string): PodWorker | undefined {
    for (const w of this.workers.values()) {
      if (w.pod.metadata?.namespace === namespace && w.pod.metadata?.name === name) return w;
    }
    return undefined;
  }

  private upsert(pod: V1Pod): void {
    const uid = pod.metadata?.uid;
    if (!uid || !this.ctx) return;
    const existing = this.workers.get(uid);
    if (existing) {
      existing.update(pod);
      return;
    }
    // Finished pods (Succeeded/Failed) need no worker.
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' || this.rejected.has(uid)) return;
    if (!pod.status?.containerStatuses?.length && this.node) {
      // A new pod (not one a restarted kubelet re-adopts) goes through admission first.
      // GetActivePods: pods that have not ended hold their requests.
      const admitted = [...this.workers.values()]
        .filter((w) => !w.ended && w.pod.status?.phase !== 'Succeeded' && w.pod.status?.phase !== 'Failed')
        .map((w) => w.pod);
      // The eviction manager's handler runs first (kubelet.go NewMainKubelet adds it first).
      const refused =
        pressureAdmissionFailure(pod, this.node.pressures()) ??
        admissionFailure(pod, { ...this.node.allocatable(), labels: this.node.nodeLabels() }, admitted);
      if (refused) {
        this.rejected.add(uid);
        void this.reject(pod, refused);
        return;
      }
    }
    const worker = new PodWorker(pod, this.ctx);
    if (worker.podIP) this.usedIPs.add(worker.podIP);
    // Images of adopted containers are still on the node (the runtime outlives a kubelet restart).
    for (const c of worker.allContainers()) if (c.instances.length && c.resolvedImage) this.ctx.images.add(c.resolvedImage);
    this.workers.set(uid, worker);
    worker.requestSync();
  }

  /** kubelet.go `rejectPod` (1.20): the Event, then the status Failed with the reason and "Pod " + the message. */
  private async reject(pod: V1Pod, refused: Rejection): Promise<void> {
    const m = pod.metadata!;
    this.opts.log(`pod ${m.namespace}/${m.name} rejected at admission: ${refused.reason}: ${refused.message}`);
    const ref = { kind: 'Pod', namespace: m.namespace, name: m.name!, uid: m.uid, apiVersion: 'v1', resourceVersion: m.resourceVersion };
    this.recorder.event(ref, 'Warning', refused.reason, refused.message);
    // The status manager writes the status whole (qosClass and conditions go), with a startTime
    // when it had none (status_manager.go updateStatusInternal).
    const status = {
      ...endedStatus(refused.reason, `Pod ${refused.message}`),
      startTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    try {
      await this.opts.core.patchNamespacedPodStatus(
        { name: m.name!, namespace: m.namespace!, body: { metadata: { uid: m.uid }, status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    } catch (err) {
      this.opts.log(`status of rejected pod ${m.namespace}/${m.name}: ${errorText(err)}`);
    }
  }

  /**
   * Node-pressure eviction of the pod `namespace/name` running here, as the eviction manager does
   * it: the node reports the pressure (condition and Event; the node lifecycle controller taints
   * it), the pod is evicted with the 1.20 message naming the containers whose usage exceeds their
   * request, and the pressure ends `pressureSeconds` later (the kubelet's
   * `--eviction-pressure-transition-period`, 300 s by default).
   */
  async evict(namespace: string, name: string, opts: EvictOptions = {}): Promise<boolean> {
    const worker = this.findPod(namespace, name);
    if (!worker || worker.ended || !this.node) return false;
    const resource = opts.resource ?? 'memory';
    const condition = resource === 'memory' ? 'MemoryPressure' : 'DiskPressure';
    await this.node.setPressure(condition, true);
    const message = evictionMessage(
      resource,
      worker.containers.map((c) => ({ name: c.name, request: c.spec.resources?.requests?.[resource], usage: opts.usage ?? '301Mi' })),
    );
    await worker.evict(message);
    if (this.pressureTimer) clearTimeout(this.pressureTimer);
    this.pressureTimer = setTimeout(
      () => {
        this.pressureTimer = undefined;
        void this.node?.setPressure(condition, false).catch((err) => this.opts.log(`node pressure off: ${errorText(err)}`));
      },
      (opts.pressureSeconds ?? 300) * 1000,
    );
    return true;
  }

  private remove(uid: string): void {
    const worker = this.workers.get(uid);
    if (!worker) return;
    this.workers.delete(uid);
    worker.stop();
  }

  private allocateIP(): string {
    const cidr = this.node?.podCidr ?? `10.244.${this.opts.index}.0/24`;
    const base = cidr.split('/')[0].split('.').slice(0, 3).join('.');
    for (let i = 2; i < 255; i++) {
      const ip = `${base}.${i}`;
      if (!this.usedIPs.has(ip)) {
        this.usedIPs.add(ip);
        return ip;
      }
    }
    return `${base}.254`;
  }
}
