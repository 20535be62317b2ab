/**
 * A typed error for rollouts that did not succeed, for scripts and programs that prefer `try`/`catch`
 * to inspecting verdicts: `assertSucceeded(await trackRollout(opts).verdict)`.
 */
import type { NamespacedName, Problem, ProblemClass, Verdict, WorkloadKind } from '../core/index.js';
import { workloadOf } from '../core/index.js';
import { causeFirst, formatVerdict, outcomeLabel } from './format-verdict.js';

/**
 * Why one workload did not roll out: its verdict's main problem, flattened. For a failed Job that is
 * the pod that says why (its class, pod, container and reason), as the verdict's summary reads; the
 * Job's own condition stays in the verdict's problems.
 */
export interface RolloutFailure {
  /** Namespace and name of the workload (a Deployment unless {@link RolloutFailure.kind} says otherwise). */
  deployment: NamespacedName;
  /** The workload's kind, when not a Deployment. */
  kind?: WorkloadKind;
  outcome: Exclude<Verdict['outcome'], 'succeeded'>;
  /** The verdict's one-line summary. */
  summary: string;
  /** The main problem's class; absent for a timeout or cancel with no problem diagnosed. */
  class?: ProblemClass;
  /** The object the main problem is about (namespace is the Deployment's). */
  resource?: { kind: Problem['object']['kind']; namespace: string; name: string };
  /** Set when the main problem is about a pod. */
  pod?: string;
  container?: string;
  /** Raw Kubernetes reason (`ErrImagePull`, `FailedCreate`...), absent with no problem. */
  reason?: string;
  /** The cause in plain words. */
  explanation?: string;
  /** The first copy-paste kubectl command to dig further. */
  hint?: string;
}

// failed beats timed-out beats cancelled, as for the CLI's exit code.
const SEVERITY: Record<RolloutFailure['outcome'], number> = { failed: 0, 'timed-out': 1, cancelled: 2 };

/**
 * The verdict's main problem as a {@link RolloutFailure} (call it for a verdict that did not
 * succeed): its first problem, or for a failed Job the failing pod's.
 */
export function rolloutFailureOf(v: Verdict): RolloutFailure {
  const outcome = v.outcome as RolloutFailure['outcome'];
  const p = causeFirst(v.problems, (x) => x)[0];
  const hint = p?.hints[0] ?? v.hints[0];
  const base: RolloutFailure = {
    deployment: v.deployment,
    ...(v.kind !== undefined ? { kind: v.kind } : {}),
    outcome,
    summary: v.summary,
    ...(hint !== undefined ? { hint } : {}),
  };
  if (!p) return base;
  return {
    ...base,
    class: p.class,
    resource: { kind: p.object.kind, namespace: v.deployment.namespace, name: p.object.name },
    ...(p.object.kind === 'Pod' ? { pod: p.object.name } : {}),
    ...(p.container !== undefined ? { container: p.container } : {}),
    reason: p.reason,
    explanation: p.explanation,
  };
}

/**
 * Thrown by {@link assertSucceeded} when at least one rollout did not succeed. `message` is the
 * full krane-style summary of each such rollout (no colours); the fields describe the worst one
 * (failed before timed out before cancelled), `failures` every one.
 */
export class RolloutFailedError extends Error {
  /** Every rollout that did not succeed, worst first. */
  readonly failures: RolloutFailure[];
  /** Their verdicts, in the same order. */
  readonly verdicts: Verdict[];
  readonly outcome: RolloutFailure['outcome'];
  readonly deployment: NamespacedName;
  readonly class: ProblemClass | undefined;
  readonly resource: RolloutFailure['resource'];
  readonly pod: string | undefined;
  readonly container: string | undefined;
  readonly reason: string | undefined;
  readonly hint: string | undefined;

  constructor(verdicts: Verdict[]) {
    const sorted = verdicts.filter((v) => v.outcome !== 'succeeded');
    sorted.sort((a, b) => SEVERITY[a.outcome as RolloutFailure['outcome']] - SEVERITY[b.outcome as RolloutFailure['outcome']]);
    if (sorted.length === 0) throw new TypeError('RolloutFailedError needs at least one verdict that did not succeed');
    super(sorted.map((v) => formatVerdict(v, { color: false, symbol: false })).join('\n\n'));
    this.name = 'RolloutFailedError';
    this.verdicts = sorted;
    this.failures = sorted.map(rolloutFailureOf);
    const worst = this.failures[0]!;
    this.outcome = worst.outcome;
    this.deployment = worst.deployment;
    this.class = worst.class;
    this.resource = worst.resource;
    this.pod = worst.pod;
    this.container = worst.container;
    this.reason = worst.reason;
    this.hint = worst.hint;
  }

  /** One line: `Deployment ns/name FAILED - <summary>` for the worst rollout. */
  get headline(): string {
    const v = this.verdicts[0]!;
    const w = workloadOf(v);
    return `${w.kind} ${w.namespace}/${w.name} ${outcomeLabel(v)} - ${v.summary}`;
  }
}

/** True when `err` is a {@link RolloutFailedError}. */
export function isRolloutFailedError(err: unknown): err is RolloutFailedError {
  return err instanceof RolloutFailedError;
}

/**
 * Returns when every verdict succeeded; throws a {@link RolloutFailedError} otherwise.
 *
 * @example
 * ```ts
 * const t = trackRollout({ name: 'web', namespace: 'prod' });
 * try {
 *   assertSucceeded(await t.verdict);
 * } catch (err) {
 *   if (!isRolloutFailedError(err)) throw err;
 *   console.error(err.message);              // the krane-style summary
 *   console.error(err.class, err.pod, err.container, err.reason, err.hint);
 *   process.exitCode = err.outcome === 'failed' ? 1 : 70;
 * }
 * ```
 */
export function assertSucceeded(verdicts: Verdict | readonly Verdict[]): void {
  const list = Array.isArray(verdicts) ? [...(verdicts as readonly Verdict[])] : [verdicts as Verdict];
  if (list.some((v) => v.outcome !== 'succeeded')) throw new RolloutFailedError(list);
}
