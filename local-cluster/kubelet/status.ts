/**
 * Builds a pod's status the way the kubelet's generateAPIPodStatus / convertToAPIContainerStatuses
 * / getPhase and the status manager do (1.20): container states, the Initialized, Ready,
 * ContainersReady conditions (lastTransitionTime only moves on a status change), phase, podIP.
 */
import type { V1ContainerStatus, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import type { ContainerRuntime, Instance } from './runtime.js';
import { containerIdUri, current } from './runtime.js';

/** What the pod worker knows beyond the containers. */
export interface PodRuntimeView {
  pod: V1Pod;
  podIP?: string;
  startTime: Date;
  initContainers: ContainerRuntime[];
  containers: ContainerRuntime[];
}

function terminatedOf(i: Instance) {
  return {
    exitCode: i.exitCode ?? 0,
    reason: i.reason,
    message: i.message || undefined,
    startedAt: isoSeconds(i.startedAt),
    finishedAt: isoSeconds(i.finishedAt ?? new Date()),
    containerID: containerIdUri(i.id),
  };
}

/** One containerStatuses entry. */
export function containerStatus(c: ContainerRuntime, defaultWaiting: string): Record<string, unknown> {
  const last = current(c);
  const prev = c.instances.length > 1 ? c.instances[c.instances.length - 2] : undefined;
  let state: Record<string, unknown>;
  let lastState: Record<string, unknown> = {};
  if (!last) {
    state = { waiting: { reason: c.waiting?.reason ?? defaultWaiting, message: c.waiting?.message } };
  } else if (!last.finishedAt) {
    state = { running: { startedAt: isoSeconds(last.startedAt) } };
    if (prev) lastState = { terminated: terminatedOf(prev) };
  } else if (c.waiting) {
    state = { waiting: { reason: c.waiting.reason, message: c.waiting.message } };
    lastState = { terminated: terminatedOf(last) };
  } else {
    state = { terminated: terminatedOf(last) };
    if (prev) lastState = { terminated: terminatedOf(prev) };
  }
  const status: Record<string, unknown> = {
    name: c.name,
    state,
    lastState,
    ready: c.ready,
    restartCount: Math.max(0, c.restartOffset + c.instances.length - 1),
    image: last ? (c.resolvedImage ?? c.spec.image) : c.spec.image,
    imageID: last ? (c.imageID ?? '') : '',
  };
  if (last) status.containerID = containerIdUri(last.id);
  if (!c.init) status.started = !!last && !last.finishedAt && c.started;
  return status;
}

type Status = Pick<V1ContainerStatus, 'state' | 'lastState'>;

/** getPhase from kubelet_pods.go. */
export function podPhase(pod: V1Pod, init: Status[], main: Status[]): string {
  let pendingInit = 0;
  let failedInit = 0;
  for (const s of init) {
    if (s.state?.running) pendingInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInit++;
      } else pendingInit++;
    } else pendingInit++;
  }
  let unknown = 0,
    running = 0,
    waiting = 0,
    stopped = 0,
    succeeded = 0;
  for (const s of main) {
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    return policy === 'Never' ? 'Failed' : 'Running';
  }
  return unknown > 0 ? 'Unknown' : 'Pending';
}

/**
 * Why each readiness gate of `pod` holds it not Ready, in the kubelet's words (status/generate.go
 * `GeneratePodReadyCondition`): a gate's condition is set by another controller (a load
 * balancer's), and the pod is Ready only once every one of them is True.
 */
export function unreadyGates(pod: V1Pod): string[] {
  const out: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = (pod.status?.conditions ?? []).find((x) => x.type === gate.conditionType);
    if (!c) out.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True') out.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  return out;
}

/** The full status the kubelet would PATCH (conditions keep lastTransitionTime when unchanged). */
export function buildPodStatus(view: PodRuntimeView, now = new Date()): Record<string, unknown> {
  const { pod } = view;
  const hasInit = view.initContainers.length > 0;
  const defaultWaiting = hasInit ? 'PodInitializing' : 'ContainerCreating';
  const initStatuses = view.initContainers.map((c) => containerStatus(c, defaultWaiting));
  const mainStatuses = view.containers.map((c) => containerStatus(c, defaultWaiting));
  const phase = podPhase(pod, initStatuses as Status[], mainStatuses as Status[]);

  const incompleteInit = view.initContainers
    .filter((c) => {
      const last = current(c);
      return !(last?.finishedAt && last.exitCode === 0 && !c.waiting);
    })
    .map((c) => c.name);
  const unready = view.containers.filter((c) => !c.ready).map((c) => c.name);
  const old = new Map((pod.status?.conditions ?? []).map((c) => [c.type, c]));
  const cond = (type: string, ok: boolean, reason?: string, message?: string): V1PodCondition => {
    const status = ok ? 'True' : 'False';
    const prev = old.get(type);
    const transition =
      prev && prev.status === status && prev.lastTransitionTime ? isoSeconds(new Date(prev.lastTransitionTime)) : isoSeconds(now);
    return {
      type,
      status,
      lastProbeTime: null as unknown as undefined,
      lastTransitionTime: transition as unknown as Date,
      ...(ok ? {} : { reason, message }),
    };
  };
  // A pod whose containers all completed is not ready (GenerateContainersReadyCondition).
  const completed = phase === 'Succeeded';
  const unreadyReason = completed ? 'PodCompleted' : 'ContainersNotReady';
  const unreadyMessage = completed ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const containersReady = unready.length === 0 && !completed;
  const gates = containersReady ? unreadyGates(pod) : [];
  const conditions: V1PodCondition[] = [
    incompleteInit.length === 0
      ? cond('Initialized', true)
      : cond('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: [${incompleteInit.join(' ')}]`),
    !containersReady
      ? cond('Ready', false, unreadyReason, unreadyMessage)
      : gates.length > 0
        ? cond('Ready', false, 'ReadinessGatesNotReady', gates.join(', '))
        : cond('Ready', true),
    containersReady ? cond('ContainersReady', true) : cond('ContainersReady', false, unreadyReason, unreadyMessage),
  ];
  // Conditions the kubelet does not own (PodScheduled from the scheduler, readiness gates) are kept.
  for (const c of pod.status?.conditions ?? []) {
    if (!['Initialized', 'Ready', 'ContainersReady'].includes(c.type)) conditions.push(c);
  }
  if (!conditions.some((c) => c.type === 'PodScheduled')) conditions.push(cond('PodScheduled', true));

  const status: Record<string, unknown> = {
    phase,
    conditions,
    hostIP: '127.0.0.1',
    startTime: isoSeconds(view.startTime),
    containerStatuses: mainStatuses,
    qosClass: pod.status?.qosClass ?? qosClass(pod),
  };
  if (hasInit) status.initContainerStatuses = initStatuses;
  if (view.podIP) {
    status.podIP = view.podIP;
    status.podIPs = [{ ip: view.podIP }];
  }
  return status;
}

/** The pod's QoS class (pkg/apis/core/v1/helper/qos), used when the apiserver has not set it. */
export function qosClass(pod: V1Pod): string {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of all) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      if (!lim[r] || (req[r] && req[r] !== lim[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** RFC 3339 with whole seconds, as metav1.Time serializes. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
