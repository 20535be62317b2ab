/**
 * What only a Job's pods have: a pod that ended `Failed` (its failed containers' exit codes and
 * termination messages), the exits of pods being deleted as the Job failed, the logs a success
 * shows, and the `kubectl logs job/` hint that needs a pod left.
 */
import type { CoreV1Event, V1ContainerStateTerminated, V1Job, V1Pod } from '@kubernetes/client-node';
import { asDeleted, hasOpenProblem, MAX_DEPARTED } from '../departed.js';
import { firstLine } from '../diagnose/first-line.js';
import { type Finding, toProblem } from '../diagnose/index.js';
import { eventTime, timeOf } from '../k8s.js';
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
  return out.length > 0 || known.length > 0 ? out : goneJobPodEvents(state);
}

/** The Job controller's Events that name a pod (`Created pod: migrate-x`, `Deleted pod: migrate-x`). */
const JOB_POD_EVENT = /^(?:Created|Deleted) pod: (\S+)$/;

/**
 * A Job whose pods were all gone before the trace saw them fail (deleted by the Job controller as
 * it failed, or by a TTL, before the trace started): the gone pods its Events name, each with its
 * last Warning Event when it has one (`BackOff`: back-off restarting failed container); their exit
 * codes and logs are lost. Events older than the Job are an earlier Job's of that name.
 */
function goneJobPodEvents(state: RolloutState): Problem[] {
  const job = state.workload as V1Job | undefined;
  const since = timeOf(job?.metadata?.creationTimestamp) ?? timeOf(job?.status?.startTime) ?? 0;
  const current = (e: CoreV1Event | undefined): e is CoreV1Event => e !== undefined && eventTime(e) >= since;
  const gone = new Map<string, { at: number; warning?: CoreV1Event }>();
  for (const uid of state.kubeEventsByObject.get(state.target.name) ?? []) {
    const e = state.kubeEvents.get(uid);
    const pod = current(e) && e.involvedObject?.kind === 'Job' ? JOB_POD_EVENT.exec(e.message ?? '')?.[1] : undefined;
    if (pod && !state.pods.has(pod)) gone.set(pod, { at: Math.max(eventTime(e!), gone.get(pod)?.at ?? 0) });
  }
  for (const [name, uids] of state.kubeEventsByObject) {
    if (state.pods.has(name) || !name.startsWith(`${state.target.name}-`)) continue;
    const warnings = uids.map((uid) => state.kubeEvents.get(uid)).filter(current);
    const warning = warnings
      .filter((e) => e.type === 'Warning' && e.involvedObject?.kind === 'Pod')
      .sort((a, b) => eventTime(a) - eventTime(b))
      .at(-1);
    if (warning) gone.set(name, { at: Math.max(eventTime(warning), gone.get(name)?.at ?? 0), warning });
  }
  return [...gone]
    .sort(([, a], [, b]) => a.at - b.at)
    .slice(-MAX_DEPARTED)
    .map(([name, { warning }]) => goneJobPodProblem(state, name, warning));
}

/** A Job pod gone before the trace, said from its last Warning Event, or as gone with what it lost. */
function goneJobPodProblem(state: RolloutState, name: string, warning: CoreV1Event | undefined): Problem {
  const ref = { namespace: state.target.namespace, name: state.target.name, facts: state.facts };
  const f: Finding = {
    class: 'job-pod-failed',
    object: { kind: 'Pod', name },
    reason: warning?.reason ?? 'Deleted',
    message: warning?.message ?? '',
    explanation: warning
      ? `gone before the trace; its last Warning Event: ${firstLine(warning.message ?? '', 160)}`
      : 'gone before the trace (deleted as the Job failed): its exit code and log are lost with it',
  };
  return asDeleted(state, toProblem(f, ref, kubeEventsAbout(state, 'Pod', name), state.now));
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
