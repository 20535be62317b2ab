/**
 * How a 1.20 kubelet ends a pod that never ran or is killed for its node's sake:
 * - admission (kubelet.go `canAdmitPod`, lifecycle/predicate.go `GeneralPredicates`): a pod bound
 *   to the node (by the scheduler, or by `spec.nodeName` directly) that does not fit its
 *   allocatable resources or whose nodeSelector does not match is rejected: Event `OutOfcpu`
 *   (`OutOfmemory`, `OutOfpods`, `NodeAffinity`) and status Failed with "Pod " + the message;
 * - node-pressure eviction (eviction/eviction_manager.go `evictPod`, helpers.go
 *   `evictionMessage`): Event `Evicted`, status Failed/Evicted with the node's message;
 * - the eviction manager's admission (eviction_manager.go `Admit`, the first admit handler): while
 *   the node reports pressure, a new pod is rejected with `Evicted` and "The node had condition:
 *   [MemoryPressure]. ", unless it is critical (a mirror pod, or priority system-critical and above), or only memory is short and the pod is not
 *   BestEffort or tolerates `node.kubernetes.io/memory-pressure:NoSchedule`.
 * In both, the status manager replaces the status with `{phase, reason, message}` (status_manager.go
 * `mergePodStatus` keeps only conditions the kubelet does not own): conditions, container statuses
 * and IPs go, `startTime` stays.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from './quantity.js';

/** What a node offers pods: allocatable millicores, bytes of memory, pod slots, and its labels. */
export interface NodeFit {
  cpu: number;
  memory: number;
  pods: number;
  labels: Record<string, string>;
}

/** Why the kubelet refuses a pod at admission. */
export interface Rejection {
  /** `OutOfcpu`, `OutOfmemory`, `OutOfpods`, `NodeAffinity`. */
  reason: string;
  /** The predicate's error, e.g. `Node didn't have enough resource: cpu, requested: 8000, used: 200, capacity: 4000`. */
  message: string;
}

/** A pod's requests as the scheduler framework counts them: the containers' sum, or the largest init container's. */
function requestsOf(pod: V1Pod): { cpu: number; memory: number } {
  const of = (c: { resources?: { requests?: Record<string, string> } }) => ({
    cpu: Math.round(parseQuantity(c.resources?.requests?.cpu ?? '0') * 1000),
    memory: Math.round(parseQuantity(c.resources?.requests?.memory ?? '0')),
  });
  const sum = { cpu: 0, memory: 0 };
  for (const c of pod.spec?.containers ?? []) {
    const r = of(c);
    sum.cpu += r.cpu;
    sum.memory += r.memory;
  }
  for (const c of pod.spec?.initContainers ?? []) {
    const r = of(c);
    sum.cpu = Math.max(sum.cpu, r.cpu);
    sum.memory = Math.max(sum.memory, r.memory);
  }
  return sum;
}

const insufficient = (resource: string, requested: number, used: number, capacity: number): Rejection => ({
  reason: `OutOf${resource}`,
  message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}`,
});

/**
 * The first predicate `pod` fails on a node offering `node` while `admitted` (its running pods) hold
 * their requests, or undefined when it is admitted. Order as in `GeneralPredicates`: pods, cpu,
 * memory, then the node selector.
 */
export function admissionFailure(pod: V1Pod, node: NodeFit, admitted: readonly V1Pod[]): Rejection | undefined {
  if (admitted.length + 1 > node.pods) return insufficient('pods', 1, admitted.length, node.pods);
  const want = requestsOf(pod);
  const used = { cpu: 0, memory: 0 };
  for (const p of admitted) {
    const r = requestsOf(p);
    used.cpu += r.cpu;
    used.memory += r.memory;
  }
  if (want.cpu > node.cpu - used.cpu) return insufficient('cpu', want.cpu, used.cpu, node.cpu);
  if (want.memory > node.memory - used.memory) return insufficient('memory', want.memory, used.memory, node.memory);
  const selector = pod.spec?.nodeSelector ?? {};
  if (Object.entries(selector).some(([k, v]) => node.labels[k] !== v))
    return { reason: 'NodeAffinity', message: 'Predicate NodeAffinity failed' };
  return undefined;
}

/** Priority of `system-cluster-critical` (scheduling.SystemCriticalPriority): pods at or above are critical. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** v1qos.GetPodQOS: BestEffort when no container (init included) requests or limits cpu or memory. */
function isBestEffort(pod: V1Pod): boolean {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return containers.every((c) =>
    [c.resources?.requests, c.resources?.limits].every((list) => !list || (list.cpu === undefined && list.memory === undefined)),
  );
}

/** v1helper.TolerationsTolerateTaint for `node.kubernetes.io/memory-pressure:NoSchedule`. */
function toleratesMemoryPressure(pod: V1Pod): boolean {
  return (pod.spec?.tolerations ?? []).some(
    (t) =>
      (!t.effect || t.effect === 'NoSchedule') &&
      (!t.key || t.key === 'node.kubernetes.io/memory-pressure') &&
      (t.operator === 'Exists' || !t.value),
  );
}

/**
 * The eviction manager's verdict on a new `pod` while the node reports `pressures` (condition
 * types such as `MemoryPressure`, in the manager's order), or undefined when it is admitted.
 */
export function pressureAdmissionFailure(pod: V1Pod, pressures: readonly string[]): Rejection | undefined {
  if (pressures.length === 0) return undefined;
  const isMirror = pod.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined;
  if (isMirror || (pod.spec?.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY) return undefined;
  if (pressures.length === 1 && pressures[0] === 'MemoryPressure' && (!isBestEffort(pod) || toleratesMemoryPressure(pod))) return undefined;
  return { reason: 'Evicted', message: `The node had condition: [${pressures.join(' ')}]. ` };
}

/** The status patch (JSON merge) that replaces a pod's status with an ended one, `startTime` kept. */
export function endedStatus(reason: string, message: string): Record<string, unknown> {
  return {
    phase: 'Failed',
    reason,
    message,
    conditions: null,
    containerStatuses: null,
    initContainerStatuses: null,
    hostIP: null,
    podIP: null,
    podIPs: null,
    qosClass: null,
  };
}

/** Bytes as resource.Quantity's BinarySI String() writes them (`301Mi`, `1Gi`, `1536Ki`). */
export function binaryQuantity(bytes: number): string {
  for (const [suffix, factor] of [
    ['Ti', 2 ** 40],
    ['Gi', 2 ** 30],
    ['Mi', 2 ** 20],
    ['Ki', 2 ** 10],
  ] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return String(bytes);
}

/**
 * The 1.20 eviction message for `resource` (`memory` or `ephemeral-storage`): the node's low
 * resource, then each container whose usage exceeds its request.
 */
export function evictionMessage(resource: string, containers: Array<{ name: string; request?: string; usage: string }>): string {
  let message = `The node was low on resource: ${resource}. `;
  for (const c of containers) {
    const usage = parseQuantity(c.usage);
    const request = parseQuantity(c.request ?? '0');
    if (usage > request)
      message += `Container ${c.name} was using ${binaryQuantity(usage)}, which exceeds its request of ${c.request ?? '0'}. `;
  }
  return message;
}
