/**
 * The Pulumi integration's decisions, apart from I/O (like src/core): what an update does to a
 * Deployment, what to wait for, whether to trace at all, which timeout applies, how the gate
 * keeps the provider's delete wait. Inputs are plain data read by the component; tested from
 * tables (test/unit/pulumi/decisions.test.ts).
 */
import type { WorkloadKind } from '../core/index.js';
import { type PlannedDeployment, SKIP_AWAIT, WAIT_FOR } from './plan.js';
import { replacementCause } from './replacement.js';
import type { TemplateChange } from './template-diff.js';

/**
 * What the planned update does to the live Deployment. `replace`: the provider deletes it and
 * creates a new object (a changed `spec.selector` is immutable), whose generation starts at 1.
 */
export type ChangeKind = 'create' | 'rollout' | 'scale' | 'unchanged' | 'replace' | 'unknown';

/** The parts of the live Deployment the decisions read. */
export interface LiveDeployment {
  uid?: string;
  generation?: number;
  revision?: string;
  replicas?: number;
  selector?: Record<string, string>;
  /** The live values of the kind's replacement fields (plan.ts `REPLACED_ON`). */
  replacedOn?: Record<string, unknown>;
  /** A StatefulSet whose `status.currentRevision` and `updateRevision` differ (a rollout not finished); undefined for other kinds. */
  revisionsDiffer?: boolean;
  /** A Job: whether it started and is Complete (pk's job checker `Ready`); undefined for other kinds. */
  complete?: boolean;
}

/** Classifies the update from the plan, the live object and the pod-template differences. */
export function changeKind(plan: PlannedDeployment, live: LiveDeployment | undefined, changes: readonly TemplateChange[]): ChangeKind {
  if (!live) return 'create';
  if (replacementCause(plan, live, changes) !== undefined) return 'replace';
  if (changes.length > 0) return 'rollout';
  if (plan.replicas !== undefined && plan.replicas !== (live.replicas ?? 1)) return 'scale';
  return 'unchanged';
}

/** What the tracker must wait for so that it never judges the object as it was before the update. */
export interface WaitTarget {
  /** The revision before the update: a rollout must move past it. */
  baselineRevision?: string;
  /** The generation the controller must have observed. */
  minGeneration?: number;
  /** How long the Deployment may be missing before "not found" (it is being created). */
  notFoundGraceSeconds?: number;
}

/**
 * The wait target. `written` is what the provider returned after its write (gate mode), which
 * is exact; otherwise it is derived from the live object before the update.
 */
export function waitTarget(
  change: ChangeKind,
  live: LiveDeployment | undefined,
  written: { generation?: number } | undefined,
  kind: WorkloadKind,
): WaitTarget {
  // A Job may carry no generation at all (1.20's batch API sets none): only one the provider
  // returned can be waited for.
  if (kind === 'Job')
    return { minGeneration: written?.generation, ...(change === 'replace' || change === 'create' ? { notFoundGraceSeconds: 60 } : {}) };
  // Only a Deployment's revision says that a rollout moved past the baseline; the other kinds'
  // rules compare their own revisions (the core's kinds/ modules).
  if (kind !== 'Deployment' && change === 'rollout') return { minGeneration: written?.generation ?? (live?.generation ?? 0) + 1 };
  switch (change) {
    case 'create':
      return { minGeneration: written?.generation, notFoundGraceSeconds: 60 };
    case 'replace':
      // The new object starts again at generation 1: "old generation + 1" would stall. The trace
      // starts only once an object with another uid exists (baseline.ts `locate`, or the
      // provider's answer in gate mode), so the old one is never judged.
      return { minGeneration: written?.generation ?? 1, notFoundGraceSeconds: 60 };
    case 'rollout':
      return { baselineRevision: live?.revision, minGeneration: written?.generation ?? (live?.generation ?? 0) + 1 };
    case 'scale':
      return { minGeneration: written?.generation ?? (live?.generation ?? 0) + 1 };
    default:
      return { minGeneration: written?.generation };
  }
}

/** The provider settings that decide whether there is a cluster update to trace. */
export interface ProviderMode {
  renderYamlToDirectory?: string;
  skipUpdateUnreachable?: boolean;
}

/** Why a Deployment is not traced, as one line; undefined when it is traced. */
export function notTracedBecause(facts: {
  /** `Deployment.get(...)` (a read) or the `import` option. */
  readOrImport?: 'read' | 'import';
  provider?: ProviderMode;
}): string | undefined {
  if (facts.readOrImport === 'read') return 'Deployment.get() reads an existing Deployment: there is no rollout to trace';
  if (facts.readOrImport === 'import') return 'an imported Deployment is adopted as it is: there is no rollout to trace';
  if (facts.provider?.renderYamlToDirectory) {
    return `the kubernetes provider renders YAML to ${facts.provider.renderYamlToDirectory} (renderYamlToDirectory) and never touches the cluster: no rollout to trace`;
  }
  return undefined;
}

/**
 * When the cluster cannot be read before the update: skip quietly if the provider skips updates
 * of an unreachable cluster (skipUpdateUnreachable: it sends no update, so there is no rollout),
 * report during preview, else fail a gate (warn in observe mode).
 */
export function onUnreadableCluster(facts: { dryRun: boolean; skipUpdateUnreachable?: boolean }): 'skip' | 'preview' | 'cannot-trace' {
  if (facts.skipUpdateUnreachable) return 'skip';
  return facts.dryRun ? 'preview' : 'cannot-trace';
}

/**
 * Whether the provider skips updates of an unreachable cluster: its `skipUpdateUnreachable`
 * setting when set, else the `PULUMI_K8S_SKIP_UPDATE_UNREACHABLE` environment variable (pk:
 * provider.go Configure), `"true"` only.
 */
export function skipsUpdateUnreachable(setting: unknown, env: string | undefined): boolean {
  if (setting !== undefined && setting !== null) return String(setting) === 'true';
  return env === 'true';
}

/**
 * How to follow the Deployment once the change is known (not during preview). `check-live`: the
 * declared pod template equals the live one, so the update starts no rollout, but the Deployment
 * is still judged on its live state: only a rolled-out and healthy one is `unchanged`. A rollout
 * that failed stays failed on the next update, as with the provider's own await (the engine keeps
 * its failure as InitErrors and continues awaiting: pp step_generator.go hasInitErrors).
 */
export function traceDecision(change: ChangeKind): 'trace' | 'check-live' {
  return change === 'unchanged' ? 'check-live' : 'trace';
}

/**
 * What the provider's write did, from the object it returned against the baseline (gate mode:
 * the provider returns right after its write). `nothing-changed`: the same object at the same
 * generation or an older one (the engine's stored outputs: no provider call), so no rollout
 * follows whatever the declared spec says (an `ignoreChanges` field, a Deployment left out by
 * `--target`, a same step); `spec-changed`: the declared pod template matches the live one but the
 * write changed the spec (server-side apply removed a field the program no longer declares, or
 * `paused` flipped); `replaced`: another object (another uid) though the spec comparison saw no
 * replacement (the engine's `--replace`, `replaceOnChanges`, a cause the comparison cannot see);
 * `as-declared`: the spec comparison's kind stands (create, replacement, or a write that agrees).
 */
export type WriteEffect = 'as-declared' | 'nothing-changed' | 'spec-changed' | 'replaced';

/** See {@link WriteEffect}. `written` is what the provider returned (undefined: not known). */
export function writeEffect(
  declared: ChangeKind,
  live: LiveDeployment | undefined,
  written: { generation?: number; uid?: string } | null | undefined,
): WriteEffect {
  if (!written || !live || declared === 'create') return 'as-declared';
  const otherObject = written.uid !== undefined && live.uid !== undefined && written.uid !== live.uid;
  // A replacement the engine did not make (an `ignoreChanges` field, `--target`): the same object.
  if (declared === 'replace') return otherObject || written.uid === undefined ? 'as-declared' : 'nothing-changed';
  if (otherObject) return 'replaced';
  if (written.uid !== live.uid || written.generation === undefined || live.generation === undefined) return 'as-declared';
  // At or below the baseline's: nothing was written. When the engine makes no provider call (no
  // diff) it hands back the stored outputs, whose generation is older than the live one after an
  // outside bump (an HPA, `kubectl scale`); a write never lowers a generation.
  if (written.generation <= live.generation) return 'nothing-changed';
  return declared === 'unchanged' ? 'spec-changed' : 'as-declared';
}

/**
 * Whether a Job is gone because it ran in an earlier update and was removed since (its
 * `ttlSecondsAfterFinished`, or a clean-up), while this update wrote nothing: there was no live Job
 * before the update (`change` is `create`), yet what the engine handed back names one (`writtenUid`:
 * with no provider call the engine returns the stored outputs, pp step.go SameStep), and still no
 * Job lives after it (`liveUidAfter`). A Job the provider did create lives (with that uid) right
 * after its write.
 */
export function jobRemovedAfterItRan(facts: {
  kind: WorkloadKind;
  change: ChangeKind;
  writtenUid: string | undefined;
  liveUidAfter: string | undefined;
}): boolean {
  return facts.kind === 'Job' && facts.change === 'create' && !!facts.writtenUid && facts.liveUidAfter === undefined;
}

/**
 * When the kubernetes provider's own await of the object ends differently from the trace, the
 * line that says so and what to do (observe mode says it at once; gate mode follows the trace's
 * rule, docs/pulumi.md). Undefined when both agree, and when pk does not wait (`skipAwait`,
 * `waitFor`). pk await/statefulset.go L430-438 needs `currentRevision == updateRevision`, except
 * for an `OnDelete` StatefulSet past generation 1, which needs its pods Ready only. Both rules
 * agree with the trace on a create (generation 1, one revision) and on a scale of a StatefulSet
 * whose revisions are equal; they differ on a template change (`rollout`), or on a scale while an
 * earlier rollout is unfinished (`live.revisionsDiffer`): with a `partition` > 0 the revisions never
 * become equal, so pk fails at its timeout while the trace succeeds once the ordinals at or above
 * the partition run the new template; with `OnDelete` pk succeeds once the pods are Ready, still on
 * the previous template, while the trace fails it as `rollout-blocked`.
 */
export function providerAwaitDiffers(plan: PlannedDeployment, change: ChangeKind, live?: LiveDeployment): string | undefined {
  if (plan.kind !== 'StatefulSet' || plan.skipAwait || plan.waitFor !== undefined) return undefined;
  if (change !== 'rollout' && !(change === 'scale' && live?.revisionsDiffer)) return undefined;
  const s = plan.updateStrategy;
  const fix = 'annotate it `pulumi.com/skipAwait: "true"` and let the trace judge it, or use gate mode';
  if (s?.type === 'OnDelete') {
    return `the kubernetes provider's await will report this OnDelete StatefulSet ready once its pods are Ready, still on the previous template; the trace fails it as blocked until someone deletes them: ${fix}`;
  }
  if ((s?.partition ?? 0) > 0) {
    return `the kubernetes provider's await of this StatefulSet never ends: with partition ${s?.partition} its currentRevision never reaches updateRevision, so the provider fails at its timeout (10 min by default) while the trace succeeds once ordinals ${s?.partition} and above are updated: ${fix}, or set the partition to 0`;
  }
  return undefined;
}

/** The resource's `customTimeouts` (seconds), as the engine passes them to the provider. */
export interface CustomTimeouts {
  create?: number;
  update?: number;
}

/** A timeout and the words that name where it came from. */
export interface TimeoutChoice {
  seconds: number;
  source: string;
}

/**
 * The trace's timeout. rollout-trace's own `timeoutSeconds` option first, then the provider's
 * order (pk: metadata/overrides.go TimeoutDuration): the resource's `customTimeouts` (create for
 * a create or replacement, else update), then `pulumi.com/timeoutSeconds`, then 600 s.
 */
export function chooseTimeout(
  option: number | undefined,
  custom: CustomTimeouts | undefined,
  plan: PlannedDeployment,
  change: ChangeKind,
): TimeoutChoice {
  if (option !== undefined) return { seconds: option, source: 'the timeoutSeconds option of rollout-trace' };
  const creates = change === 'create' || change === 'replace';
  const customSeconds = creates ? custom?.create : custom?.update;
  if (customSeconds !== undefined && customSeconds > 0) {
    return { seconds: customSeconds, source: `the ${plan.kind}'s customTimeouts.${creates ? 'create' : 'update'}` };
  }
  if (plan.timeoutSeconds !== undefined) {
    return { seconds: plan.timeoutSeconds, source: `the ${plan.kind}'s pulumi.com/timeoutSeconds annotation` };
  }
  return { seconds: 600, source: "the default timeout (600s, the same as the kubernetes provider's await)" };
}

/** Parses a Pulumi custom timeout (`"5m"`, `"90s"`, `"1h30m"`) into seconds; undefined if unset or bad. */
export function durationSeconds(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|m|s)/g)];
  if (parts.map((p) => p[0]).join('') !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * { h: 3600, m: 60, s: 1 }[p[2] as 'h' | 'm' | 's'], 0);
}

/**
 * The gate's way to stop the provider's built-in await: `pulumi.com/waitFor` with a condition
 * that holds once the object is written and observed. Unlike `pulumi.com/skipAwait`, it keeps the
 * provider's delete wait (pk: metadata/overrides.go DeletedCondition skips it only for
 * skipAwait), so a replacement never creates the new object while the old one is terminating.
 * Needs pulumi-kubernetes >= 4.18.4 (waitFor takes precedence over the built-in await).
 */
export const GATE_WAIT_FOR = 'jsonpath={.metadata.name}';

/**
 * The annotations a gated Deployment gets: the user's `waitFor` or `skipAwait` win (they chose the
 * provider's wait); otherwise {@link GATE_WAIT_FOR}. An empty `waitFor` is none to pk
 * (metadata/overrides.go ReadyCondition L112-113), so it gets {@link GATE_WAIT_FOR} too.
 */
export function gateAnnotations(annotations: Record<string, unknown> | undefined): Record<string, unknown> {
  const a = annotations ?? {};
  if ((a[WAIT_FOR] !== undefined && a[WAIT_FOR] !== '') || a[SKIP_AWAIT] !== undefined) return a;
  return { ...a, [WAIT_FOR]: GATE_WAIT_FOR };
}

/**
 * Whether an event of the write's trace (observe mode: it follows only a generation newer than
 * the baseline's) shows that the provider's write changed the spec: any event about the object
 * it judges. `started`, `waiting` (still the baseline's generation) and `verdict` do not.
 */
export function showsWrite(event: { type: string; problem?: { class?: string } }): boolean {
  return event.type !== 'started' && event.type !== 'waiting' && event.type !== 'verdict' && !showsDelete(event);
}

/**
 * Whether an event of an observe-mode trace shows the followed object deleted while the provider
 * works: it is replacing it (delete, then create: the engine's `--replace`, `replaceOnChanges`,
 * or a cause the spec comparison cannot see), so the trace hands over to the new object.
 */
export function showsDelete(event: { type: string; problem?: { class?: string } }): boolean {
  return event.type === 'problem' && event.problem?.class === 'workload-deleted';
}
