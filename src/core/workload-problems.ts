/**
 * The problems of StatefulSets, DaemonSets and Jobs beyond the pod diagnosis every kind shares:
 * a rollout nobody will finish (`rollout-blocked`), a failed Job (`job-failed`), a Job pod that
 * failed while the Job retries (`job-pod-failed`), a suspended Job waiting to be admitted
 * (`job-suspended`), and a StatefulSet managed `OrderedReady` whose
 * failing pod holds the other ordinals.
 */
import type { V1ContainerStateTerminated, V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { daemonPodNode } from './daemonset-nodes.js';
import { firstLine } from './diagnose/first-line.js';
import type { Finding } from './diagnose/index.js';
import { moduleOf } from './kinds/index.js';
import { jobCounts } from './kinds/job.js';
import { isOrderedReady } from './kinds/statefulset.js';
import { kubeEventsAbout } from './relations.js';
import type { RolloutState } from './state.js';
import type { Problem } from './types.js';
import { currentPods, kindOf } from './workloads.js';

/** The traced workload's own findings: blocked, or (a Job) failed or suspended. */
export function workloadFindings(state: RolloutState): Finding[] {
  const rule = moduleOf(state).rule(state);
  if (!rule) return [];
  const object = { kind: kindOf(state), name: state.target.name };
  if (rule.state === 'blocked') {
    return [{ class: 'rollout-blocked', object, reason: rule.reason, message: rule.message, explanation: rule.message }];
  }
  if (rule.reason === 'Suspended') return [suspendedFinding(state, object, rule.message)];
  if (rule.state !== 'failed') return [];
  const counts = 'parallelism' in rule.progress ? jobCounts(rule.progress) : '';
  return [
    {
      class: 'job-failed',
      object,
      reason: rule.reason,
      message: rule.message,
      explanation: `job failed (${rule.reason}): ${rule.message}${counts ? `; ${counts}` : ''}`,
    },
  ];
}

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
 * A DaemonSet pod that cannot be scheduled is its node's: the node it is for is named (its
 * resources, a port, a volume: the scheduler's message says which), so the node without the agent is known.
 */
export function withDaemonNode(state: RolloutState, problem: Problem): Problem {
  if (kindOf(state) !== 'DaemonSet' || problem.object.kind !== 'Pod' || problem.class !== 'unschedulable') return problem;
  const pod = state.pods.get(problem.object.name);
  const node = pod && daemonPodNode(pod);
  return node ? { ...problem, explanation: `node ${node} cannot run its DaemonSet pod: ${problem.explanation}` } : problem;
}

/** The ordinal of a StatefulSet pod (`db-2` -> 2), or undefined. */
function ordinalOf(sts: V1StatefulSet, pod: string): number | undefined {
  const prefix = `${sts.metadata?.name ?? ''}-`;
  if (!pod.startsWith(prefix)) return undefined;
  const n = Number(pod.slice(prefix.length));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Under `OrderedReady` (the default), a failing pod holds every other ordinal: the controller
 * creates or replaces one pod at a time, and only once the previous one is Ready. Says so in the
 * explanation of each pod problem of a failing class.
 */
export function withOrderedReadyWait(state: RolloutState, problem: Problem): Problem {
  const sts = state.workload as V1StatefulSet | undefined;
  if (kindOf(state) !== 'StatefulSet' || !sts || !isOrderedReady(sts) || problem.object.kind !== 'Pod') return problem;
  if (state.policy.classes[problem.class as keyof typeof state.policy.classes]?.action !== 'fail') return problem;
  const ordinal = ordinalOf(sts, problem.object.name);
  const replicas = sts.spec?.replicas ?? 1;
  if (ordinal === undefined || replicas < 2) return problem;
  const name = sts.metadata?.name ?? '';
  const current = new Set(currentPods(state).map((p) => p.metadata?.name));
  const waiting = Array.from({ length: replicas }, (_, i) => `${name}-${i}`).filter((n, i) => i !== ordinal && !current.has(n));
  if (waiting.length === 0) return problem;
  const wait = `; ${waiting.join(', ')} ${waiting.length === 1 ? 'waits' : 'wait'} for it: podManagementPolicy OrderedReady creates or updates one pod at a time, each once the previous one is Ready`;
  return { ...problem, explanation: `${problem.explanation}${wait}` };
}

/** Reasons of the Job controller's own Events about a Job: they never say what holds it. */
const JOB_CONTROLLER_REASONS = new Set([
  'SuccessfulCreate',
  'SuccessfulDelete',
  'Completed',
  'Suspended',
  'Resumed',
  'BackoffLimitExceeded',
]);

/**
 * A suspended Job, waiting to be admitted, with what holds it when an Event about the Job says so
 * (the newest from another component than the Job controller: Kueue's `Pending: couldn't assign
 * flavors ... insufficient quota`).
 */
function suspendedFinding(state: RolloutState, object: Finding['object'], message: string): Finding {
  const events = kubeEventsAbout(state, 'Job', state.target.name).filter((e) => !JOB_CONTROLLER_REASONS.has(e.reason ?? ''));
  const held = events.at(-1);
  const by = held ? `; ${held.source?.component ?? held.reportingComponent ?? 'an Event'} says ${held.reason}: ${held.message ?? ''}` : '';
  return { class: 'job-suspended', object, reason: 'Suspended', message, explanation: `${message}${by}` };
}
