/** Diagnosis of a whole pod: scheduling, volumes, then every (init) container. */
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { canBecomeReady, eventTime, isSidecar, podCondition, timeOf } from '../k8s.js';
import type { Problem } from '../types.js';
import { explainMissing, mountVolumeName, parseMissing } from './config.js';
import { diagnoseContainer, type Finding } from './container.js';
import { latestEvent } from './events.js';
import type { PullKind } from './pull.js';

/** Options for {@link diagnosePodFindings}. */
export interface PodDiagnosisOptions {
  /** Pull classification seen before per container (`init:name` or `name`), to classify a bare back-off. */
  previousPull?: Record<string, PullKind>;
}

function unschedulable(pod: V1Pod, events: CoreV1Event[]): Finding | undefined {
  const cond = podCondition(pod, 'PodScheduled');
  if (cond?.status !== 'False' || cond.reason !== 'Unschedulable') return undefined;
  const failed = latestEvent(events, (e) => e.reason === 'FailedScheduling');
  const message = (failed?.message || cond.message) ?? '';
  const scaleUp = latestEvent(events, (e) => e.reason === 'TriggeredScaleUp');
  const missing = parseMissing(message);
  if (!missing && /unbound (immediate )?PersistentVolumeClaims/i.test(message)) {
    // Waiting for a claim to bind is the PVC's problem, with the PVC's (longer) window.
    return {
      class: 'pvc-pending',
      object: { kind: 'Pod', name: pod.metadata?.name ?? '' },
      reason: 'Unschedulable',
      message,
      explanation: `pod waits for its PersistentVolumeClaim(s) to be bound: ${message}`,
    };
  }
  return {
    class: 'unschedulable',
    object: { kind: 'Pod', name: pod.metadata?.name ?? '' },
    reason: 'Unschedulable',
    message,
    explanation: missing ? `pod cannot be scheduled: ${explainMissing(missing)}` : `no node can run the pod: ${message}`,
    ...(missing ? { missing } : {}),
    ...(scaleUp !== undefined && eventTime(scaleUp) >= (failed ? eventTime(failed) - 60_000 : 0) ? { autoscaling: true } : {}),
  };
}

function mountFailed(pod: V1Pod, events: CoreV1Event[]): Finding | undefined {
  const started = (pod.status?.containerStatuses ?? []).some((c) => c.state?.running || c.state?.terminated);
  const initStarted = (pod.status?.initContainerStatuses ?? []).some((c) => c.state?.running || c.state?.terminated);
  if (started || initStarted || podCondition(pod, 'PodScheduled')?.status !== 'True') return undefined;
  const created = timeOf(pod.metadata?.creationTimestamp) ?? 0;
  const recent = events.filter((e) => e.reason === 'FailedMount' && eventTime(e) >= created);
  const setup = latestEvent(recent, (e) => /MountVolume\.\w+ failed/.test(e.message ?? '')) ?? latestEvent(recent, () => true);
  if (!setup) return undefined;
  const message = setup.message ?? '';
  const missing = parseMissing(message);
  const volume = mountVolumeName(message);
  return {
    class: 'mount-failed',
    object: { kind: 'Pod', name: pod.metadata?.name ?? '' },
    reason: 'FailedMount',
    message,
    explanation: `${volume ? `volume "${volume}"` : 'a volume'} cannot be mounted: ${missing ? explainMissing(missing) : message}`,
    ...(missing ? { missing } : {}),
  };
}

/** How long a pod's containers are ready behind a readiness gate before it is reported (`readiness-gate`). */
export const GATE_REPORT_MS = 30_000;

/**
 * Containers ready for {@link GATE_REPORT_MS} while a readiness gate holds the pod not Ready: the
 * gate's condition is another controller's (a load balancer's target health, on EKS and GKE), and
 * nothing marks the pod Ready until it sets it True. Its own reason and message say why, when set.
 */
function readinessGateHeld(pod: V1Pod, now: number): Finding | undefined {
  const gates = pod.spec?.readinessGates ?? [];
  const containersReady = podCondition(pod, 'ContainersReady');
  if (gates.length === 0 || containersReady?.status !== 'True' || podCondition(pod, 'Ready')?.status === 'True') return undefined;
  const since = timeOf(containersReady.lastTransitionTime);
  if (since === undefined || now - since < GATE_REPORT_MS) return undefined;
  const held = gates.map((g) => ({ type: g.conditionType, c: podCondition(pod, g.conditionType) })).filter((g) => g.c?.status !== 'True');
  if (held.length === 0) return undefined;
  const words = held.map(({ type, c }) => {
    if (!c) return `readiness gate "${type}" is not set`;
    const why = [c.reason, c.message].filter(Boolean).join(': ');
    return `readiness gate "${type}" is ${c.status}${why ? ` (${why})` : ''}`;
  });
  return {
    class: 'readiness-gate',
    object: { kind: 'Pod', name: pod.metadata?.name ?? '' },
    reason: 'ReadinessGatesNotReady',
    message: podCondition(pod, 'Ready')?.message ?? '',
    explanation: `its containers are ready, but ${words.join('; ')}: the controller that owns the gate has not marked the pod ready`,
  };
}

/** Whether a pod's containers are ready and a readiness gate holds it not Ready (reported after {@link GATE_REPORT_MS}). */
export function heldByGate(pod: V1Pod): boolean {
  return (
    (pod.spec?.readinessGates?.length ?? 0) > 0 &&
    podCondition(pod, 'ContainersReady')?.status === 'True' &&
    podCondition(pod, 'Ready')?.status !== 'True'
  );
}

/**
 * Everything wrong with a pod right now, as findings (no timing yet). Events are the pod's own.
 */
export function diagnosePodFindings(pod: V1Pod, events: CoreV1Event[], now: number, opts: PodDiagnosisOptions = {}): Finding[] {
  if (!canBecomeReady(pod)) return [];
  const out: Finding[] = [];
  const sched = unschedulable(pod, events);
  if (sched) return [sched];
  const mount = mountFailed(pod, events);
  if (mount) out.push(mount);
  const specs = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []).map((status) => ({ status, init: true })),
    ...(pod.status?.containerStatuses ?? []).map((status) => ({ status, init: false })),
  ];
  for (const { status, init } of statuses) {
    const key = `${init ? 'init:' : ''}${status.name}`;
    const spec = specs.find((c) => c.name === status.name);
    const f = diagnoseContainer({
      pod,
      status,
      ...(spec ? { spec } : {}),
      init,
      ...(init && isSidecar(spec) ? { sidecar: true } : {}),
      events,
      now,
      ...(opts.previousPull?.[key] ? { previousPull: opts.previousPull[key] } : {}),
    });
    if (f) out.push(f);
  }
  const gate = readinessGateHeld(pod, now);
  if (gate) out.push(gate);
  return out;
}

/** The stable id of a finding: `class/Kind/name[/container]`. */
export function problemId(f: Pick<Problem, 'class' | 'object' | 'container'>): string {
  return `${f.class}/${f.object.kind}/${f.object.name}${f.container ? `/${f.container}` : ''}`;
}
