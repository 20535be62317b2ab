/**
 * The words of the Pulumi component's own lines (preview reports, the change line, verdict
 * summaries); the per-event status lines are status-lines.ts. Pure: data in, text out.
 */
import { KIND_BY_OMISSION, type Verdict, type WorkloadKind } from '../core/index.js';
import { formatVerdict } from '../report/index.js';
import type { ChangeKind, LiveDeployment, TimeoutChoice } from './decisions.js';
import type { PlannedDeployment } from './plan.js';
import { REPLACE_UNREADY, replacementCause, replacementWords } from './replacement.js';
import { describeChange, type TemplateChange } from './template-diff.js';
import { declaredSize, type LiveWorkload, liveRevisionOf, liveStateOf } from './workload-kinds.js';

/** What the component knew before the update, as the wording needs it. */
export interface BaselineFacts {
  plan: PlannedDeployment;
  namespace: string;
  live?: LiveWorkload;
  change: ChangeKind;
  changes: TemplateChange[];
  /** The live object's facts the decisions read (why a replacement happens). */
  liveFacts?: LiveDeployment;
}

/** What changed that makes the provider replace the object, in words (`spec.serviceName`). */
function replacedBecause(b: BaselineFacts): string | undefined {
  const cause = b.liveFacts ? replacementCause(b.plan, b.liveFacts, b.changes) : undefined;
  return cause === 'replaceUnready' ? undefined : replacementWords(cause, b.plan.kind);
}

/** `Job ns/name is not complete and carries pulumi.com/replaceUnready` */
function unreadyWords(b: BaselineFacts, where: string): string {
  return `${b.plan.kind} ${where} is not complete and carries ${REPLACE_UNREADY}`;
}

/** The live revision, undefined (not '') when the workload has none. */
function liveRevision(b: BaselineFacts): string | undefined {
  return liveRevisionOf(b.plan.kind, b.live);
}

/** `revision 2, 3/3 ready`, `complete, 1/1 succeeded` (a Job), or `not found`. */
function liveState(b: BaselineFacts): string {
  return liveStateOf(b.plan.kind, b.live);
}

function changeList(changes: TemplateChange[], max: number): string {
  const more = changes.length > max ? `; +${changes.length - max} more` : '';
  return `${changes.slice(0, max).map(describeChange).join('; ')}${more}`;
}

/** The preview's one line for a workload (undefined baseline: values known only during the update). */
export function previewSummary(b: BaselineFacts | undefined, asked?: WorkloadKind): string {
  const kind = asked ?? b?.plan.kind ?? KIND_BY_OMISSION;
  if (!b) return `preview: the ${kind} depends on values known only during the update; it will be traced then`;
  const where = `${b.namespace}/${b.live?.metadata?.name ?? b.plan.name ?? `${b.plan.namePrefix}-<random>`}`;
  const state = liveState(b);
  switch (b.change) {
    case 'create':
      return `preview: ${kind} ${where} does not exist yet: the update creates it (${kind === 'Deployment' ? 'revision 1, ' : ''}${declaredSize(kind, b.plan.replicas, b.plan.completions)})`;
    case 'replace': {
      const field = replacedBecause(b);
      const why = field ? `the ${field} of ${kind} ${where} changes (it cannot be updated)` : unreadyWords(b, where);
      return `preview: ${why}: the provider replaces the ${kind} (delete, then create; live: ${state})`;
    }
    case 'rollout':
      return `preview: the pod template of ${where} changes (${changeList(b.changes, 3)}): the update starts a new rollout (live: ${state})`;
    case 'scale':
      return `preview: ${where} scales ${b.live?.spec && 'replicas' in b.live.spec ? (b.live.spec.replicas ?? 1) : 1} → ${b.plan.replicas} replicas, pod template unchanged: no new rollout (live: ${state})`;
    default:
      return `preview: the pod template of ${where} is unchanged: no new rollout (live: ${state})`;
  }
}

/** The object's name as known before the write: live, declared, or its naming pattern. */
function declaredName(b: BaselineFacts): string {
  return b.live?.metadata?.name ?? b.plan.name ?? (b.plan.generateName ? `${b.plan.generateName}*` : `${b.plan.namePrefix}-*`);
}

/** The first line of an update's trace: what changes and what is traced. */
export function changeLine(b: BaselineFacts): string {
  const name = declaredName(b);
  switch (b.change) {
    case 'create':
      return `new ${b.plan.kind} ${b.namespace}/${name}: tracing its first rollout`;
    case 'replace': {
      const field = replacedBecause(b);
      const why = field ? `${field} changed` : unreadyWords(b, `${b.namespace}/${name}`);
      return `${why}: the provider replaces ${b.namespace}/${name}; tracing the new ${b.plan.kind}'s first rollout`;
    }
    case 'rollout':
      return `pod template changed (${changeList(b.changes, 2)}): tracing the rollout from revision ${liveRevision(b) ?? '?'}`;
    case 'scale':
      return `scale-only update (${b.live?.spec && 'replicas' in b.live.spec ? (b.live.spec.replicas ?? 1) : 1} → ${b.plan.replicas} replicas): no new rollout`;
    default:
      return `no pod template change for ${b.namespace}/${name}`;
  }
}

/** The line of an unchanged Deployment (nothing is sent to the cluster, nothing is traced). */
export function unchangedLine(b: BaselineFacts): string {
  return `no change to ${b.plan.kind} ${b.namespace}/${b.live?.metadata?.name}: ${liveState(b)}`;
}

/** The first line when the write changed the spec though the declared pod template matches the live one. */
export function specChangedLine(b: BaselineFacts, writtenGeneration: number | undefined): string {
  const name = b.live?.metadata?.name ?? b.plan.name;
  const generations = `generation ${b.live?.metadata?.generation ?? '?'} → ${writtenGeneration ?? '?'}`;
  return `the provider's write changed ${b.namespace}/${name} (${generations}) though its declared pod template matches the live one: tracing from revision ${liveRevision(b) ?? '?'}`;
}

/**
 * The first line when the provider replaced the object though the declared spec asks for no
 * replacement: the engine was told to (`pulumi up --replace`, the `replaceOnChanges` option), or
 * pk compared the old inputs with the new ones (a Job newly declaring its default `parallelism`).
 */
export function replacedLine(b: BaselineFacts): string {
  const name = declaredName(b);
  return `the provider replaced ${b.namespace}/${name} (a new object; the declared spec asks for no replacement: \`--replace\`, \`replaceOnChanges\`, or a field the provider replaces on that the last update did not declare): tracing the new ${b.plan.kind}'s first rollout`;
}

/** The first line of an unchanged Deployment found not rolled out and healthy: it is followed to a verdict. */
export function notDoneLineOf(b: BaselineFacts): string {
  const name = declaredName(b);
  return `no change to ${b.plan.kind} ${b.namespace}/${name}, but it is not rolled out and healthy (${liveState(b)}): following it to a verdict`;
}

/** The permanent text of a verdict that is not a success (gate error or observe warning). */
export function verdictText(verdict: Verdict, timeout: TimeoutChoice, gate: boolean): string {
  const lines: string[] = [];
  if (verdict.outcome === 'timed-out') {
    lines.push(
      verdict.timeoutKind === 'no-progress'
        ? `rollout-trace gave up after ${verdict.timeoutSeconds}s without progress: the noProgressTimeoutSeconds option of rollout-trace`
        : `rollout-trace gave up after ${verdict.timeoutSeconds ?? timeout.seconds}s: ${timeout.source}`,
    );
  }
  lines.push(formatVerdict(verdict, { color: false }));
  if (!gate) lines.push('(observe mode: the kubernetes provider keeps waiting until its own timeout; gatedDeployment() fails fast)');
  return lines.join('\n');
}
