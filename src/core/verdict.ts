/** Building the final {@link Verdict}. */

import { currentPods } from './current-pods.js';
import { departedProblems } from './departed.js';
import { formatDuration } from './format-duration.js';
import { kubectlHints } from './hints.js';
import { canBecomeReady } from './k8s.js';
import { moduleOf } from './kinds/index.js';
import { podView } from './pod-state.js';
import { newReplicaSet } from './relations.js';
import type { RolloutState } from './state.js';
import { rolloutTimings } from './timings.js';
import type { Problem, RolloutTimings, Verdict } from './types.js';
import { kindOf } from './workloads.js';

/** `pod web-5f6-abc container "app"`, `replicaset web-5f6`, ... */
export function problemSubject(p: Problem): string {
  const o = p.object;
  if (o.kind === 'Pod') {
    return `pod ${o.name}${p.podDeleted ? ' (deleted)' : ''}${p.container ? ` ${p.initContainer ? 'init container' : 'container'} "${p.container}"` : ''}`;
  }
  return `${o.kind.toLowerCase()} ${o.name}`;
}

/** One-line description of a problem: `pod x container "app": image "y" not found (ErrImagePull)`. */
export function problemLine(p: Problem): string {
  return `${problemSubject(p)}: ${p.explanation} (${p.reason})`;
}

/** Inputs that differ per outcome. */
export interface VerdictInput {
  outcome: Verdict['outcome'];
  at: number;
  problems: Problem[];
  timeoutSeconds?: number;
  timeoutKind?: 'overall' | 'no-progress';
  reason?: string;
}

/** Builds the verdict with its one-line summary. */
export function buildVerdict(state: RolloutState, input: VerdictInput): Verdict {
  const kind = kindOf(state);
  if (input.outcome !== 'succeeded' && input.outcome !== 'failed' && neverFound(state)) return notFoundVerdict(state, input);
  const module = moduleOf(state);
  const ref = { namespace: state.target.namespace, name: state.target.name };
  const replicas = module.replicas(state);
  const revision = state.memo.revision;
  const primary = input.problems[0];
  // Pods deleted while their problem was open: their cause, after the open problems.
  const problems =
    input.outcome === 'succeeded'
      ? input.problems
      : [...input.problems, ...departedProblems(state, (known) => module.unseenExits?.(state, known) ?? [])];
  const progress = module.progressWords(state);
  const restores = state.memo.restores;
  const rollback = restores !== undefined ? ` (a rollback: the template of revision ${restores})` : '';
  const rev = module.subject?.(state) ?? (revision ? `revision ${revision}${rollback}` : 'the rollout');
  let summary: string;
  switch (input.outcome) {
    case 'succeeded':
      summary = `${rev} ${module.facts.done}: ${progress} in ${formatDuration(input.at - state.startedAt)}`;
      break;
    case 'failed':
      summary = primary ? withCause(state, primary, problems, progress) : `${rev} failed`;
      break;
    case 'timed-out': {
      const head =
        input.timeoutKind === 'no-progress'
          ? `no progress for ${input.timeoutSeconds ?? '?'}s waiting for ${rev}`
          : `timed out after ${input.timeoutSeconds ?? '?'}s waiting for ${rev}`;
      // What kubectl would still wait for (old pods terminating, updated pods not available).
      const gap = input.problems.length > 0 ? undefined : module.stillWaitingFor(state);
      summary = [`${head}: ${progress}`, ...notReadyLines(state, input.problems), ...(gap ? [gap] : [])].join('; ');
      break;
    }
    default:
      summary = `cancelled${input.reason ? ` (${input.reason})` : ''} while waiting for ${rev}: ${progress}`;
  }
  return {
    outcome: input.outcome,
    workload: { kind, ...ref },
    deployment: ref,
    ...(kind !== 'Deployment' ? { kind } : {}),
    ...(revision ? { revision } : {}),
    ...(restores !== undefined ? { restores } : {}),
    summary,
    problems: withLiveHints(state, problems),
    replicas,
    ...module.verdictExtra?.(state),
    ...timingsOf(state),
    startedAt: state.startedAt,
    finishedAt: input.at,
    ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
    ...(input.outcome === 'timed-out' && input.timeoutKind ? { timeoutKind: input.timeoutKind } : {}),
    pulumiMessages: input.outcome === 'succeeded' ? [] : (module.pulumiMessages?.(state) ?? []),
    hints: liveHints(state, primary ? primary.hints : input.outcome === 'succeeded' ? [] : kubectlHints({ ...ref, facts: state.facts })),
  };
}

/**
 * A failed Job's line leads with the failing pod's cause, the Job's condition after it as context
 * (`pod migrate-x container "app": container exited with code 3 … (Error); job migrate failed
 * (BackoffLimitExceeded): Job has reached the specified backoff limit; 0/1 succeeded, 0 running,
 * 2 failed, backoffLimit 1`): the condition alone says nothing of why. Other kinds' first problem
 * is already a cause.
 */
function withCause(state: RolloutState, primary: Problem, problems: Problem[], progress: string): string {
  const cause = primary.class === 'job-failed' ? problems.find((p) => p.object.kind === 'Pod') : undefined;
  if (!cause) return problemLine(primary);
  const limit = moduleOf(state).verdictExtra?.(state).job?.backoffLimit;
  const context = `job ${state.target.name} failed (${primary.reason}): ${primary.message}; ${progress}${limit !== undefined ? `, backoffLimit ${limit}` : ''}`;
  return `${problemLine(cause)}; ${context}`;
}

/** `hints` without those that cannot work any more (the kind's `liveHints`: `kubectl logs job/` with no pod left). */
function liveHints(state: RolloutState, hints: string[]): string[] {
  return moduleOf(state).liveHints?.(state, hints) ?? hints;
}

/** The workload's own problems with {@link liveHints}. */
function withLiveHints(state: RolloutState, problems: Problem[]): Problem[] {
  const kind = kindOf(state);
  return problems.map((p) => (p.object.kind === kind ? { ...p, hints: liveHints(state, p.hints) } : p));
}

/**
 * Why the rollout is not done, for a timeout: EVERY pod of the new ReplicaSet that is not ready,
 * each with its problem (`pod web-1 container "app": ... (CrashLoopBackOff)`) or its state
 * (`pod web-2 creating (ContainerCreating)`), and problems that are not about a pod. Never
 * "and N more": the one pod left out is the one someone needs.
 */
export function notReadyLines(state: RolloutState, problems: Problem[]): string[] {
  const byPod = new Map<string, Problem>();
  for (const p of problems) if (p.object.kind === 'Pod' && !byPod.has(p.object.name)) byPod.set(p.object.name, p);
  const lines: string[] = [];
  const named = new Set<string>();
  for (const pod of currentPods(state)) {
    // Only pods that can still become Ready are waited for (an ended or terminating one is not).
    if (!canBecomeReady(pod)) continue;
    const name = pod.metadata?.name ?? '?';
    const view = podView(pod);
    const problem = byPod.get(name);
    if (view.state === 'ready' && !problem) continue;
    named.add(name);
    lines.push(problem ? problemLine(problem) : `pod ${name} ${view.state}${view.detail ? ` (${view.detail})` : ''}`);
  }
  // Problems of the ReplicaSet, the Deployment, PVCs, and of pods not listed above.
  for (const p of problems) {
    if (p.object.kind !== 'Pod') lines.push(problemLine(p));
    else if (!named.has(p.object.name)) {
      named.add(p.object.name);
      lines.push(problemLine(p));
    }
  }
  if (lines.length === 0 && moduleOf(state).facts.ownedVia.includes('ReplicaSet') && !newReplicaSet(state))
    lines.push('no ReplicaSet of the new revision yet');
  return lines;
}

/** Whether the traced workload was never seen, at any generation (a stale one was). */
function neverFound(state: RolloutState): boolean {
  return state.workload === undefined && state.staleGeneration === undefined && !state.deleted;
}

/**
 * A timeout or cancel before the workload was ever found (a `--timeout` shorter than the
 * not-found grace): it says so, with no counts, and hints at what the namespace has.
 */
function notFoundVerdict(state: RolloutState, input: VerdictInput): Verdict {
  const kind = kindOf(state);
  const ref = { namespace: state.target.namespace, name: state.target.name };
  const what = `${kind} ${ref.namespace}/${ref.name} ${state.synced ? 'not found' : 'not seen: the first lists had not answered'}`;
  const summary =
    input.outcome === 'cancelled'
      ? `cancelled${input.reason ? ` (${input.reason})` : ''} while waiting: ${what}`
      : `${input.timeoutKind === 'no-progress' ? 'no progress' : 'timed out'} after ${input.timeoutSeconds ?? '?'}s: ${what}`;
  return {
    outcome: input.outcome,
    workload: { kind, ...ref },
    deployment: ref,
    ...(kind !== 'Deployment' ? { kind } : {}),
    notFound: true,
    summary,
    problems: input.problems,
    replicas: { desired: 0, ready: 0, updated: 0, available: 0 },
    startedAt: state.startedAt,
    finishedAt: input.at,
    ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
    ...(input.outcome === 'timed-out' && input.timeoutKind ? { timeoutKind: input.timeoutKind } : {}),
    pulumiMessages: [],
    hints: [`kubectl -n ${ref.namespace} get ${moduleOf(state).facts.resource}`],
  };
}

function timingsOf(state: RolloutState): { timings?: RolloutTimings } {
  const timings = rolloutTimings(state);
  return timings ? { timings } : {};
}
