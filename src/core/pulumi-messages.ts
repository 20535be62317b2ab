/**
 * The sub-error lines `pulumi up` prints for a Deployment that did not become ready
 * (pulumi/pulumi-kubernetes provider/pkg/await/deployment.go `errorMessages` and the pod checker,
 * provider/pkg/await/checker/pod/check.go), reproduced string for string.
 */
import type { V1ContainerStatus, V1PersistentVolumeClaim, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { pulumiQualifiedName, rfc3339Nano } from './k8s.js';
import { everyPvcReady } from './pulumi-await.js';
import type { PulumiAwaitState } from './state.js';

/** Pulumi's `trimImagePullMsg`. */
export function trimImagePullMsg(msg: string): string {
  const prefix = 'rpc error: code = Unknown desc = Error response from daemon: ';
  let out = msg.startsWith(prefix) ? msg.slice(prefix.length) : msg;
  const suffix = ': manifest unknown';
  if (out.endsWith(suffix)) out = out.slice(0, -suffix.length);
  return out;
}

function containerErrors(cs: V1ContainerStatus): string[] {
  if (cs.ready) return [];
  const out: string[] = [];
  const waiting = cs.state?.waiting;
  if (waiting && waiting.reason !== 'ContainerCreating') {
    out.push(`[${waiting.reason ?? ''}] ${trimImagePullMsg(waiting.message ?? '')}`);
  }
  const terminated = cs.state?.terminated;
  if (terminated?.reason) {
    out.push(
      terminated.message
        ? `[${terminated.reason}] ${trimImagePullMsg(terminated.message)}`
        : `container "${cs.name}" completed with exit code ${terminated.exitCode ?? 0}`,
    );
  }
  const last = cs.lastState?.terminated;
  if (last) {
    out.push(
      `container "${cs.name}" terminated at ${rfc3339Nano(last.finishedAt)} (${last.reason ?? ''}: exit code ${last.exitCode ?? 0})`,
    );
    if (last.message) out.push(last.message);
  }
  return out;
}

function podError(pod: V1Pod, condition: V1PodCondition, errors: string[]): string {
  let msg = `[Pod ${pulumiQualifiedName(pod.metadata)}]: `;
  if (condition.reason && condition.message) msg += condition.message;
  return msg + errors.join('\n');
}

/**
 * The Warning message Pulumi's pod checker yields for one pod, or undefined. Stages run in order
 * (scheduled, initialized, ready) and stop at the first not-OK one; the scheduled stage only yields
 * Info, which the Deployment awaiter drops. Init-container statuses are never inspected.
 */
export function pulumiPodMessage(pod: V1Pod): string | undefined {
  const conditions = pod.status?.conditions ?? [];
  const scheduled = conditions.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status !== 'True') return undefined;
  const errors = (pod.status?.containerStatuses ?? []).flatMap(containerErrors);
  const initialized = conditions.find((c) => c.type === 'Initialized');
  if (!initialized) return undefined;
  if (initialized.status !== 'True') {
    return errors.length > 0 || initialized.message ? podError(pod, initialized, errors) : undefined;
  }
  const ready = conditions.find((c) => c.type === 'Ready');
  if (!ready) return undefined;
  if (ready.status === 'True' || pod.status?.phase === 'Succeeded') return undefined;
  return errors.length > 0 || ready.message ? podError(pod, ready, errors) : undefined;
}

/**
 * `errorMessages()`: Deployment condition errors, unbound PVCs, one summary line, then one line
 * per pod of the current ReplicaSet.
 */
export function pulumiErrorMessages(s: PulumiAwaitState, pvcs: V1PersistentVolumeClaim[], currentPods: V1Pod[]): string[] {
  const out = s.deploymentErrors.map(([, m]) => m);
  if (!everyPvcReady(pvcs)) {
    const failed = pvcs.filter((p) => p.status?.phase !== 'Bound').map((p) => p.metadata?.name ?? '');
    out.push(`Failed to bind PersistentVolumeClaim(s): ${JSON.stringify(failed.join(','))}`);
  }
  if (!s.deploymentAvailable) out.push('Minimum number of live Pods was not attained');
  else if (s.revision === '1') {
    if (!s.updatedReplicaSetReady) out.push('Minimum number of Pods to consider the application live was not attained');
  } else if (!s.replicaSetAvailable) out.push('Minimum number of Pods to consider the application live was not attained');
  else if (!s.updatedReplicaSetReady) {
    out.push('Attempted to roll forward to new ReplicaSet, but minimum number of Pods did not become live');
  }
  for (const pod of currentPods) {
    const m = pulumiPodMessage(pod);
    if (m !== undefined) out.push(m);
  }
  return out;
}
