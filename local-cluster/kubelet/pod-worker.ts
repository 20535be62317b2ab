/**
 * One pod's worker, modelled on the kubelet's pod worker + kuberuntime SyncPod: mounts volumes,
 * creates the sandbox (pod IP), runs init containers in order, starts containers (image pull with
 * back-off, env resolution, Created/Started), restarts exited containers with CrashLoopBackOff,
 * runs readiness probes, and on deletion kills the containers and finishes the pod. Every state
 * change is written to `pods/status` and the kubelet's events.
 */

import { createHash } from 'node:crypto';
import type { CoreV1Api, V1Container, V1Pod, V1Probe } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { behaviourFor } from './behaviour.js';
import type { EventRecorder, EventRef } from './events.js';
import { errorText } from './events.js';
import type { KubeletBackoff } from './kubelet-backoff.js';
import { goDuration } from './kubelet-backoff.js';
import { crashLine, startupLines } from './logs.js';
import { endedStatus } from './pod-ending.js';
import { envError, ObjectLookup, volumeProblems } from './references.js';
import { isLatest, parseImage, pull, resolvedImageName, transientPullError } from './registry.js';
import type { ContainerRuntime, Instance } from './runtime.js';
import { appendLogs, current, finish, isRunning, newContainerId, newContainerRuntime } from './runtime.js';
import { buildPodStatus } from './status.js';
import { StatusWriter } from './status-writer.js';

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

const MAX_MOUNT_BACKOFF_MS = 122_000;

/** The kubelet's `format.Pod`: `name_namespace(uid)`. */
function formatPod(pod: V1Pod): string {
  return `${pod.metadata?.name}_${pod.metadata?.namespace}(${pod.metadata?.uid})`;
}

/** Drives one pod on one simulated node. */
export class PodWorker {
  pod: V1Pod;
  podIP?: string;
  startTime = new Date();
  readonly initContainers: ContainerRuntime[];
  readonly containers: ContainerRuntime[];
  private volumesReady = false;
  private readonly mountRetry = new Map<string, { delay: number; next: number }>();
  private mountWaitSince?: number;
  private syncing = false;
  private syncAgain = false;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  private terminating = false;
  private readonly statusWriter: StatusWriter;
  private lastWritten = '';
  /** Each condition's status as last written (`Ready` → `True`), to notice another writer's change. */
  private writtenConditions = new Map<string, string>();
  private reconcileTimer?: NodeJS.Timeout;
  private readonly sleeps = new Set<() => void>();
  private readonly graceSleeps = new Set<() => void>();
  /** Set once the kubelet ended the pod (evicted): the status it wrote, never rewritten. */
  private endedPatch?: Record<string, unknown>;

  constructor(
    pod: V1Pod,
    private readonly ctx: WorkerContext,
  ) {
    this.pod = pod;
    const ann = pod.metadata?.annotations;
    this.initContainers = (pod.spec?.initContainers ?? []).map((c) => newContainerRuntime(c, true, behaviourFor(ann, c.name)));
    this.containers = (pod.spec?.containers ?? []).map((c) => newContainerRuntime(c, false, behaviourFor(ann, c.name)));
    this.adoptFromStatus();
    this.statusWriter = new StatusWriter(() => this.doWriteStatus(), {
      log: ctx.log,
      what: `status of pod ${pod.metadata?.namespace}/${pod.metadata?.name}`,
      ...(ctx.statusRetryMs ? { initialMs: ctx.statusRetryMs.initial, maxMs: ctx.statusRetryMs.max } : {}),
    });
  }

  get uid(): string {
    return this.pod.metadata?.uid ?? '';
  }

  /** The kubelet ended the pod (evicted): it holds no resources and is never synced again but to finish its deletion. */
  get ended(): boolean {
    return this.endedPatch !== undefined;
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
    for (const c of this.allContainers()) this.clearTimers(c);
    for (const wake of this.sleeps) wake();
    for (const c of this.allContainers().filter(isRunning)) {
      this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Killing', `Stopping container ${c.name}`);
      c.ready = false;
      c.started = false;
      const last = current(c);
      if (last && !last.finishedAt) finish(last, 137, 'Error', undefined);
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
      this.pod = pod;
      this.reconcileIfOverwritten(pod);
    }
    if (pod.metadata?.deletionTimestamp && !this.terminating) {
      // Cut a pull or slow start short so the pod can be killed at once.
      for (const wake of this.sleeps) wake();
      this.requestSync();
    }
  }

  /**
   * The status manager's reconcile (status_manager.go `needsReconcile`, run by its 10 s syncBatch):
   * when the stored status differs from what this kubelet wrote, e.g. the node lifecycle controller
   * set `Ready=False` (NodeNotReady) while the node missed its heartbeats, the kubelet writes its own
   * status again. Without it a pod stays not Ready for ever after its node came back.
   */
  private reconcileIfOverwritten(pod: V1Pod): void {
    if (this.stopped || this.terminating || this.writtenConditions.size === 0 || this.reconcileTimer) return;
    const stored = new Map((pod.status?.conditions ?? []).map((c) => [c.type, c.status]));
    const diverged = [...this.writtenConditions].some(([type, status]) => stored.get(type) !== status);
    if (!diverged) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = undefined;
      this.lastWritten = '';
      void this.writeStatus();
    }, this.ctx.reconcileMs ?? 5000);
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
    this.statusWriter.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    for (const c of this.allContainers()) this.clearTimers(c);
    for (const wake of [...this.sleeps, ...this.graceSleeps]) wake();
    if (this.podIP) this.ctx.releaseIP(this.podIP);
    for (const c of this.allContainers()) {
      const last = current(c);
      if (last && !last.finishedAt) finish(last, 137, 'Error', undefined);
    }
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

    if (!this.volumesReady) {
      const retryIn = await this.mountVolumes(lookup);
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
      const result = await this.startContainer(c, lookup);
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
      const result = await this.startContainer(c, lookup);
      if (!result.ok) retryMs = Math.min(retryMs ?? Infinity, result.retryMs);
    }
    await this.writeStatus();
    if (this.pod.metadata?.deletionTimestamp) this.requestSync();
    else if (retryMs !== undefined) this.requestSync(retryMs);
  }

  /** Returns undefined when every volume is mounted, else ms until the next attempt. */
  private async mountVolumes(lookup: ObjectLookup): Promise<number | undefined> {
    const problems = await volumeProblems(this.pod, lookup);
    if (problems.length === 0) {
      this.volumesReady = true;
      return undefined;
    }
    const now = Date.now();
    let nextTry = now + this.ctx.syncRetryMs;
    for (const p of problems) {
      if (!p.event) continue;
      const retry = this.mountRetry.get(p.volume);
      if (!retry || now >= retry.next) {
        // The volume reconciler's exponential back-off: 500 ms doubling up to 2m2s.
        const delay = retry ? Math.min(retry.delay * 2, MAX_MOUNT_BACKOFF_MS) : 500;
        this.mountRetry.set(p.volume, { delay, next: now + delay });
        this.ctx.recorder.event(this.podRef(), 'Warning', 'FailedMount', p.event);
      }
      nextTry = Math.min(nextTry, this.mountRetry.get(p.volume)!.next);
    }
    this.mountWaitSince ??= now;
    if (now - this.mountWaitSince >= this.ctx.mountTimeoutMs) {
      const unmounted = problems.map((p) => p.volume).sort();
      const all = (this.pod.spec?.volumes ?? []).map((v) => v.name).sort();
      this.ctx.recorder.event(
        this.podRef(),
        'Warning',
        'FailedMount',
        `Unable to attach or mount volumes: unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[${all.join(' ')}]: timed out waiting for the condition`,
      );
      this.mountWaitSince = now;
    }
    return Math.max(50, nextTry - now);
  }

  private async startContainer(c: ContainerRuntime, lookup: ObjectLookup): Promise<{ ok: true } | { ok: false; retryMs: number }> {
    const pod = this.pod;
    const last = current(c);
    const key = `${pod.metadata?.name}_${pod.metadata?.namespace}_${pod.metadata?.uid}_${c.name}`;
    if (last?.finishedAt) {
      const finishedAt = last.finishedAt.getTime();
      if (this.ctx.crashBackoff.isInBackOffSince(key, finishedAt)) {
        this.ctx.recorder.event(this.containerRef(c), 'Warning', 'BackOff', 'Back-off restarting failed container');
        c.waiting = {
          reason: 'CrashLoopBackOff',
          message: `back-off ${goDuration(this.ctx.crashBackoff.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}`,
        };
        const remaining = this.ctx.crashBackoff.remainingSince(key, finishedAt);
        return { ok: false, retryMs: Math.min(workerBackoffMs(this.ctx.crashBackoff), remaining + 20) };
      }
      this.ctx.crashBackoff.next(key, finishedAt);
    }

    const pulled = await this.ensureImage(c);
    if (!pulled.ok) return pulled;
    if (this.stopped || this.pod.metadata?.deletionTimestamp) return { ok: false, retryMs: 0 };

    const configError = await envError(pod, c.spec, lookup);
    if (configError) {
      this.ctx.recorder.event(this.containerRef(c), 'Warning', 'Failed', `Error: ${configError}`);
      c.waiting = { reason: 'CreateContainerConfigError', message: configError };
      return { ok: false, retryMs: this.ctx.syncRetryMs };
    }

    const instance: Instance = { id: newContainerId(), startedAt: new Date(), logs: [], listeners: new Set() };
    c.instances.push(instance);
    c.waiting = undefined;
    c.ready = false;
    c.started = !c.spec.startupProbe;
    this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Created', `Created container ${c.name}`);
    this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Started', `Started container ${c.name}`);
    appendLogs(instance, [...startupLines(c.spec, this.podIP ?? ''), ...c.behaviour.logs]);
    this.scheduleLifecycle(c, instance);
    return { ok: true };
  }

  /** EnsureImageExists: pull policy, pull back-off, Pulling/Pulled/Failed/BackOff events. */
  private async ensureImage(c: ContainerRuntime): Promise<{ ok: true } | { ok: false; retryMs: number }> {
    const image = c.spec.image ?? '';
    const ref = this.containerRef(c);
    const fail = (reason: string, message: string) => {
      c.waiting = { reason, message };
      this.ctx.recorder.event(ref, 'Warning', 'Failed', `Error: ${reason}`);
      return { ok: false as const, retryMs: this.ctx.syncRetryMs };
    };
    if (!parseImage(image)) {
      const msg = `Failed to apply default image tag "${image}": couldn't parse image reference "${image}": invalid reference format`;
      this.ctx.recorder.event(ref, 'Warning', 'InspectFailed', msg);
      c.waiting = { reason: 'InvalidImageName', message: msg };
      this.ctx.recorder.event(ref, 'Warning', 'Failed', 'Error: InvalidImageName');
      return { ok: false, retryMs: this.ctx.syncRetryMs };
    }
    const policy = c.spec.imagePullPolicy ?? (isLatest(image) ? 'Always' : 'IfNotPresent');
    const resolved = resolvedImageName(image);
    const present = this.ctx.images.has(resolved);
    const succeed = () => {
      const outcome = pull(image);
      if (outcome.ok) {
        c.imageID = outcome.imageID;
        c.resolvedImage = outcome.resolvedImage;
      }
    };
    if (policy !== 'Always' && present) {
      this.ctx.recorder.event(ref, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
      succeed();
      if (c.behaviour.slowStartSeconds > 0 && c.instances.length === 0) await this.sleep(c.behaviour.slowStartSeconds * 1000);
      return { ok: true };
    }
    if (policy === 'Never') {
      const msg = `Container image "${image}" is not present with pull policy of Never`;
      this.ctx.recorder.event(ref, 'Warning', 'ErrImageNeverPull', msg);
      c.waiting = { reason: 'ErrImageNeverPull', message: msg };
      this.ctx.recorder.event(ref, 'Warning', 'Failed', 'Error: ErrImageNeverPull');
      return { ok: false, retryMs: this.ctx.syncRetryMs };
    }
    const backoffKey = `${this.uid}_${image}`;
    if (this.ctx.imageBackoff.isInBackOffSinceUpdate(backoffKey)) {
      const msg = `Back-off pulling image "${image}"`;
      this.ctx.recorder.event(ref, 'Normal', 'BackOff', msg);
      c.waiting = { reason: 'ImagePullBackOff', message: msg };
      this.ctx.recorder.event(ref, 'Warning', 'Failed', 'Error: ImagePullBackOff');
      return {
        ok: false,
        retryMs: Math.min(workerBackoffMs(this.ctx.imageBackoff), this.ctx.imageBackoff.remainingSinceUpdate(backoffKey) + 20),
      };
    }
    this.ctx.recorder.event(ref, 'Normal', 'Pulling', `Pulling image "${image}"`);
    const started = performance.now();
    c.pullAttempts += 1;
    const transient = c.pullAttempts <= c.behaviour.transientPullFailures;
    const outcome = transient ? undefined : pull(image);
    const duration =
      outcome && !outcome.ok
        ? failDurationMs(image)
        : c.behaviour.slowStartSeconds > 0
          ? c.behaviour.slowStartSeconds * 1000
          : pullDurationMs(image);
    await this.sleep(duration);
    if (this.stopped || this.pod.metadata?.deletionTimestamp) return { ok: false, retryMs: 0 };
    const error = transient ? transientPullError(image) : outcome && !outcome.ok ? outcome.message : undefined;
    if (error !== undefined) {
      this.ctx.recorder.event(ref, 'Warning', 'Failed', `Failed to pull image "${image}": ${error}`);
      this.ctx.imageBackoff.next(backoffKey, Date.now());
      const failed = fail('ErrImagePull', error);
      // After the first attempt, PLEG's event for the new sandbox re-syncs the pod within ~1 s
      // (hence ErrImagePull turns into ImagePullBackOff quickly); later the worker's re-queue.
      return { ...failed, retryMs: c.pullAttempts === 1 ? 1000 : workerBackoffMs(this.ctx.imageBackoff) };
    }
    this.ctx.recorder.event(ref, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${goDuration(performance.now() - started)}`);
    this.ctx.images.add(resolved);
    succeed();
    return { ok: true };
  }

  /** Exit, readiness and startup timers of a freshly started instance. */
  private scheduleLifecycle(c: ContainerRuntime, instance: Instance): void {
    const exit = c.behaviour.exit;
    if (exit) {
      this.timer(c, exit.afterSeconds * 1000, () => this.onExit(c, instance, exit.code, exit.reason, exit.message));
    } else if (scriptExit(c.spec) !== undefined) {
      const code = scriptExit(c.spec)!;
      this.timer(c, 200 + (hashNumber(c.name) % 300), () =>
        this.onExit(c, instance, code, code === 0 ? 'Completed' : 'Error', undefined, true),
      );
    } else if (c.init) {
      this.timer(c, 300 + (hashNumber(c.name) % 500), () => this.onExit(c, instance, 0, 'Completed', undefined));
    }
    if (c.behaviour.tickSeconds > 0) this.scheduleTicks(c, instance, c.behaviour.tickSeconds * 1000);
    if (c.init) return;
    if (c.spec.startupProbe) {
      this.timer(c, (c.spec.startupProbe.initialDelaySeconds ?? 0) * 1000 + 100, () => {
        c.started = true;
        void this.writeStatus();
      });
    }
    this.scheduleLiveness(c, instance);
    const probe = c.spec.readinessProbe;
    if (!probe) {
      c.ready = true;
      return;
    }
    const startupDelay = c.spec.startupProbe ? (c.spec.startupProbe.initialDelaySeconds ?? 0) * 1000 + 100 : 0;
    const firstProbe = Math.max(startupDelay, (probe.initialDelaySeconds ?? 0) * 1000) + 200;
    const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
    const runProbe = (): void => {
      if (instance.finishedAt || this.terminating) return;
      if (c.behaviour.notReady) {
        this.ctx.recorder.event(
          this.containerRef(c),
          'Warning',
          'Unhealthy',
          `Readiness probe failed: ${probeFailure(probe, this.podIP ?? '', c.spec)}`,
        );
        this.timer(c, period, runProbe);
        return;
      }
      c.ready = true;
      void this.writeStatus();
    };
    this.timer(c, firstProbe, runProbe);
  }

  /** `tick=N`: a steady trickle of output (`tick 1`, `tick 2`...) while the instance runs. */
  private scheduleTicks(c: ContainerRuntime, instance: Instance, periodMs: number): void {
    let n = 0;
    const tick = (): void => {
      if (instance.finishedAt || this.terminating) return;
      appendLogs(instance, [`tick ${++n}`]);
      this.timer(c, periodMs, tick);
    };
    this.timer(c, periodMs, tick);
  }

  /** `not-live`: the liveness probe fails failureThreshold times, then the kubelet kills the container. */
  private scheduleLiveness(c: ContainerRuntime, instance: Instance): void {
    const probe = c.spec.livenessProbe;
    if (!probe || !c.behaviour.notLive) return;
    const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
    const threshold = Math.max(1, probe.failureThreshold ?? 3);
    let failures = 0;
    const run = (): void => {
      if (instance.finishedAt || this.terminating) return;
      failures += 1;
      this.ctx.recorder.event(
        this.containerRef(c),
        'Warning',
        'Unhealthy',
        `Liveness probe failed: ${probeFailure(probe, this.podIP ?? '', c.spec)}`,
      );
      if (failures < threshold) {
        this.timer(c, period, run);
        return;
      }
      this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Killing', `Container ${c.name} failed liveness probe, will be restarted`);
      const grace = Math.min((this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000, this.ctx.maxGraceMs);
      const graceful = handlesSigterm(c.spec);
      this.timer(c, grace, () => this.onExit(c, instance, graceful ? 0 : 137, graceful ? 'Completed' : 'Error', undefined, true));
    };
    this.timer(c, (probe.initialDelaySeconds ?? 0) * 1000 + period, run);
  }

  private onExit(c: ContainerRuntime, instance: Instance, code: number, reason: string, message: string | undefined, quiet = false): void {
    if (instance.finishedAt || this.stopped) return;
    const last = quiet ? undefined : crashLine(code, message);
    if (last && code !== 0) appendLogs(instance, [last], 'stderr');
    let terminationMessage = message;
    if (!terminationMessage && code !== 0 && c.spec.terminationMessagePolicy === 'FallbackToLogsOnError') {
      terminationMessage = instance.logs
        .slice(-80)
        .map((l) => l.text)
        .join('\n')
        .slice(-2048);
    }
    this.clearTimers(c);
    c.ready = c.init && code === 0;
    c.started = false;
    finish(instance, code, reason, terminationMessage);
    void this.writeStatus();
    this.requestSync();
  }

  /** Kills the containers (Killing events), waits a shortened grace period, then deletes the pod. */
  private async terminate(): Promise<void> {
    if (this.terminating) return;
    this.terminating = true;
    const pod = this.pod;
    const running = this.allContainers().filter(isRunning);
    for (const c of this.allContainers()) this.clearTimers(c);
    for (const c of running) this.ctx.recorder.event(this.containerRef(c), 'Normal', 'Killing', `Stopping container ${c.name}`);
    const graceSeconds = pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    if (running.length > 0) await this.sleep(Math.min(graceSeconds * 1000, this.ctx.maxGraceMs), true);
    for (const c of running) {
      c.ready = false;
      c.started = false;
      const last = current(c);
      if (last && !last.finishedAt) finish(last, 0, 'Completed', undefined);
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
    return this.statusWriter.write();
  }

  private async doWriteStatus(): Promise<void> {
    if (this.stopped) return;
    const status = this.endedPatch ?? buildPodStatus(this);
    const json = JSON.stringify(status);
    if (json === this.lastWritten) return;
    try {
      const updated = await this.ctx.core.patchNamespacedPodStatus(
        { name: this.pod.metadata!.name!, namespace: this.pod.metadata!.namespace!, body: { metadata: { uid: this.uid }, status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      this.lastWritten = json;
      const conditions = (status.conditions ?? []) as Array<{ type: string; status: string }>;
      this.writtenConditions = new Map(conditions.map((c) => [c.type, c.status]));
      if (isNewer(updated, this.pod)) this.pod = updated;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return;
      throw err;
    }
  }

  /** Rebuilds runtime state from a status written by an earlier kubelet process (restart). */
  private adoptFromStatus(): void {
    const status = this.pod.status;
    if (!status?.containerStatuses?.some((s) => s.containerID)) return;
    if (status.startTime) this.startTime = new Date(status.startTime);
    if (status.podIP) this.podIP = status.podIP;
    this.volumesReady = true;
    const byName = new Map([...(status.initContainerStatuses ?? []), ...status.containerStatuses].map((s) => [s.name, s]));
    for (const c of this.allContainers()) {
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
  }

  private timer(c: ContainerRuntime, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      c.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    c.timers.add(t);
  }

  private clearTimers(c: ContainerRuntime): void {
    for (const t of c.timers) clearTimeout(t);
    c.timers.clear();
  }

  /** Sleeps, ending early when the worker stops or (unless `uninterruptible`) the pod is deleted. */
  private sleep(ms: number, uninterruptible = false): Promise<void> {
    // A timer is armed from the event loop's cached clock, so under load it can fire a few ms
    // before `ms` have passed on performance.now(): re-arm for the rest, as a real pull lasts.
    const deadline = performance.now() + ms;
    return new Promise((resolve) => {
      let t: NodeJS.Timeout;
      const done = () => {
        clearTimeout(t);
        this.sleeps.delete(done);
        this.graceSleeps.delete(done);
        resolve();
      };
      const arm = () => {
        const rest = deadline - performance.now();
        t = rest > 0 ? setTimeout(arm, Math.ceil(rest)) : setTimeout(done, 0);
      };
      t = setTimeout(arm, ms);
      if (uninterruptible) this.graceSleeps.add(done);
      else this.sleeps.add(done);
    });
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

/** True when `a` has a larger resourceVersion than `b` (etcd revisions are numeric). */
function isNewer(a: V1Pod, b: V1Pod): boolean {
  try {
    return BigInt(a.metadata?.resourceVersion ?? '0') >= BigInt(b.metadata?.resourceVersion ?? '0');
  } catch {
    return true;
  }
}

/**
 * When the pod worker retries a pod whose sync failed with a back-off: the real one re-queues
 * after jitter(10 s, 0.5), i.e. the back-off base; scaled together with the base.
 */
function workerBackoffMs(backoff: KubeletBackoff): number {
  return backoff.initialMs * (1 + Math.random() * 0.5);
}

function hashNumber(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}

/** A plausible, deterministic pull time for an image (layers cached in the local mirror). */
function pullDurationMs(image: string): number {
  return 400 + (hashNumber(image) % 900);
}

/** How long a failing pull takes before docker reports the error. */
function failDurationMs(image: string): number {
  return 200 + (hashNumber(image) % 400);
}

const SHELL_IMAGES = new Set(['busybox', 'alpine', 'ubuntu', 'debian', 'centos', 'fedora']);

const SHORT_STEP = String.raw`(echo|printf|true|false|env|date|ls|pwd|id|hostname|uname|exit(\s+\d+)?)\b[^;&|]*`;
const SHORT_SCRIPT = new RegExp(String.raw`^\s*${SHORT_STEP}(\s*(;|&&)\s*${SHORT_STEP})*\s*;?\s*$`);

/**
 * The exit code of a shell-image container whose command obviously ends (`echo hi`, `exit 1`, or
 * no command at all: `sh` without a TTY exits at once), as on a real node; undefined when it keeps
 * running (sleep, servers, loops, anything else).
 */
function scriptExit(spec: V1Container): number | undefined {
  const repo =
    parseImage(spec.image ?? '')
      ?.path.split('/')
      .pop() ?? '';
  if (!SHELL_IMAGES.has(repo) || spec.tty || spec.stdin) return undefined;
  const argv = [...(spec.command ?? []), ...(spec.args ?? [])];
  if (argv.length === 0) return 0;
  const script = /^(\/bin\/)?(sh|bash|ash)$/.test(argv[0]) && argv[1] === '-c' ? argv.slice(2).join(' ') : argv.join(' ');
  if (!SHORT_SCRIPT.test(script)) return undefined;
  const exits = [...script.matchAll(/\bexit\s+(\d+)/g)];
  if (/\bfalse\b/.test(script) && exits.length === 0) return 1;
  return exits.length ? Number(exits[0][1]) : 0;
}

/** Servers that exit 0 on SIGTERM (others are SIGKILLed after the grace period: 137). */
function handlesSigterm(spec: V1Container): boolean {
  const repo =
    parseImage(spec.image ?? '')
      ?.path.split('/')
      .pop() ?? '';
  return ['nginx', 'httpd', 'redis', 'postgres', 'caddy', 'traefik', 'haproxy'].includes(repo.replace(/-.*$/, ''));
}

/** The prober's failure output for a probe that keeps failing. */
function probeFailure(probe: V1Probe, podIP: string, container: V1Container): string {
  if (probe.httpGet) return 'HTTP probe failed with statuscode: 503';
  if (probe.tcpSocket) {
    return `dial tcp ${podIP}:${resolvePort(probe.tcpSocket.port, container)}: connect: connection refused`;
  }
  if (probe.exec) {
    const cmd = probe.exec.command ?? [];
    const catIdx = cmd.indexOf('cat');
    if (catIdx >= 0 && cmd[catIdx + 1]) return `cat: can't open '${cmd[catIdx + 1]}': No such file or directory\n`;
    return '';
  }
  return '';
}

function resolvePort(port: unknown, container: V1Container): string {
  if (typeof port === 'number') return String(port);
  const named = container.ports?.find((p) => p.name === port);
  return named ? String(named.containerPort) : String(port);
}
