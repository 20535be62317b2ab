/** Building the final {@link Verdict}. */
import { formatDuration } from './format-duration.js';
import { kubectlHints } from './hints.js';
import { podView } from './pod-state.js';
import { pulumiErrorMessages } from './pulumi-messages.js';
import { newReplicaSet, podsOf, replicaSetOfRevision, trackedPvcs } from './relations.js';
import { rolloutGap } from './rolled-out.js';
import type { RolloutState } from './state.js';
import type { Problem, Verdict } from './types.js';

/** `pod web-5f6-abc container "app"`, `replicaset web-5f6`, ... */
export function problemSubject(p: Problem): string {
  const o = p.object;
  if (o.kind === 'Pod') {
    return `pod ${o.name}${p.container ? ` ${p.initContainer ? 'init container' : 'container'} "${p.container}"` : ''}`;
  }
  return `${o.kind.toLowerCase()} ${o.name}`;
}

/** One-line description of a problem: `pod x container "app": image "y" not found (ErrImagePull)`. */
export function problemLine(p: Problem): string {
  return `${problemSubject(p)}: ${p.explanation} (${p.reason})`;
}

/** Replica counts for the verdict and progress events. */
export function replicaCounts(state: RolloutState): Verdict['replicas'] {
  const d = state.deployment;
  const rs = newReplicaSet(state);
  return {
    desired: d?.spec?.replicas ?? 1,
    ready: rs?.status?.readyReplicas ?? 0,
    updated: d?.status?.updatedReplicas ?? 0,
    available: d?.status?.availableReplicas ?? 0,
  };
}

/** Pulumi's sub-error lines for the current state. */
export function pulumiMessagesOf(state: RolloutState): string[] {
  const rs = replicaSetOfRevision(state, state.pulumi.revision);
  return pulumiErrorMessages(state.pulumi, trackedPvcs(state), podsOf(state, rs));
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
  const ref = { namespace: state.target.namespace, name: state.target.name };
  const replicas = replicaCounts(state);
  const revision = state.memo.revision;
  const primary = input.problems[0];
  const progress = `${replicas.ready}/${replicas.desired} pods ready`;
  const restores = state.memo.restores;
  const rollback = restores !== undefined ? ` (a rollback: the template of revision ${restores})` : '';
  const rev = revision ? `revision ${revision}${rollback}` : 'the rollout';
  let summary: string;
  switch (input.outcome) {
    case 'succeeded':
      summary = `${rev} rolled out: ${progress} in ${formatDuration(input.at - state.startedAt)}`;
      break;
    case 'failed':
      summary = primary ? problemLine(primary) : `${rev} failed`;
      break;
    case 'timed-out':
      if (input.timeoutKind === 'no-progress') {
        const pending = primary ? problemLine(primary) : pendingPods(state);
        summary = `no progress for ${input.timeoutSeconds ?? '?'}s waiting for ${rev}: ${progress}${pending ? `; ${pending}` : ''}`;
      } else {
        const missing = primary ? problemLine(primary) : state.deployment && rolloutGap(state.deployment, 'complete');
        summary = `timed out after ${input.timeoutSeconds ?? '?'}s waiting for ${rev}: ${progress}${missing ? `; ${missing}` : ''}`;
      }
      break;
    default:
      summary = `cancelled${input.reason ? ` (${input.reason})` : ''} while waiting for ${rev}: ${progress}`;
  }
  return {
    outcome: input.outcome,
    deployment: ref,
    ...(revision ? { revision } : {}),
    ...(restores !== undefined ? { restores } : {}),
    summary,
    problems: input.problems,
    replicas,
    startedAt: state.startedAt,
    finishedAt: input.at,
    ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
    ...(input.outcome === 'timed-out' && input.timeoutKind ? { timeoutKind: input.timeoutKind } : {}),
    pulumiMessages: input.outcome === 'succeeded' ? [] : pulumiMessagesOf(state),
    hints: primary ? primary.hints : input.outcome === 'succeeded' ? [] : kubectlHints(ref),
  };
}

/** The new ReplicaSet's pods that are not ready yet: `pod web-1 creating (ContainerCreating)`, at most 3. */
function pendingPods(state: RolloutState): string {
  const pods = podsOf(state, newReplicaSet(state))
    .map((pod) => ({ name: pod.metadata?.name ?? '?', view: podView(pod) }))
    .filter((p) => p.view.state !== 'ready');
  const shown = pods.slice(0, 3).map((p) => `pod ${p.name} ${p.view.state}${p.view.detail ? ` (${p.view.detail})` : ''}`);
  if (pods.length > 3) shown.push(`${pods.length - 3} more`);
  return shown.length ? `still pending: ${shown.join(', ')}` : newReplicaSet(state) ? '' : 'no ReplicaSet of the new revision yet';
}
