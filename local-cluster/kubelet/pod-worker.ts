/**
 * One pod's worker, modelled on the kubelet's pod worker + kuberuntime SyncPod: mounts volumes,
 * creates the sandbox (pod IP), runs init containers in order, starts containers (image pull with
 * back-off, env resolution, Created/Started), restarts exited containers with CrashLoopBackOff,
 * runs readiness probes, and on deletion kills the containers and finishes the pod. Every state
 * change is written to `pods/status` and the kubelet's events.
 */

import type { V1Pod } from '@kubernetes/client-node';
import { adoptFromStatus } from './adopt-status.js';
import { behaviourFor } from './behaviour.js';
import { startContainer } from './container-start.js';
import type { EventRef } from './events.js';
import { errorText } from './events.js';
import { crashLine, terminationMessageOf } from './logs.js';
import { endedStatus } from './pod-ending.js';
import { isNewer, PodStatusSync } from './pod-status-sync.js';
import { ObjectLookup } from './references.js';
import type { ContainerRuntime, Instance } from './runtime.js';
import { appendLogs, clearTimers, current, finish, isRunning, killRunning, newContainerRuntime } from './runtime.js';
import { Sleeps } from './sleeps.js';
import { VolumeMounts } from './volume-mounts.js';
import type { WorkerContext } from './worker-context.js';

export type { WorkerContext, WorkerHost } from './worker-context.js';

/** Drives one pod on one simulated node. */
export class PodWorker {
  pod: V1Pod;
  podIP?: string;
  startTime = new Date();
  readonly initContainers: ContainerRuntime[];
  readonly containers: ContainerRuntime[];
  private readonly volumes = new VolumeMounts();
  private syncing = false;
  private syncAgain = false;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  private terminating = false;
  private readonly status: PodStatusSync;
  private readonly sleeps = new Sleeps();
  /** Set once the kubelet ended the pod (evicted): the status it wrote, never rewritten. */
  private endedPatch?: Record<string, unknown>;

  constructor(
    pod: V1Pod,
    readonly ctx: WorkerContext,
  ) {
    this.pod = pod;
    const ann = pod.metadata?.annotations;
    this.initContainers = (pod.spec?.initContainers ?? []).map((c) => newContainerRuntime(c, true, behaviourFor(ann, c.name)));
    this.containers = (pod.spec?.containers ?? []).map((c) => newContainerRuntime(c, false, behaviourFor(ann, c.name)));
    const adopted = adoptFromStatus(pod, this.allContainers());
    if (adopted) {
      if (adopted.startTime) this.startTime = adopted.startTime;
      if (adopted.podIP) this.podIP = adopted.podIP;
      this.volumes.ready = true;
    }
    this.status = new PodStatusSync(this);
  }

  get uid(): string {
    return this.pod.metadata?.uid ?? '';
  }

  /** The pod is being killed (deleted): probes and programs stop. */
  get isTerminating(): boolean {
    return this.terminating;
  }

  /** The pod left the node: nothing runs any more. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** The kubelet ended the pod (evicted): it holds no resources and is never synced again but to finish its deletion. */
  get ended(): boolean {
    return this.endedPatch !== undefined;
  }

  /** The status the kubelet ended the pod with (evicted), written instead of the live one; undefined while it runs. */
  get endedStatus(): Record<string, unknown> | undefined {
    return this.endedPatch;
  }

  /**
   * Node-pressure eviction (eviction_manager.go `evictPod` then `killPodNow`, 1.20): the
   * `Evicted` Event, the status replaced by Failed/Evicted and the node's message, the running
   * containers killed at once (hard eviction: grace period 0) with their `Killing` Events.
   */
  async evict(message: string): Promise<void> {
    if (this.endedPatch || this.terminating || this.stopped) return;
    this.ctx.recorder.event(this.podRef(), 'Warning', 'Evicted', message);
    this.endedPatch = endedStatus('Evicted', message);
    for (const c of this.allContainers()) clearTimers(c);
    this.sleeps.wakeInterruptible();
    for (const c of this.allContainers().filter(isRunning)) {
      this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Killing', `Stopping container ${c.name}`);
      c.ready = false;
      c.started = false;
      killRunning(c, 137, 'Error');
    }
    if (this.podIP) this.ctx.releaseIP(this.podIP);
    this.podIP = undefined;
    await this.writeStatus();
  }

  /** All containers, init first. */
  allContainers(): ContainerRuntime[] {
    return [...this.initContainers, ...this.containers];
  }

  /** A newer version of the pod arrived from the watch. */
  update(pod: V1Pod): void {
    if (isNewer(pod, this.pod)) {
      const previous = this.pod;
      this.pod = pod;
      this.status.podUpdated(previous, pod);
    }
    if (pod.metadata?.deletionTimestamp && !this.terminating) {
      // Cut a pull or slow start short so the pod can be killed at once.
      this.sleeps.wakeInterruptible();
      this.requestSync();
    }
  }

  /** Starts (or re-runs) the pod's sync soon. */
  requestSync(delayMs = 0): void {
    if (this.stopped) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.runSync();
    }, delayMs);
  }

  /** Stops every timer of this pod (the pod is gone from the node). */
  stop(): void {
    this.stopped = true;
    this.status.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const c of this.allContainers()) clearTimers(c);
    this.sleeps.wakeAll();
    if (this.podIP) this.ctx.releaseIP(this.podIP);
    for (const c of this.allContainers()) killRunning(c, 137, 'Error');
  }

  private async runSync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    try {
      await this.sync();
    } catch (err) {
      if (!this.stopped) {
        this.ctx.log(`sync of pod ${this.pod.metadata?.namespace}/${this.pod.metadata?.name} failed: ${errorText(err)}`);
        this.requestSync(this.ctx.syncRetryMs);
      }
    } finally {
      this.syncing = false;
      if (this.syncAgain && !this.stopped) {
        this.syncAgain = false;
        void this.runSync();
      }
    }
  }

  private async sync(): Promise<void> {
    if (this.stopped) return;
    if (this.pod.metadata?.deletionTimestamp) {
      await this.terminate();
      return;
    }
    if (this.endedPatch) return;
    await this.writeStatus();
    const lookup = new ObjectLookup(this.ctx.core, this.pod.metadata?.namespace ?? 'default');

    if (!this.volumes.ready) {
      const retryIn = await this.volumes.mount(this, lookup);
      if (retryIn !== undefined) {
        this.requestSync(retryIn);
        return;
      }
    }
    if (!this.podIP) {
      this.podIP = this.ctx.allocateIP();
    }

    const policy = this.pod.spec?.restartPolicy ?? 'Always';
    for (const c of this.initContainers) {
      const last = current(c);
      if (last && !last.finishedAt) {
        await this.writeStatus();
        return;
      }
      if (last && last.exitCode === 0) continue;
      if (last && policy === 'Never') {
        await this.writeStatus();
        return;
      }
      const result = await startContainer(this, c, lookup);
      await this.writeStatus();
      if (!result.ok) this.requestSync(result.retryMs);
      return;
    }

    let retryMs: number | undefined;
    for (const c of this.containers) {
      if (this.stopped || this.pod.metadata?.deletionTimestamp) break;
      const last = current(c);
      if (last && !last.finishedAt) continue;
      if (last && policy === 'Never') continue;
      if (last && policy === 'OnFailure' && last.exitCode === 0) continue;
      const result = await startContainer(this, c, lookup);
      if (!result.ok) retryMs = Math.min(retryMs ?? Infinity, result.retryMs);
    }
    await this.writeStatus();
    if (this.pod.metadata?.deletionTimestamp) this.requestSync();
    else if (retryMs !== undefined) this.requestSync(retryMs);
  }

  /** The instance ended with `code` (the container's program exited or was killed): record it and sync. */
  onExit(c: ContainerRuntime, instance: Instance, code: number, reason: string, message: string | undefined, quiet = false): void {
    if (instance.finishedAt || this.stopped) return;
    const last = quiet ? undefined : crashLine(code, message);
    if (last && code !== 0) appendLogs(instance, [last], 'stderr');
    clearTimers(c);
    c.ready = c.init && code === 0;
    c.started = false;
    finish(instance, code, reason, terminationMessageOf(c.spec, instance.logs, code, message));
    void this.writeStatus();
    this.requestSync();
  }

  /** Kills the containers (Killing events), waits a shortened grace period, then deletes the pod. */
  private async terminate(): Promise<void> {
    if (this.terminating) return;
    this.terminating = true;
    const pod = this.pod;
    const running = this.allContainers().filter(isRunning);
    for (const c of this.allContainers()) clearTimers(c);
    for (const c of running) this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Killing', `Stopping container ${c.name}`);
    const graceSeconds = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (running.length > 0) await this.sleep(Math.min(graceSeconds * 1000, this.ctx.maxGraceMs), true);
    for (const c of running) {
      c.ready = false;
      c.started = false;
      killRunning(c, 0, 'Completed');
    }
    for (const c of this.containers) c.ready = false;
    await this.writeStatus();
    try {
      await this.ctx.core.deleteNamespacedPod({
        name: pod.metadata!.name!,
        namespace: pod.metadata!.namespace!,
        gracePeriodSeconds: 0,
        body: { gracePeriodSeconds: 0, preconditions: { uid: this.uid } },
      });
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code !== 404 && code !== 409) throw err;
    }
  }

  /**
   * Writes the pod's latest status if it changed (serialized; merge patch on pods/status). A failed
   * write is retried with back-off until one lands (the status manager's behaviour).
   */
  writeStatus(): Promise<void> {
    return this.status.write();
  }

  /** Runs `fn` after `ms` unless the worker stopped; cleared with the container's other timers. */
  timer(c: ContainerRuntime, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      c.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    c.timers.add(t);
  }

  /** Sleeps, ending early when the worker stops or (unless `uninterruptible`) the pod is deleted. */
  sleep(ms: number, uninterruptible = false): Promise<void> {
    return this.sleeps.sleep(ms, uninterruptible);
  }

  /** The pod reference events use (with the pod's current resourceVersion). */
  podRef(): EventRef {
    const m = this.pod.metadata!;
    return { kind: 'Pod', namespace: m.namespace, name: m.name!, uid: m.uid, apiVersion: 'v1', resourceVersion: m.resourceVersion };
  }

  /** A container reference (`spec.containers{name}` / `spec.initContainers{name}`). */
  containerRef(c: ContainerRuntime): EventRef {
    return { ...this.podRef(), fieldPath: `${c.init ? 'spec.initContainers' : 'spec.containers'}{${c.name}}` };
  }
}
