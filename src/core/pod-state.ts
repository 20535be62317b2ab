/** A pod's coarse state for display (kubespy's pod lifecycle: pending → scheduled → creating → running → ready). */
import type { V1Pod } from '@kubernetes/client-node';
import { longRunningStatuses, podCondition } from './k8s.js';
import type { PodState } from './types.js';

/** The state, an optional detail (waiting reason, restarts) and the node. */
export interface PodView {
  state: PodState;
  detail?: string;
  node?: string;
}

function restarts(pod: V1Pod): number {
  return longRunningStatuses(pod).reduce((n, c) => n + (c.restartCount ?? 0), 0);
}

/**
 * `PodReadyToStartContainers` (1.29+; `PodHasNetwork` in 1.25-1.28) False: the kubelet has not
 * got the pod's sandbox and network yet, so no container can be created.
 */
function sandboxNotReady(pod: V1Pod): { detail?: string } {
  for (const type of ['PodReadyToStartContainers', 'PodHasNetwork']) {
    if (podCondition(pod, type)?.status === 'False') return { detail: `pod sandbox not ready (${type}=False)` };
  }
  return {};
}

/** Computes the {@link PodView} of a pod. */
export function podView(pod: V1Pod): PodView {
  const node = pod.spec?.nodeName || undefined;
  const withNode = (v: PodView): PodView => (node ? { ...v, node } : v);
  const r = restarts(pod);
  const restartText = r > 0 ? `${r} ${r === 1 ? 'restart' : 'restarts'}` : undefined;
  if (pod.metadata?.deletionTimestamp) return withNode({ state: 'terminating' });
  const phase = pod.status?.phase;
  if (phase === 'Succeeded') return withNode({ state: 'succeeded' });
  if (phase === 'Failed') return withNode({ state: 'failed', ...(pod.status?.reason ? { detail: pod.status.reason } : {}) });
  const scheduled = podCondition(pod, 'PodScheduled');
  if (scheduled?.status !== 'True') {
    return withNode({ state: 'pending', ...(scheduled?.reason ? { detail: scheduled.reason } : {}) });
  }
  const inits = pod.status?.initContainerStatuses ?? [];
  const initSpecs = pod.spec?.initContainers ?? [];
  if (podCondition(pod, 'Initialized')?.status === 'False' && initSpecs.length > 0) {
    const done = inits.filter((c) => c.state?.terminated?.exitCode === 0).length;
    const waiting = inits.find((c) => c.state?.waiting && c.state.waiting.reason !== 'PodInitializing')?.state?.waiting?.reason;
    return withNode({ state: 'initializing', detail: waiting ? `Init:${waiting}` : `Init:${done}/${initSpecs.length}` });
  }
  const statuses = pod.status?.containerStatuses ?? [];
  const sandbox = sandboxNotReady(pod);
  if (statuses.length === 0) return withNode({ state: 'scheduled', ...sandbox });
  const waitingReasons = statuses.map((c) => c.state?.waiting?.reason).filter((x): x is string => !!x);
  const bad = waitingReasons.find((x) => x !== 'ContainerCreating' && x !== 'PodInitializing');
  if (bad) return withNode({ state: 'waiting', detail: restartText ? `${bad}, ${restartText}` : bad });
  if (waitingReasons.length > 0) return withNode({ state: 'container-creating', ...sandbox });
  const terminated = statuses.find((c) => c.state?.terminated)?.state?.terminated;
  if (terminated) {
    const what = terminated.reason ?? `exit code ${terminated.exitCode ?? '?'}`;
    return withNode({ state: 'waiting', detail: restartText ? `${what}, ${restartText}` : what });
  }
  if (podCondition(pod, 'Ready')?.status === 'True') return withNode({ state: 'ready', ...(restartText ? { detail: restartText } : {}) });
  return withNode({ state: 'running', ...(restartText ? { detail: restartText } : {}) });
}
