/**
 * The tracker's decisions, apart from its I/O (like src/core, and like kstatus computing status
 * apart from its polling engine): when a verdict the core reached is held back, which verdict is
 * published and whether log tails are added to it; when a missing Deployment is still awaited and
 * when it becomes an error, in which words; when the no-progress deadline may fire; when the next
 * tick comes. No I/O, no clock, no timers: time comes in as arguments. The tracker (rollout-tracker.ts)
 * feeds these and does what they say.
 * Tested from tables (test/unit/track/decisions.test.ts).
 *
 * A missing Deployment: the core emits one `waiting` event (`not-found`) once the initial lists
 * are synced, and every sink prints it; the Deployment may still be created during the not-found
 * grace. Only when the grace runs out with no Deployment seen does tracking fail with
 * `workload-not-found` ({@link notFoundError}).
 */
import type { Observation, Verdict, WorkloadKind } from '../core/index.js';
import { WORKLOAD_KINDS } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';

/** A verdict and when the core reached it: it is published with that time, whenever that is. */
export interface TimedVerdict {
  verdict: Verdict;
  at: number;
}

/** What the tracker knows between observations, apart from the core's state. */
export interface Gate {
  /** The source delivered `synced`: the initial lists are complete, a refused watch would have surfaced. */
  readonly synced: boolean;
  /** A Deployment upsert was seen. */
  readonly present: boolean;
  /** A verdict the core reached before `synced`, not published yet (the core's state is final). */
  readonly held?: TimedVerdict;
}

/** The gate before any observation. */
export const INITIAL_GATE: Gate = { synced: false, present: false };

/** What the tracker does with one observation before the core sees it. */
export interface Admission {
  gate: Gate;
  /** Publish this held verdict now, and do not feed the core (it has nothing more to say). */
  release?: TimedVerdict;
  /**
   * The not-found grace timer: `start` when the synced lists show no Deployment, `cancel` when
   * the Deployment appears.
   */
  grace?: 'start' | 'cancel';
}

/**
 * Admits one observation: records `synced` and the Deployment's presence, releases a held
 * verdict, starts or cancels the not-found grace.
 *
 * A held verdict is released by `synced` (no list or watch was refused after all), and by the
 * tracker's `timeout` or `cancel`: the verdict the core reached first is published, with its own
 * time, not a timed-out or cancelled one.
 */
export function admit(gate: Gate, obs: Observation): Admission {
  // The source delivers only the traced workload of its kind (a Deployment, StatefulSet, DaemonSet or Job).
  const appeared = obs.type === 'upsert' && WORKLOAD_KINDS.includes(obs.kind as WorkloadKind) && !gate.present;
  const next: Gate = { ...gate, synced: gate.synced || obs.type === 'synced', present: gate.present || appeared };
  if (gate.held && (obs.type === 'synced' || obs.type === 'timeout' || obs.type === 'cancel')) {
    const { held: release, ...rest } = next;
    return { gate: rest, release };
  }
  if (appeared) return { gate: next, grace: 'cancel' };
  if (obs.type === 'synced' && !next.present) return { gate: next, grace: 'start' };
  return { gate: next };
}

/**
 * The core reached `verdict` on `obs` (already admitted): publish it, or hold it. Before `synced`,
 * a list or watch may still be refused: the verdict is held so that permission errors are
 * reported deterministically rather than racing a quick success. A timeout or a cancel is never
 * held (nothing would release it).
 */
export function onVerdict(gate: Gate, obs: Observation, verdict: TimedVerdict): { gate: Gate; publish?: TimedVerdict } {
  const early = !gate.synced && obs.type !== 'timeout' && obs.type !== 'cancel';
  return early ? { gate: { ...gate, held: verdict } } : { gate, publish: verdict };
}

/**
 * Whether a verdict about to be published gets its problem pods' log tails first (when logs are
 * on): only a failed or timed-out one that names problems.
 */
export function wantsLogTails(verdict: Verdict): boolean {
  return (verdict.outcome === 'failed' || verdict.outcome === 'timed-out') && verdict.problems.length > 0;
}

/**
 * Whether the followed log streams must be re-targeted after `obs` (admitted): once synced, on
 * `synced` and on every object change but Events (which cannot change which containers run).
 */
export function refreshesLogTargets(gate: Gate, obs: Observation): boolean {
  return gate.synced && (obs.type === 'synced' || (obs.type === 'upsert' && obs.kind !== 'Event'));
}

/**
 * Whether the no-progress deadline may fire: not while the Deployment is missing, which is the
 * not-found grace's business (the watchdog starts a new window instead).
 */
export function noProgressMayFire(gate: Gate): boolean {
  return gate.present;
}

/** What the not-found error names. */
export interface NotFoundFacts {
  name: string;
  namespace: string;
  /** The cluster, as `describeTarget` words it. */
  target: string;
  graceSeconds: number;
  /** Names of the workloads of {@link kind} the source has in the namespace (any order; empty ones are skipped). */
  deployments: readonly string[];
  /** The traced workload's kind (default Deployment). */
  kind: WorkloadKind;
}

/** How many other Deployments the not-found error lists by name. */
export const LISTED_DEPLOYMENTS = 8;

/** The not-found error's paragraph: the name, namespace, cluster, grace, and what is there instead. */
export function notFoundMessage(f: NotFoundFacts): string {
  const { kind } = f;
  const others = f.deployments.filter(Boolean).sort();
  const more = others.length > LISTED_DEPLOYMENTS ? `, and ${others.length - LISTED_DEPLOYMENTS} more` : '';
  const listed = others.length
    ? `${kind}s in "${f.namespace}": ${others
        .slice(0, LISTED_DEPLOYMENTS)
        .map((n) => `"${n}"`)
        .join(', ')}${more}.`
    : `Namespace "${f.namespace}" has no ${kind}s.`;
  return (
    `${kind} "${f.name}" was not found in namespace "${f.namespace}" of ${f.target} ` +
    `within ${f.graceSeconds} s. ${listed} Check the name and namespace.`
  );
}

/**
 * The not-found grace ran out: the `workload-not-found` error, or undefined when the Deployment
 * appeared meanwhile (tracking goes on).
 */
export function notFoundError(gate: Gate, facts: NotFoundFacts): RolloutTraceError | undefined {
  return gate.present ? undefined : new RolloutTraceError('workload-not-found', notFoundMessage(facts));
}

/**
 * Milliseconds until the next tick: `periodMs`, or just after the earliest problem deadline
 * (`failsAt`, ms since the epoch) still to come, so that a policy window ends on time. `now` is
 * the current time.
 */
export function tickDelay(now: number, periodMs: number, deadlines: Iterable<number>): number {
  let delay = periodMs;
  for (const at of deadlines) if (at >= now) delay = Math.min(delay, at - now + 1);
  return Math.max(0, delay);
}

/** What tracking rejects with: a {@link RolloutTraceError} as is, anything else as `cluster-unreachable`. */
export function trackingError(err: unknown): RolloutTraceError {
  if (err instanceof RolloutTraceError) return err;
  return new RolloutTraceError('cluster-unreachable', `Tracking failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}

/** The `cancelled` verdict's reason for an abort signal's `reason`. */
export function abortReason(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.name === 'AbortError' ? 'aborted' : reason.message;
  return String(reason);
}
