/**
 * Failure policy: which problems fail a rollout, and after how long.
 *
 * Defaults aim at "permanent failures fail within ~15 s of their first signal, transient ones
 * never fail a healthy rollout":
 * - image-pull-not-found 10 s: krane fails a "not found" pull at once, but a CI pipeline may push
 *   the tag moments after applying; 10 s covers one kubelet retry (the first pull back-off is 10 s).
 * - image-pull-transient 120 s: registries throttle and networks blip (krane PR #477); only a
 *   pull that keeps failing for two minutes fails.
 * - crash-loop / oom-killed / init-container: 10 s and at least 2 restarts, so one crash followed
 *   by Ready never fails.
 * - config-error 10 s, mount-failed 12 s: they recover as soon as the ConfigMap/Secret is created,
 *   so a short window lets a slightly late `kubectl apply` win.
 * - unschedulable 10 s (5 min when the cluster-autoscaler reported a scale-up for the pod).
 * - pvc-pending 60 s (dynamic provisioning takes a while); storage-class-not-found 10 s, like an
 *   image that does not exist (nothing provisions the claim until someone creates the class);
 *   replica-failure 10 s: a refusal
 *   (quota, LimitRange, a denying webhook) stays until someone changes something. A create the API
 *   server itself failed (internal error, timeout, overload, an unreachable webhook; `transient`)
 *   gets at least 120 s, like a transient pull: the controller retries it, and the bench's
 *   2,000-pod rollout hit "resource quota evaluation timed out" for over 10 s and then completed.
 * - node-not-ready: 30 s after the pod would be evicted from the node (its NoExecute toleration of
 *   the not-ready/unreachable taint, 300 s by default): until then the node may come back or the
 *   pod be replaced, and the rollout succeed; a pod that tolerates the taint for ever, 30 s.
 * - readiness-probe: initialDelaySeconds + periodSeconds * failureThreshold of the probe, plus
 *   `afterSeconds` (10 s) of slack (kubedog's probe-derived window).
 * - progress-deadline and workload-deleted: immediately.
 * - pods-ended: immediately, once more than 1 replacement pod of the new ReplicaSet was evicted
 *   or rejected by its node's kubelet within 10 minutes (3 endings in a row for one replica): the
 *   pod does not fit where it is scheduled, and the controller would replace it for ever.
 *   `tolerate` counts the replacements that may end.
 * - paused 10 s: a Deployment paused (`spec.paused`) before its current template is rolled out
 *   never finishes on its own; 10 s lets a `kubectl rollout pause; set image; rollout resume`
 *   sequence finish. `warn` (or a long window) waits for a resume instead.
 * - rollout-blocked: immediately. A StatefulSet or DaemonSet with the OnDelete update strategy and
 *   pods of the previous template changes only when a person acts.
 * - forced-rollback 10 s: an OrderedReady StatefulSet's pod of a template no longer wanted (rolled
 *   back) that is failing by its own diagnosis, counted as for a current pod (a crash loop from its
 *   2nd restart, a readiness probe past its budget): the controller never replaces it, a person must
 *   delete it. 10 s, as a missing image's, lets a `kubectl delete pod` already on its way land.
 * - job-suspended: `warn`: a suspended Job (`spec.suspend`) waits to be admitted (Kueue and similar
 *   systems resume it), as the provider's own await waits; the overall timeout ends the wait, or
 *   a window of its own (`--fail-after job-suspended=600`).
 * - job-failed: immediately: the Job's `Failed` condition is final.
 * - job-pod-failed: `warn`: a Job pod that failed while the Job retries is reported; the Job's own
 *   `Failed` condition (its backoffLimit, activeDeadlineSeconds) decides.
 * - init-running: `warn`: an init container still running 30 s after it started may be waiting for
 *   something that never comes (`until nc -z db 5432`) or doing long work (a migration); it is
 *   reported with its log, and a window of its own (`--fail-after init-running=300`) fails it.
 * - readiness-gate: `warn`: a pod whose containers have been ready for 30 s but whose readiness
 *   gate (a load balancer controller's target health) is not True yet; registration and health
 *   checks take minutes on some load balancers, so it only fails on a window of its own.
 *
 * Settle: a new-revision pod that had a failing-class problem (or restarted after a crash) must
 * stay Ready for `settleSeconds` (5 s: the simulated and real crash loops that were briefly Ready
 * crashed again within 1-3 s) before the rollout may succeed.
 *
 * User classifiers (`policy.classifiers`, see `classifiers.ts`) add `custom:<name>` classes with
 * the same knobs (default: fail after 10 s, any pod).
 */
import { CUSTOM_PREFIX, classPolicyOf, isCustomClass, resolveClassifiers } from './classifiers.js';
import type { ClassPolicy, FailureClass, Policy, PolicyOverrides, Problem, ProblemClass, SuccessCriterion } from './types.js';
import { bad, checkKnobs, checkSeconds, show } from './validate.js';

/**
 * Former names of failure classes, still accepted where a user writes a class (policy overrides,
 * the CLI's policy flags): `deployment-deleted` is `workload-deleted` (deprecated).
 */
export const DEPRECATED_CLASS_NAMES: Readonly<Record<string, FailureClass>> = { 'deployment-deleted': 'workload-deleted' };

/** The failure class `name` names, a deprecated name included; undefined when it names none. */
export function failureClassNamed(name: string): FailureClass | undefined {
  if ((FAILURE_CLASSES as readonly string[]).includes(name)) return name as FailureClass;
  return DEPRECATED_CLASS_NAMES[name];
}

/** Every failure class, most severe first (also the order problems are reported in). */
export const FAILURE_CLASSES: readonly FailureClass[] = [
  'workload-deleted',
  'image-pull-not-found',
  'config-error',
  'mount-failed',
  'crash-loop',
  'oom-killed',
  'init-container',
  'replica-failure',
  'unschedulable',
  'node-not-ready',
  'pods-ended',
  'pvc-pending',
  'storage-class-not-found',
  'readiness-probe',
  'readiness-gate',
  'image-pull-transient',
  'init-running',
  'progress-deadline',
  'paused',
  'rollout-blocked',
  'forced-rollback',
  'job-failed',
  'job-pod-failed',
  'job-suspended',
];

/** Default {@link Policy.settleSeconds}. */
export const DEFAULT_SETTLE_SECONDS = 5;

/** Grace for an unschedulable pod the cluster-autoscaler is adding a node for. */
export const AUTOSCALER_GRACE_SECONDS = 300;

/** Least window of a `replica-failure` the API server caused (`transient`): the controller retries it. */
export const TRANSIENT_CREATE_GRACE_SECONDS = 120;

const CRASH_CLASSES = new Set<ProblemClass>(['crash-loop', 'oom-killed', 'init-container']);

/** The default policy (see the module comment for why each window is what it is). */
export function defaultPolicy(): Policy {
  const fail = (afterSeconds: number, extra: Partial<ClassPolicy> = {}): ClassPolicy => ({
    action: 'fail',
    afterSeconds,
    scope: 'any-pod',
    ...extra,
  });
  return {
    classes: {
      'image-pull-not-found': fail(10),
      'image-pull-transient': fail(120),
      'crash-loop': fail(10, { minRestarts: 2 }),
      'oom-killed': fail(10, { minRestarts: 2 }),
      'readiness-probe': fail(10),
      'config-error': fail(10),
      'mount-failed': fail(12),
      'init-container': fail(10, { minRestarts: 2 }),
      unschedulable: fail(10),
      'node-not-ready': fail(30),
      'pods-ended': fail(0, { tolerate: 1 }),
      'pvc-pending': fail(60),
      'storage-class-not-found': fail(10),
      'replica-failure': fail(10),
      'progress-deadline': fail(0),
      'workload-deleted': fail(0),
      paused: fail(10),
      'rollout-blocked': fail(0),
      'forced-rollback': fail(10),
      'job-failed': fail(0),
      'job-pod-failed': { action: 'warn', afterSeconds: 0, scope: 'any-pod' },
      'job-suspended': { action: 'warn', afterSeconds: 0, scope: 'any-pod' },
      'init-running': { action: 'warn', afterSeconds: 0, scope: 'any-pod' },
      'readiness-gate': { action: 'warn', afterSeconds: 0, scope: 'any-pod' },
    },
    success: { mode: 'full' },
    settleSeconds: DEFAULT_SETTLE_SECONDS,
  };
}

function validateSuccess(s: SuccessCriterion): void {
  const mode = (s as { mode?: unknown }).mode;
  if (mode === 'full' || mode === 'maxUnavailable') return;
  if (mode === 'percent') {
    const p = (s as { percent?: unknown }).percent;
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 1 || p > 100) {
      bad(`policy.success.percent is ${String(p)}; it must be a number from 1 to 100.`);
    }
    return;
  }
  if (mode === 'pods') {
    const n = (s as { pods?: unknown }).pods;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      bad(`policy.success.pods is ${show(n)}; it must be an integer >= 1 (ready pods of the new ReplicaSet, at most the desired count).`);
    }
    return;
  }
  bad(`policy.success.mode is ${show(mode)}; valid modes are "full" (Pulumi's predicate), "maxUnavailable", "percent" and "pods".`);
}

/**
 * Merges `overrides` over {@link defaultPolicy} after validating them.
 * @throws RolloutTraceError `bad-input` naming the bad value and the valid ones.
 */
export function resolvePolicy(overrides?: PolicyOverrides): Policy {
  const policy = defaultPolicy();
  if (overrides === undefined) return policy;
  if (overrides === null || typeof overrides !== 'object')
    bad(`policy is ${String(overrides)}; it must be an object like { classes: {...}, success: {...} }.`);
  for (const [name, o] of Object.entries(overrides.classes ?? {})) {
    if (name.startsWith(CUSTOM_PREFIX)) {
      bad(
        `policy.classes has "${name}", a custom class; set action, afterSeconds and scope on the classifier itself ` +
          `(policy.classifiers: [{ name: "${name.slice(CUSTOM_PREFIX.length)}", classify, action, afterSeconds, scope }]).`,
      );
    }
    const cls = failureClassNamed(name);
    if (!cls) {
      bad(`policy.classes has an unknown failure class "${name}"; valid classes are ${FAILURE_CLASSES.map((c) => `"${c}"`).join(', ')}.`);
    }
    if (o === undefined) continue;
    checkKnobs(`policy.classes["${name}"]`, o);
    policy.classes[cls] = { ...policy.classes[cls], ...o };
  }
  if (overrides.success !== undefined) {
    validateSuccess(overrides.success);
    policy.success = { ...overrides.success };
  }
  if (overrides.settleSeconds !== undefined) {
    checkSeconds(overrides.settleSeconds, 'policy.settleSeconds');
    policy.settleSeconds = overrides.settleSeconds;
  }
  if (overrides.classifiers !== undefined) {
    const classifiers = resolveClassifiers(overrides.classifiers, FAILURE_CLASSES);
    if (classifiers.length > 0) policy.classifiers = classifiers;
  }
  return policy;
}

/** Extra timing facts the reducer knows about a problem. */
export interface DeadlineContext {
  /** Readiness problems: the probe's own budget in seconds. */
  probeBudgetSeconds?: number;
  /** Readiness problems: when the container was first seen running but not ready (ms). */
  notReadySince?: number;
}

/**
 * When `problem` will fail the rollout under `policy` (ms), or undefined if it never will
 * (action `warn`/`ignore`, or a crash class that has not restarted `minRestarts` times yet).
 */
export function failDeadline(problem: Problem, policy: Policy, ctx: DeadlineContext = {}): number | undefined {
  const cls = classPolicyOf(policy, problem.class);
  if (cls.action !== 'fail') return undefined;
  const counted = isCustomClass(problem.class) || CRASH_CLASSES.has(problem.class);
  if (counted && (problem.restartCount ?? 0) < (cls.minRestarts ?? 0)) return undefined;
  let seconds = cls.afterSeconds;
  let start = problem.firstSeen;
  if (problem.class === 'unschedulable' && problem.autoscaling) seconds = Math.max(seconds, AUTOSCALER_GRACE_SECONDS);
  if (problem.class === 'replica-failure' && problem.transient) seconds = Math.max(seconds, TRANSIENT_CREATE_GRACE_SECONDS);
  if (problem.class === 'node-not-ready') seconds += problem.node?.evictionSeconds ?? 0;
  if (problem.class === 'readiness-probe') {
    seconds += ctx.probeBudgetSeconds ?? 0;
    start = Math.min(start, ctx.notReadySince ?? start);
  }
  // A quota refusal while pods that hold the quota terminate: until the controller's retry after they are gone.
  return Math.max(start + seconds * 1000, problem.retryBy ?? 0);
}

/**
 * Severity rank of a class. Custom classes come right after `workload-deleted`: a rule the user
 * wrote for their own app is the most specific explanation of what went wrong.
 */
function severity(cls: ProblemClass): number {
  return isCustomClass(cls) ? 0.5 : FAILURE_CLASSES.indexOf(cls);
}

/** Sort key: class severity, then first seen. */
export function compareProblems(a: Problem, b: Problem): number {
  const d = severity(a.class) - severity(b.class);
  return d !== 0 ? d : a.firstSeen - b.firstSeen || (a.id < b.id ? -1 : 1);
}
