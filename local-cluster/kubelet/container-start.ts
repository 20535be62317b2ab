/**
 * Starting one container (kuberuntime `startContainer` after `EnsureImageExists`): the restart
 * back-off (CrashLoopBackOff), the image pull with its pull policy and back-off (Pulling / Pulled
 * / Failed / BackOff Events, docker's error texts from the simulated registry), env resolution
 * (CreateContainerConfigError), then Created / Started and the instance's timers.
 */

import { scheduleLifecycle } from './container-lifecycle.js';
import { hashNumber } from './container-programs.js';
import { goDuration, workerBackoffMs } from './kubelet-backoff.js';
import { startupLines } from './logs.js';
import { envError, type ObjectLookup } from './references.js';
import { isLatest, parseImage, pull, resolvedImageName, transientPullError } from './registry.js';
import type { ContainerRuntime } from './runtime.js';
import { appendLogs, current, type Instance, newContainerId } from './runtime.js';
import { formatPod, type WorkerHost } from './worker-context.js';

export async function startContainer(
  host: WorkerHost,
  c: ContainerRuntime,
  lookup: ObjectLookup,
): Promise<{ ok: true } | { ok: false; retryMs: number }> {
  const pod = host.pod;
  const last = current(c);
  const key = `${pod.metadata?.name}_${pod.metadata?.namespace}_${pod.metadata?.uid}_${c.name}`;
  if (last?.finishedAt) {
    const finishedAt = last.finishedAt.getTime();
    if (host.ctx.crashBackoff.isInBackOffSince(key, finishedAt)) {
      host.ctx.recorder.event(host.containerRef(c), 'Warning', 'BackOff', 'Back-off restarting failed container');
      c.waiting = {
        reason: 'CrashLoopBackOff',
        message: `back-off ${goDuration(host.ctx.crashBackoff.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}`,
      };
      const remaining = host.ctx.crashBackoff.remainingSince(key, finishedAt);
      return { ok: false, retryMs: Math.min(workerBackoffMs(host.ctx.crashBackoff), remaining + 20) };
    }
    host.ctx.crashBackoff.next(key, finishedAt);
  }

  const pulled = await ensureImage(host, c);
  if (!pulled.ok) return pulled;
  if (host.isStopped || host.pod.metadata?.deletionTimestamp) return { ok: false, retryMs: 0 };

  const configError = await envError(pod, c.spec, lookup);
  if (configError) {
    host.ctx.recorder.event(host.containerRef(c), 'Warning', 'Failed', `Error: ${configError}`);
    c.waiting = { reason: 'CreateContainerConfigError', message: configError };
    return { ok: false, retryMs: host.ctx.syncRetryMs };
  }

  const instance: Instance = { id: newContainerId(), startedAt: new Date(), logs: [], listeners: new Set() };
  c.instances.push(instance);
  c.waiting = undefined;
  c.ready = false;
  c.started = !c.spec.startupProbe;
  host.ctx.recorder.event(host.containerRef(c), 'Normal', 'Created', `Created container ${c.name}`);
  host.ctx.recorder.event(host.containerRef(c), 'Normal', 'Started', `Started container ${c.name}`);
  appendLogs(instance, [...startupLines(c.spec, host.podIP ?? ''), ...c.behaviour.logs]);
  scheduleLifecycle(host, c, instance);
  return { ok: true };
}

/** EnsureImageExists: pull policy, pull back-off, Pulling/Pulled/Failed/BackOff events. */
export async function ensureImage(host: WorkerHost, c: ContainerRuntime): Promise<{ ok: true } | { ok: false; retryMs: number }> {
  const image = c.spec.image ?? '';
  const ref = host.containerRef(c);
  const fail = (reason: string, message: string) => {
    c.waiting = { reason, message };
    host.ctx.recorder.event(ref, 'Warning', 'Failed', `Error: ${reason}`);
    return { ok: false as const, retryMs: host.ctx.syncRetryMs };
  };
  if (!parseImage(image)) {
    const msg = `Failed to apply default image tag "${image}": couldn't parse image reference "${image}": invalid reference format`;
    host.ctx.recorder.event(ref, 'Warning', 'InspectFailed', msg);
    c.waiting = { reason: 'InvalidImageName', message: msg };
    host.ctx.recorder.event(ref, 'Warning', 'Failed', 'Error: InvalidImageName');
    return { ok: false, retryMs: host.ctx.syncRetryMs };
  }
  const policy = c.spec.imagePullPolicy ?? (isLatest(image) ? 'Always' : 'IfNotPresent');
  const resolved = resolvedImageName(image);
  const present = host.ctx.images.has(resolved);
  const succeed = () => {
    const outcome = pull(image);
    if (outcome.ok) {
      c.imageID = outcome.imageID;
      c.resolvedImage = outcome.resolvedImage;
    }
  };
  if (policy !== 'Always' && present) {
    host.ctx.recorder.event(ref, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
    succeed();
    if (c.behaviour.slowStartSeconds > 0 && c.instances.length === 0) await host.sleep(c.behaviour.slowStartSeconds * 1000);
    return { ok: true };
  }
  if (policy === 'Never') {
    const msg = `Container image "${image}" is not present with pull policy of Never`;
    host.ctx.recorder.event(ref, 'Warning', 'ErrImageNeverPull', msg);
    c.waiting = { reason: 'ErrImageNeverPull', message: msg };
    host.ctx.recorder.event(ref, 'Warning', 'Failed', 'Error: ErrImageNeverPull');
    return { ok: false, retryMs: host.ctx.syncRetryMs };
  }
  const backoffKey = `${host.uid}_${image}`;
  if (host.ctx.imageBackoff.isInBackOffSinceUpdate(backoffKey)) {
    const msg = `Back-off pulling image "${image}"`;
    host.ctx.recorder.event(ref, 'Normal', 'BackOff', msg);
    c.waiting = { reason: 'ImagePullBackOff', message: msg };
    host.ctx.recorder.event(ref, 'Warning', 'Failed', 'Error: ImagePullBackOff');
    return {
      ok: false,
      retryMs: Math.min(workerBackoffMs(host.ctx.imageBackoff), host.ctx.imageBackoff.remainingSinceUpdate(backoffKey) + 20),
    };
  }
  host.ctx.recorder.event(ref, 'Normal', 'Pulling', `Pulling image "${image}"`);
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
  await host.sleep(duration);
  if (host.isStopped || host.pod.metadata?.deletionTimestamp) return { ok: false, retryMs: 0 };
  const error = transient ? transientPullError(image) : outcome && !outcome.ok ? outcome.message : undefined;
  if (error !== undefined) {
    host.ctx.recorder.event(ref, 'Warning', 'Failed', `Failed to pull image "${image}": ${error}`);
    host.ctx.imageBackoff.next(backoffKey, Date.now());
    const failed = fail('ErrImagePull', error);
    // After the first attempt, PLEG's event for the new sandbox re-syncs the pod within ~1 s
    // (hence ErrImagePull turns into ImagePullBackOff quickly); later the worker's re-queue.
    return { ...failed, retryMs: c.pullAttempts === 1 ? 1000 : workerBackoffMs(host.ctx.imageBackoff) };
  }
  host.ctx.recorder.event(ref, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${goDuration(performance.now() - started)}`);
  host.ctx.images.add(resolved);
  succeed();
  return { ok: true };
}

/** A plausible, deterministic pull time for an image (layers cached in the local mirror). */
function pullDurationMs(image: string): number {
  return 400 + (hashNumber(image) % 900);
}

/** How long a failing pull takes before docker reports the error. */
function failDurationMs(image: string): number {
  return 200 + (hashNumber(image) % 400);
}
