/**
 * The timers of a freshly started container instance, as the kubelet's probes and the container's
 * program drive it: its exit (`crash`, `oom`, a script that ends, an init container's work), its
 * startup, readiness and liveness probes (`not-ready`, `not-live`), its `tick` output.
 */

import { handlesSigterm, hashNumber, probeFailure, scriptExit } from './container-programs.js';
import type { ContainerRuntime, Instance } from './runtime.js';
import { appendLogs } from './runtime.js';
import type { WorkerHost } from './worker-context.js';

/** Exit, readiness and startup timers of a freshly started instance. */
export function scheduleLifecycle(host: WorkerHost, c: ContainerRuntime, instance: Instance): void {
  const exit = c.behaviour.exit;
  if (exit) {
    host.timer(c, exit.afterSeconds * 1000, () => host.onExit(c, instance, exit.code, exit.reason, exit.message));
  } else if (c.behaviour.waits) {
    // Runs until the pod is deleted, as a real `until nc -z db 5432; do sleep 2; done` does.
  } else if (scriptExit(c.spec) !== undefined) {
    const code = scriptExit(c.spec)!;
    host.timer(c, 200 + (hashNumber(c.name) % 300), () =>
      host.onExit(c, instance, code, code === 0 ? 'Completed' : 'Error', undefined, true),
    );
  } else if (c.init) {
    host.timer(c, 300 + (hashNumber(c.name) % 500), () => host.onExit(c, instance, 0, 'Completed', undefined));
  }
  if (c.behaviour.tickSeconds > 0) scheduleTicks(host, c, instance, c.behaviour.tickSeconds * 1000);
  if (c.init) return;
  if (c.spec.startupProbe) {
    // Never started: no liveness or readiness probe runs, and the container is not ready.
    if (c.behaviour.notStarted) return scheduleKillingProbe(host, c, instance, 'startup');
    host.timer(c, (c.spec.startupProbe.initialDelaySeconds ?? 0) * 1000 + 100, () => {
      c.started = true;
      void host.writeStatus();
    });
  }
  if (c.behaviour.notLive) scheduleKillingProbe(host, c, instance, 'liveness');
  const probe = c.spec.readinessProbe;
  if (!probe) {
    c.ready = true;
    return;
  }
  const startupDelay = c.spec.startupProbe ? (c.spec.startupProbe.initialDelaySeconds ?? 0) * 1000 + 100 : 0;
  const firstProbe = Math.max(startupDelay, (probe.initialDelaySeconds ?? 0) * 1000) + 200;
  const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
  const runProbe = (): void => {
    if (instance.finishedAt || host.isTerminating) return;
    if (c.behaviour.notReady) {
      host.ctx.recorder.event(
        host.containerRef(c),
        'Warning',
        'Unhealthy',
        `Readiness probe failed: ${probeFailure(probe, host.podIP ?? '', c.spec)}`,
      );
      host.timer(c, period, runProbe);
      return;
    }
    c.ready = true;
    void host.writeStatus();
  };
  host.timer(c, firstProbe, runProbe);
}

/** `tick=N`: a steady trickle of output (`tick 1`, `tick 2`...) while the instance runs. */
function scheduleTicks(host: WorkerHost, c: ContainerRuntime, instance: Instance, periodMs: number): void {
  let n = 0;
  const tick = (): void => {
    if (instance.finishedAt || host.isTerminating) return;
    appendLogs(instance, [`tick ${++n}`]);
    host.timer(c, periodMs, tick);
  };
  host.timer(c, periodMs, tick);
}

/**
 * `not-live` / `not-started`: the liveness or startup probe fails failureThreshold times, then the
 * kubelet kills the container ("Container x failed liveness probe, will be restarted").
 */
function scheduleKillingProbe(host: WorkerHost, c: ContainerRuntime, instance: Instance, kind: 'liveness' | 'startup'): void {
  const probe = kind === 'liveness' ? c.spec.livenessProbe : c.spec.startupProbe;
  if (!probe) return;
  const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
  const threshold = Math.max(1, probe.failureThreshold ?? 3);
  const Kind = kind === 'liveness' ? 'Liveness' : 'Startup';
  let failures = 0;
  const run = (): void => {
    if (instance.finishedAt || host.isTerminating) return;
    failures += 1;
    host.ctx.recorder.event(
      host.containerRef(c),
      'Warning',
      'Unhealthy',
      `${Kind} probe failed: ${probeFailure(probe, host.podIP ?? '', c.spec)}`,
    );
    if (failures < threshold) {
      host.timer(c, period, run);
      return;
    }
    host.ctx.recorder.event(host.containerRef(c), 'Normal', 'Killing', `Container ${c.name} failed ${kind} probe, will be restarted`);
    const grace = Math.min((host.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000, host.ctx.maxGraceMs);
    const graceful = handlesSigterm(c.spec);
    host.timer(c, grace, () => host.onExit(c, instance, graceful ? 0 : 137, graceful ? 'Completed' : 'Error', undefined, true));
  };
  host.timer(c, (probe.initialDelaySeconds ?? 0) * 1000 + period, run);
}
