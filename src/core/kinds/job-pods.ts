/**
 * What only a Job's pods have: a pod that ended `Failed` (its failed containers' exit codes and
 * termination messages), the exits of pods being deleted as the Job failed, the logs a success
 * shows, and the `kubectl logs job/` hint that needs a pod left.
 */
import type { V1ContainerStateTerminated, V1Pod } from '@kubernetes/client-node';
import { asDeleted, hasOpenProblem } from '../departed.js';
import { firstLine } from '../diagnose/first-line.js';
import { type Finding, toProblem } from '../diagnose/index.js';
import { kubeEventsAbout } from '../relations.js';
import type { RolloutState } from '../state.js';
import type { Problem } from '../types.js';
import { SUCCESS_LOG_PODS, workloadPods } from '../workloads.js';

/**
 * Each failed container of a Job pod that ended `Failed` (restartPolicy Never): its exit code and
 * termination message. The Job may still retry; its `Failed` condition decides.
 */
export function failedJobPodFindings(pod: V1Pod): Finding[] {
  if (pod.status?.phase !== 'Failed') return [];
  const name = pod.metadata?.name ?? '';
  const out: Finding[] = [];
  for (const cs of pod.status?.containerStatuses ?? []) {
    const t = cs.state?.terminated;
    if (t && t.exitCode !== 0) out.push(exitFinding(name, cs.name, t));
  }
  if (out.length === 0 && pod.status?.reason) {
    // Ended without a failed container: evicted, deadline exceeded, rejected by its node.
    const reason = pod.status.reason;
    const message = pod.status.message ?? '';
    out.push({
      class: 'job-pod-failed',
      object: { kind: 'Pod', name },
      reason,
      message,
      explanation: `pod failed (${reason}): ${message}`,
    });
  }
  return out;
}

/** A Job pod's container that ended with a non-zero exit code (`job-pod-failed`). */
function exitFinding(pod: string, container: string, t: V1ContainerStateTerminated): Finding {
  const termMsg = t.message?.trim() || undefined;
  return {
    class: 'job-pod-failed',
    object: { kind: 'Pod', name: pod },
    container,
    reason: t.reason || 'Error',
    message: t.message ?? '',
    explanation: `container exited with code ${t.exitCode}${termMsg ? ` ("${firstLine(termMsg, 120)}")` : ''}`,
    exitCode: t.exitCode,
    ...(termMsg ? { terminationMessage: termMsg } : {}),
  };
}

/**
 * The last failed exit of a Job pod's containers (the current state or the one before a
 * restart): what a trace that starts as the pod is being deleted still knows of why it failed.
 */
export function lastExitFinding(pod: V1Pod): Finding | undefined {
  for (const cs of pod.status?.containerStatuses ?? []) {
    const t = cs.state?.terminated ?? cs.lastState?.terminated;
    // Ended before a restart: the previous instance holds its log.
    const restarted = cs.state?.terminated === undefined && cs.restartCount > 0 ? { restartCount: cs.restartCount } : {};
    if (t && t.exitCode !== 0) return { ...exitFinding(pod.metadata?.name ?? '', cs.name, t), ...restarted };
  }
  return undefined;
}

/**
 * A Job's pods being deleted, or already gone, whose failure this trace never saw (it started as
 * the Job failed, or saw a pod running again after a crash and then only its delete): the last
 * failed exit their status still shows (the delete's final state for a pod gone).
 */
export function unseenJobExits(state: RolloutState, known: Problem[]): Problem[] {
  const ref = { namespace: state.target.namespace, name: state.target.name, facts: state.facts };
  const out: Problem[] = [];
  const leaving = workloadPods(state).filter((p) => p.metadata?.deletionTimestamp);
  const gone = state.memo.departedPods.filter((p) => !state.pods.has(p.metadata?.name ?? ''));
  for (const pod of [...gone, ...leaving]) {
    const name = pod.metadata?.name ?? '';
    if (hasOpenProblem(state, name) || known.some((p) => p.object.name === name)) continue;
    const f = lastExitFinding(pod);
    if (f) out.push(asDeleted(state, toProblem(f, ref, kubeEventsAbout(state, 'Pod', name), state.now)));
  }
  return out;
}

/** `kubectl logs job/NAME` reads a pod of the Job: with none left it can only fail. */
export function deadLogHintsGone(state: RolloutState, hints: string[]): string[] {
  if (workloadPods(state).some((p) => !p.metadata?.deletionTimestamp)) return hints;
  return hints.filter((h) => !/ logs job\//.test(h));
}

/** The containers of the Job's succeeded pods (the last {@link SUCCESS_LOG_PODS} by name), whose logs a success shows. */
export function succeededJobContainers(state: RolloutState): Array<{ pod: string; container: string }> {
  const pods = workloadPods(state).filter((p) => p.status?.phase === 'Succeeded');
  return pods
    .slice(-SUCCESS_LOG_PODS)
    .flatMap((p) => (p.spec?.containers ?? []).map((c) => ({ pod: p.metadata?.name ?? '', container: c.name })));
}
