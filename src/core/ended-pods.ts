/**
 * Pods of the new revision that ended (phase `Failed` or `Succeeded`: evicted for node pressure,
 * rejected at admission by their node's kubelet, shut down with their node). An ended pod never
 * becomes Ready again, so it holds nothing and is not diagnosed (k8s.ts `canBecomeReady`); the
 * ReplicaSet controller replaces it. What happened is said once, as a `note`, in the pod's own
 * words; when the replacements keep ending, the `pods-ended` problem fails the rollout.
 *
 * Also noted once: a live pod's `DisruptionTarget` condition (1.26+: it is about to be evicted,
 * preempted or deleted) and a container whose state the node lost (`ContainerStatusUnknown`).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { classPolicyOf } from './classifiers.js';
import { currentPod, currentPodSetKey, currentPods } from './current-pods.js';
import type { Finding } from './diagnose/index.js';
import type { Emit } from './emit.js';
import { formatDuration } from './format-duration.js';
import { canBecomeReady, hasEnded, podCondition, revisionOf, timeOf } from './k8s.js';
import { newReplicaSet } from './relations.js';
import type { EmittedMemo, EndedPod, RolloutState } from './state.js';

/** Endings older than this no longer count towards `pods-ended` (the class's count window). */
export const ENDINGS_WINDOW_MS = 10 * 60_000;

/** Reasons a kubelet gives when it refuses a pod at admission (lifecycle/predicate.go and admit handlers). */
const ADMISSION_REASONS = new Set([
  'NodeAffinity',
  'NodeName',
  'NodePorts',
  'UnexpectedAdmissionError',
  'UnexpectedPredicateFailureType',
  'UnknownReason',
  'InvalidNodeInfo',
  'PodOSNotSupported',
  'PodOSSelectorNodeLabelDoesNotMatch',
  'SysctlForbidden',
  'AppArmor',
  'TopologyAffinityError',
]);
/** Graceful node shutdown (1.21+): the pod ended because its node went down, not because it does not fit. */
const SHUTDOWN_REASONS = new Set(['Terminated', 'Shutdown', 'NodeShutdown']);

/** Why a pod ended: how it is said, and whether it means the pod does not fit where it was scheduled. */
interface Ending {
  words: string;
  /** Evicted for node pressure or rejected at admission: counts towards `pods-ended`. */
  unfit: boolean;
  /** Said once for every pod ending this way (the controller may replace it many times a second). */
  onceFor?: string;
  /** Why such pods are refused, for the count said when a pod runs on the node again. */
  why?: string;
}

/** How long after a traced pod left a node its kubelet may still have counted it at admission. */
export const FREEING_SLACK_MS = 5_000;

function endingOf(pod: V1Pod): Ending {
  const reason = pod.status?.reason ?? '';
  const node = pod.spec?.nodeName ? ` of node ${pod.spec.nodeName}` : '';
  const disruption = podCondition(pod, 'DisruptionTarget');
  const by = disruption?.status === 'True' ? (disruption.reason ?? '') : '';
  // The eviction manager's admission refusal while the node reports pressure ("[Pod was rejected: ]
  // The node had condition: [DiskPressure]. "): the node is tainted for it, and the pod fits once the
  // pressure ends or the scheduler places it elsewhere, so it is not counted.
  const message = pod.status?.message ?? '';
  if (reason === 'Evicted' && /The node had condition: \[/.test(message)) {
    const why = 'while the node reported pressure';
    return {
      words: `rejected by the kubelet${node} ${why} (Evicted)`,
      unfit: false,
      onceFor: `pressure|${pod.spec?.nodeName ?? ''}|${message}`,
      why,
    };
  }
  if (reason === 'Evicted' || by === 'TerminationByKubelet') return { words: 'evicted', unfit: true };
  if (/^OutOf/.test(reason) || ADMISSION_REASONS.has(reason)) return { words: `rejected by the kubelet${node} (${reason})`, unfit: true };
  if (SHUTDOWN_REASONS.has(reason)) return { words: `shut down with its node${node.replace(' of node', '')} (${reason})`, unfit: false };
  if (/^Preemption/.test(by)) return { words: 'preempted', unfit: false };
  if (by === 'EvictionByEvictionAPI')
    return { words: 'evicted through the Eviction API (a drain or a disruption budget check)', unfit: false };
  if (by === 'DeletionByTaintManager') return { words: 'deleted by the taint manager (its node is not ready)', unfit: false };
  if (pod.status?.phase === 'Succeeded') return { words: 'ended: all its containers exited with code 0 (phase Succeeded)', unfit: false };
  return { words: `ended (phase ${pod.status?.phase}${reason ? `, reason ${reason}` : ''})`, unfit: false };
}

/** ` (DisruptionTarget: reason: message)` when the condition says more than the pod's own message. */
function disruptionText(pod: V1Pod): string {
  const c = podCondition(pod, 'DisruptionTarget');
  if (c?.status !== 'True') return '';
  const message = c.message && c.message !== pod.status?.message ? `: ${c.message}` : '';
  return ` (DisruptionTarget: ${c.reason ?? 'True'}${message})`;
}

/** The note for an ended pod, in its own words: `pod web-x evicted: The node was low on resource: memory. …`. */
export function endedPodNote(pod: V1Pod, ending: Ending = endingOf(pod)): string {
  const message = pod.status?.message?.trim();
  return `pod ${pod.metadata?.name} ${ending.words}${message ? `: ${message}` : ''}${disruptionText(pod)}`;
}

/** When the pod ended, as well as it can be told (every time it has is a lower bound of its end). */
function endedAt(pod: V1Pod, seenLive: boolean, at: number): number {
  if (seenLive) return at;
  const times = [
    timeOf(pod.metadata?.creationTimestamp),
    timeOf(pod.status?.startTime),
    timeOf(podCondition(pod, 'DisruptionTarget')?.lastTransitionTime),
    ...[...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].map((c) =>
      timeOf(c.state?.terminated?.finishedAt),
    ),
  ].filter((t): t is number => t !== undefined);
  return times.length > 0 ? Math.max(...times) : at;
}

function noteOnce(memo: EmittedMemo, key: string, object: string, message: string, emit: Emit): void {
  if (memo.notes[key]) return;
  memo.notes[key] = true;
  emit({ type: 'note', object, message });
}

/** Notes about a pod that can still become Ready: about to be disrupted, or a container the node lost. */
function noteLivePod(memo: EmittedMemo, pod: V1Pod, emit: Emit): void {
  const name = pod.metadata?.name ?? '';
  const c = podCondition(pod, 'DisruptionTarget');
  if (c?.status === 'True') {
    noteOnce(
      memo,
      `disruption|${name}`,
      `Pod/${name}`,
      `pod ${name} is about to be disrupted (DisruptionTarget: ${c.reason ?? 'True'})${c.message ? `: ${c.message}` : ''}`,
      emit,
    );
  }
  for (const cs of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    const t = cs.state?.terminated ?? cs.lastState?.terminated;
    if (t?.reason !== 'ContainerStatusUnknown') continue;
    const message = t.message ? `: ${t.message}` : '';
    const text = `pod ${name} container "${cs.name}": the node lost its state (ContainerStatusUnknown, exit code ${t.exitCode ?? '?'})${message}; not a crash of the container, the kubelet starts it again`;
    noteOnce(memo, `unknown|${name}|${cs.name}|${t.containerID ?? ''}`, `Pod/${name}`, text, emit);
  }
}

/**
 * A resource rejection (`OutOfcpu`...) on a node where a pod of this workload is still terminating,
 * or left less than {@link FREEING_SLACK_MS} ago: the kubelet counts a terminating pod's requests
 * until it is gone (a rolling update of pods bound by `spec.nodeName`), so the pod fits once it is.
 */
function whileFreeing(state: RolloutState, memo: EmittedMemo, pod: V1Pod, at: number): Ending | undefined {
  const reason = pod.status?.reason ?? '';
  const node = pod.spec?.nodeName;
  if (!/^OutOf/.test(reason) || !node) return undefined;
  const left = memo.freedAt[node];
  const terminating = [...state.pods.values()].some((p) => p.spec?.nodeName === node && p.metadata?.deletionTimestamp);
  if (!terminating && (left === undefined || at - left > FREEING_SLACK_MS)) return undefined;
  const why = 'while pods of this workload there were still terminating';
  return { words: `rejected by the kubelet of node ${node} (${reason}) ${why}`, unfit: false, onceFor: `freeing|${node}|${reason}`, why };
}

/**
 * While a node refuses pods (`memo.refusing`), a pod bound there that has not
 * started is not listed (the controller may create many a second); once one starts, the refusal
 * is over: the count is said and the pod is listed again.
 */
function foldWhileRefusing(memo: EmittedMemo, pod: V1Pod, emit: Emit): void {
  const node = pod.spec?.nodeName;
  const refused = node === undefined ? undefined : memo.refusing[node];
  if (node === undefined || refused === undefined) return;
  const name = pod.metadata?.name ?? '';
  const started = pod.status?.phase === 'Running' || (pod.status?.containerStatuses?.length ?? 0) > 0;
  if (!started) {
    memo.folded[name] = true;
    return;
  }
  delete memo.folded[name];
  delete memo.refusing[node];
  if (refused.count === 0) return;
  const pods = refused.count === 1 ? '1 more pod was' : `${refused.count} more pods were`;
  emit({
    type: 'note',
    object: `Node/${node}`,
    message: `${pods} refused by the kubelet of node ${node} ${refused.why} (not listed one by one); pod ${name} runs there now`,
  });
}

/** A refusal already said for its node and cause: counted, not listed. */
function foldRefusal(memo: EmittedMemo, pod: V1Pod, ending: Ending): boolean {
  if (ending.onceFor === undefined) return false;
  const node = pod.spec?.nodeName ?? '';
  memo.refusing[node] ??= { count: 0, why: ending.why ?? '' };
  if (!memo.notes[ending.onceFor]) return false;
  memo.refusing[node].count += 1;
  memo.folded[pod.metadata?.name ?? ''] = true;
  return true;
}

/**
 * Records the new-revision pods in `names` (every pod of the new ReplicaSet when `all`) that ended
 * since last seen, with a `note` for each, and notes about live pods. Call before `emitRows`, so
 * that `memo.pods` still says whether a pod was seen live before.
 */
export function trackEndedPods(state: RolloutState, memo: EmittedMemo, at: number, names: 'all' | readonly string[], emit: Emit): void {
  const pods = names === 'all' ? currentPods(state) : names.map((n) => currentPod(state, n)).filter((p): p is V1Pod => p !== undefined);
  const podSet = currentPodSetKey(state) ?? '';
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (canBecomeReady(pod)) {
      foldWhileRefusing(memo, pod, emit);
      noteLivePod(memo, pod, emit);
      continue;
    }
    if (!hasEnded(pod) || memo.ended[name]) continue;
    const row = memo.pods[name];
    const seenLive = row !== undefined && !/^(failed|succeeded|terminating)\|/.test(row);
    const ending = whileFreeing(state, memo, pod, at) ?? endingOf(pod);
    memo.ended[name] = {
      at: endedAt(pod, seenLive, at),
      created: timeOf(pod.metadata?.creationTimestamp) ?? at,
      unfit: ending.unfit,
      reason: pod.status?.reason ?? pod.status?.phase ?? '',
      message: pod.status?.message ?? '',
      note: endedPodNote(pod, ending),
      podSet,
    };
    if (!foldRefusal(memo, pod, ending)) noteOnce(memo, ending.onceFor ?? `ended|${name}`, `Pod/${name}`, memo.ended[name].note, emit);
  }
  for (const [name, e] of Object.entries(memo.ended)) if (e.at < at - ENDINGS_WINDOW_MS) delete memo.ended[name];
}

/**
 * The `pods-ended` problem of the new ReplicaSet: within {@link ENDINGS_WINDOW_MS}, more of its
 * *replacement* pods (created after an earlier pod of it had ended) were evicted or rejected than
 * the class tolerates (default 1): the pod does not fit where it is scheduled. Pods that ended
 * together for one cause (three pods evicted from one node at once) are not replacements, so
 * their ReplicaSet replacing them is a rollout that goes on.
 */
export function diagnoseEndings(state: RolloutState, at: number): Finding | undefined {
  const podSet = currentPodSetKey(state);
  if (podSet === undefined) return undefined;
  const endings = Object.values(state.memo.ended)
    .filter((e) => e.podSet === podSet && e.unfit && e.at >= at - ENDINGS_WINDOW_MS)
    .sort((a, b) => a.at - b.at);
  if (endings.length < 2) return undefined;
  const first = endings[0] as EndedPod;
  // Whole seconds: creationTimestamp has no finer grain.
  const replacements = endings.filter((e) => e.created >= Math.floor(first.at / 1000) * 1000 && e !== first);
  const tolerate = classPolicyOf(state.policy, 'pods-ended').tolerate ?? 1;
  if (replacements.length <= tolerate) return undefined;
  const last = endings.at(-1) as EndedPod;
  const span = formatDuration(Math.max(0, last.at - first.at));
  const rs = newReplicaSet(state);
  const kind = state.target.kind;
  return {
    class: 'pods-ended',
    object: rs ? { kind: 'ReplicaSet', name: rs.metadata?.name ?? '' } : { kind, name: state.target.name },
    reason: last.reason,
    message: last.message,
    explanation:
      `${endings.length} pods of revision ${(rs ? revisionOf(rs) : state.memo.revision) || '?'} ended within ${span}, ${replacements.length} of them replacements ` +
      `of pods that had ended: the pod does not fit where it is scheduled. Last: ${last.note}`,
  };
}
