/** Diagnosis of one container status (regular or init). */
import type { CoreV1Event, V1Container, V1ContainerStateTerminated, V1ContainerStatus, V1Pod, V1Probe } from '@kubernetes/client-node';
import { eventTime, timeOf } from '../k8s.js';
import type { FailureClass, Problem } from '../types.js';
import { explainMissing, parseMissing } from './config.js';
import { latestEvent } from './events.js';
import { firstLine } from './first-line.js';
import { probeHandler } from './probe.js';
import { classifyPull, explainPull, PULL_REASONS, type PullKind } from './pull.js';

/** The parts of a Problem that diagnosis decides (timing, events and hints are added later). */
export type Finding = Omit<Problem, 'id' | 'firstSeen' | 'lastSeen' | 'events' | 'hints'>;

/** Context for diagnosing one container. */
export interface ContainerContext {
  pod: V1Pod;
  status: V1ContainerStatus;
  spec?: V1Container;
  init: boolean;
  /** A restartable init container (`restartPolicy: Always`): it runs beside the containers and crash-loops like one. */
  sidecar?: boolean;
  /** Events about the pod. */
  events: CoreV1Event[];
  now: number;
  /** How this container's last pull error was classified, if it was. */
  previousPull?: PullKind;
}

const RECENT_RESTART_MS = 60_000;

/** How long an init container runs before it is reported (`init-running`): most take a second or two. */
export const INIT_RUNNING_REPORT_MS = 30_000;

function pullFinding(ctx: ContainerContext, reason: string, message: string): Finding {
  const image = ctx.status.image || ctx.spec?.image || '';
  let kind = classifyPull(reason, message);
  if (kind === 'unknown') {
    const failed = latestEvent(
      ctx.events,
      (e) => e.reason === 'Failed' && (e.message ?? '').includes(image) && /pull/i.test(e.message ?? ''),
    );
    if (failed) kind = classifyPull(reason, failed.message ?? '');
  }
  if (kind === 'unknown') kind = ctx.previousPull ?? 'unknown';
  const cls: FailureClass = kind === 'permanent' ? 'image-pull-not-found' : 'image-pull-transient';
  return {
    class: cls,
    object: { kind: 'Pod', name: ctx.pod.metadata?.name ?? '' },
    container: ctx.status.name,
    ...(ctx.init ? { initContainer: true } : {}),
    reason,
    message,
    explanation: explainPull(image, kind, message, reason),
  };
}

function crashFinding(ctx: ContainerContext): Finding | undefined {
  const { status: cs, init } = ctx;
  const waiting = cs.state?.waiting;
  const terminated = cs.state?.terminated;
  const running = cs.state?.running;
  const last = cs.lastState?.terminated;
  const crashedNow = crashed(terminated);
  const crashedBefore = crashed(last);
  const restarts = cs.restartCount ?? 0;
  let crashing = waiting?.reason === 'CrashLoopBackOff' || waiting?.reason === 'RunContainerError' || crashedNow;
  if (!crashing && running && crashedBefore && restarts >= 1) {
    const startedAt = timeOf(running.startedAt);
    const recent = startedAt === undefined || ctx.now - startedAt < RECENT_RESTART_MS;
    // Restarted and not ready yet, or restarted repeatedly just now (no readiness probe: ready at once).
    crashing = !cs.ready || (restarts >= 2 && recent);
  }
  if (!crashing) return undefined;
  const term = crashedNow ? terminated : last;
  const oom = term?.reason === 'OOMKilled';
  const sidecar = init && ctx.sidecar === true;
  const cls: FailureClass = init && !sidecar ? 'init-container' : oom ? 'oom-killed' : 'crash-loop';
  const reason = waiting?.reason ?? terminated?.reason ?? last?.reason ?? 'Error';
  const exitCode = term?.exitCode;
  const termMsg = term?.message?.trim() || undefined;
  const who = sidecar ? 'sidecar container' : init ? 'init container' : 'container';
  const restartsText = restarts === 1 ? '1 restart' : `${restarts} restarts`;
  const probe = killingProbe(ctx);
  // A failing probe and an exit a kill gives (0: a server that stops on SIGTERM, 143, 137: SIGKILL
  // after the grace period): the kubelet killed it for its probe, the exit is not the cause. (Its
  // `Killing` Event says so too, but a pod's routine Normal Events are not read: relevance.ts.)
  const killedBy = exitCode === 0 || exitCode === 137 || exitCode === 143;
  let explanation: string;
  if (waiting?.reason === 'RunContainerError') {
    explanation = `${who} cannot start: ${firstLine(waiting.message) ?? 'run error'}`;
  } else if (oom) {
    const limit = ctx.spec?.resources?.limits?.memory;
    explanation = `${who} was killed for running out of memory${limit ? ` (limit ${limit})` : ''}, ${restartsText}`;
  } else if (probe && killedBy) {
    const failures = `${probe.failures} ${probe.failures === 1 ? 'failure' : 'failures'}`;
    explanation = `${who} was restarted by the kubelet: its ${probe.kind} probe ${probe.handler} is failing (${failures}), ${restartsText}`;
  } else if (exitCode === 0 && !init) {
    // A main process that ends normally: under restartPolicy Always the kubelet restarts it for ever.
    explanation = `${who}'s main process exited with code 0 (it ended normally), ${restartsText}: a Deployment's containers must keep running, so the kubelet restarts it (restartPolicy Always)`;
  } else {
    explanation = `${who} exited with code ${exitCode ?? '?'}${termMsg ? ` ("${firstLine(termMsg, 120)}")` : ''}, ${restartsText}`;
  }
  return {
    class: cls,
    object: { kind: 'Pod', name: ctx.pod.metadata?.name ?? '' },
    container: cs.name,
    ...(init ? { initContainer: true } : {}),
    reason,
    message: waiting?.message ?? terminated?.message ?? last?.message ?? '',
    explanation,
    ...(exitCode !== undefined ? { exitCode } : {}),
    restartCount: restarts,
    ...(termMsg ? { terminationMessage: termMsg } : {}),
    ...(probe ? { probe } : {}),
  };
}

/**
 * The probe whose failures made the kubelet restart a container, from its newest `Unhealthy`
 * Event: the liveness probe, or the startup probe of a container that never started.
 */
function killingProbe(ctx: ContainerContext): Problem['probe'] {
  let found: { kind: 'liveness' | 'startup'; event: CoreV1Event } | undefined;
  for (const [kind, words] of [
    ['liveness', /^Liveness probe failed/],
    ['startup', /^Startup probe failed/],
  ] as const) {
    if (!(kind === 'liveness' ? ctx.spec?.livenessProbe : ctx.spec?.startupProbe)) continue;
    const event = latestEvent(ctx.events, (e) => e.reason === 'Unhealthy' && words.test(e.message ?? ''));
    if (event && (!found || eventTime(event) > eventTime(found.event))) found = { kind, event };
  }
  if (!found) return undefined;
  const spec = found.kind === 'liveness' ? ctx.spec?.livenessProbe : ctx.spec?.startupProbe;
  return { kind: found.kind, handler: probeHandler(spec!), failures: found.event.count ?? 1 };
}

/**
 * A termination that was the container's own doing: a non-zero exit or an OOM kill. A state the
 * node lost (`ContainerStatusUnknown`, exit 137: the container could not be located) is not one.
 */
function crashed(t: V1ContainerStateTerminated | undefined): boolean {
  if (t === undefined || t.reason === 'ContainerStatusUnknown') return false;
  return (t.exitCode ?? 0) !== 0 || t.reason === 'OOMKilled';
}

function readinessFinding(ctx: ContainerContext): Finding | undefined {
  const cs = ctx.status;
  if ((ctx.init && !ctx.sidecar) || !cs.state?.running || cs.ready || !ctx.spec?.readinessProbe) return undefined;
  return failingProbe(ctx, 'readiness', ctx.spec.readinessProbe);
}

/** A `readiness-probe` finding from the probe's newest `Unhealthy` Event (`after` ends its explanation). */
function failingProbe(ctx: ContainerContext, kind: 'readiness' | 'startup', probe: V1Probe, after = ''): Finding | undefined {
  const words = `${kind === 'readiness' ? 'Readiness' : 'Startup'} probe failed`;
  const unhealthy = latestEvent(ctx.events, (e) => e.reason === 'Unhealthy' && (e.message ?? '').startsWith(words));
  if (!unhealthy) return undefined;
  const handler = probeHandler(probe);
  const failures = unhealthy.count ?? 1;
  const output = (unhealthy.message ?? '').slice(words.length).replace(/^:\s*/, '');
  return {
    class: 'readiness-probe',
    object: { kind: 'Pod', name: ctx.pod.metadata?.name ?? '' },
    container: ctx.status.name,
    reason: 'Unhealthy',
    message: unhealthy.message ?? '',
    explanation: `${kind} probe ${handler} is failing (${failures} ${failures === 1 ? 'failure' : 'failures'})${output ? `: ${firstLine(output, 120)}` : ''}${after}`,
    probe: { kind, handler, failures },
  };
}

/**
 * An init container (not a sidecar) that has been running for {@link INIT_RUNNING_REPORT_MS}: the
 * pod's containers start only once it ends, and its log says what it waits for.
 */
function initRunningFinding(ctx: ContainerContext): Finding | undefined {
  if (!ctx.init || ctx.sidecar) return undefined;
  const startedAt = timeOf(ctx.status.state?.running?.startedAt);
  if (startedAt === undefined || ctx.now - startedAt < INIT_RUNNING_REPORT_MS) return undefined;
  return {
    class: 'init-running',
    object: { kind: 'Pod', name: ctx.pod.metadata?.name ?? '' },
    container: ctx.status.name,
    initContainer: true,
    reason: 'PodInitializing',
    message: '',
    explanation: `init container still running after ${INIT_RUNNING_REPORT_MS / 1000} s: the pod's containers start only once it ends`,
  };
}

/**
 * A container whose startup probe is failing, not started yet: reported with the probe's output
 * (class `readiness-probe`, probe kind `startup`). It has no window of its own (problems.ts): the
 * kubelet restarts the container once the probe failed `failureThreshold` times, and the restarts
 * are the crash loop's to judge, so a slow first start that passes on its second try never fails.
 */
function startupFinding(ctx: ContainerContext): Finding | undefined {
  const cs = ctx.status;
  const probe = ctx.spec?.startupProbe;
  if ((ctx.init && !ctx.sidecar) || !cs.state?.running || cs.started === true || !probe) return undefined;
  return failingProbe(ctx, 'startup', probe, `; the kubelet restarts the container after ${probe.failureThreshold ?? 3} failures in a row`);
}

/** The problem one container has right now, if any. */
export function diagnoseContainer(ctx: ContainerContext): Finding | undefined {
  const waiting = ctx.status.state?.waiting;
  const reason = waiting?.reason ?? '';
  const message = waiting?.message ?? '';
  if (PULL_REASONS.has(reason)) return pullFinding(ctx, reason, message);
  if (reason === 'CreateContainerConfigError' || reason === 'CreateContainerError') {
    // "failed to sync configmap cache" is a transient kubelet condition (kubernetes #74755).
    if (/failed to sync .* cache/i.test(message)) return undefined;
    const missing = parseMissing(message);
    return {
      class: 'config-error',
      object: { kind: 'Pod', name: ctx.pod.metadata?.name ?? '' },
      container: ctx.status.name,
      ...(ctx.init ? { initContainer: true } : {}),
      reason,
      message,
      explanation: missing ? explainMissing(missing) : `container configuration is invalid: ${firstLine(message) ?? reason}`,
      ...(missing ? { missing } : {}),
    };
  }
  return crashFinding(ctx) ?? startupFinding(ctx) ?? readinessFinding(ctx) ?? initRunningFinding(ctx);
}
