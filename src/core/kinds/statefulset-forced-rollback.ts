/**
 * A StatefulSet's forced rollback (Kubernetes' docs, StatefulSet "Forced rollback"): under
 * `podManagementPolicy: OrderedReady` the controller handles its ordinals in order and stops at the
 * first pod that is not Running and Ready (`processReplica`, pkg/controller/statefulset/
 * stateful_set_control.go); it deletes a pod of another revision than `updateRevision` only after
 * every pod is Running and Ready. A pod of a template that never rolled out (the template was
 * rolled back or changed again) that never becomes Ready is therefore never replaced: a person
 * must delete it. `Parallel` does not stop at such a pod, and replaces it.
 */
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { classPolicyOf } from '../classifiers.js';
import { diagnosePodFindings, type Finding, probeBudgetSeconds } from '../diagnose/index.js';
import { canBecomeReady, isPodReady, podCondition, timeOf } from '../k8s.js';
import { kubeEventsAbout } from '../relations.js';
import type { RolloutState } from '../state.js';
import type { Problem, ProblemClass } from '../types.js';
import { CONTROLLER_REVISION_HASH_LABEL, workloadPods } from '../workloads.js';
import { observed } from './rule.js';

const DEFAULT_ORDERED = 'OrderedReady';

/**
 * True when the StatefulSet's pods are managed `OrderedReady` (the default): the controller creates
 * and replaces one ordinal at a time and waits for each to be Ready, so a pod that never becomes
 * Ready holds every later ordinal. `Parallel` does not change the success rule.
 */
export function isOrderedReady(sts: V1StatefulSet): boolean {
  return (sts.spec?.podManagementPolicy ?? DEFAULT_ORDERED) === DEFAULT_ORDERED;
}

/** The ordinal of a StatefulSet pod (`db-2` -> 2), or undefined. */
export function ordinalOf(sts: V1StatefulSet, pod: string): number | undefined {
  const prefix = `${sts.metadata?.name ?? ''}-`;
  if (!pod.startsWith(prefix)) return undefined;
  const n = Number(pod.slice(prefix.length));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The pods of `sts` the controller will wait for and never replace, by ordinal: under
 * OrderedReady and RollingUpdate, once the controller observed the latest generation, each live
 * pod at an ordinal from the partition up to `replicas` whose revision is neither `updateRevision`
 * nor `currentRevision` (a template that never rolled out and is no longer wanted) and that is not
 * Running and Ready. Whether it is failing, rather than starting, is {@link forcedRollbackFinding}'s.
 */
export function abandonedRevisionPods(sts: V1StatefulSet, pods: Iterable<V1Pod>): V1Pod[] {
  const strategy = sts.spec?.updateStrategy;
  if (!isOrderedReady(sts) || strategy?.type === 'OnDelete') return [];
  const status = sts.status;
  if (!observed(sts.metadata, status?.observedGeneration) || !status?.updateRevision) return [];
  const replicas = sts.spec?.replicas ?? 1;
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  const wanted = new Set([status.updateRevision, status.currentRevision ?? status.updateRevision]);
  const out: Array<{ ordinal: number; pod: V1Pod }> = [];
  for (const pod of pods) {
    const ordinal = ordinalOf(sts, pod.metadata?.name ?? '');
    if (ordinal === undefined || ordinal < partition || ordinal >= replicas || !canBecomeReady(pod)) continue;
    if (wanted.has(pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '')) continue;
    if (pod.status?.phase === 'Running' && isPodReady(pod)) continue;
    out.push({ ordinal, pod });
  }
  return out.sort((a, b) => a.ordinal - b.ordinal).map((o) => o.pod);
}

const CRASH_CLASSES = new Set<ProblemClass>(['crash-loop', 'oom-killed', 'init-container']);
/** The causes that say a pod will not become Ready by itself (a transient pull, a claim, a node may still recover). */
const CAUSE_CLASSES = new Set<ProblemClass>([
  ...CRASH_CLASSES,
  'image-pull-not-found',
  'config-error',
  'mount-failed',
  'unschedulable',
  'readiness-probe',
]);

/**
 * Whether the pod was not Ready at any moment of the crashed container's last run: its Ready
 * condition has been False since before that run started (both times are the kubelet's). A pod
 * Ready between crashes (no readiness probe) is replaced by the controller at its next run: it
 * sees it Running and Ready for that moment.
 */
function notReadyInLastRun(pod: V1Pod, f: Finding): boolean {
  const statuses = f.initContainer ? pod.status?.initContainerStatuses : pod.status?.containerStatuses;
  const cs = statuses?.find((c) => c.name === f.container);
  const started = timeOf((cs?.state?.terminated ?? cs?.lastState?.terminated)?.startedAt);
  const ready = podCondition(pod, 'Ready');
  const since = timeOf(ready?.lastTransitionTime);
  // Seconds on both: a transition in the second the run started may have been during it.
  return ready?.status !== 'True' && started !== undefined && since !== undefined && since < started;
}

/**
 * Whether `f`, a finding of `pod`, says the pod is failing as it would fail a pod of the current
 * template, and will not be Ready by itself: its class fails under the policy, a crash has
 * restarted `minRestarts` times (one crash followed by Ready never counts) and the pod was not
 * Ready during its last run, a readiness probe has failed past its own budget since the container
 * started, and no node is being added for an unschedulable pod.
 */
function failing(s: RolloutState, pod: V1Pod, f: Finding): boolean {
  if (!CAUSE_CLASSES.has(f.class)) return false;
  const knobs = classPolicyOf(s.policy, f.class);
  if (knobs.action !== 'fail') return false;
  if (CRASH_CLASSES.has(f.class)) return (f.restartCount ?? 0) >= (knobs.minRestarts ?? 0) && notReadyInLastRun(pod, f);
  if (f.class === 'unschedulable') return !f.autoscaling;
  if (f.class !== 'readiness-probe') return true;
  if (f.probe?.kind !== 'readiness') return false;
  const spec = pod.spec?.containers.find((c) => c.name === f.container);
  const started = timeOf(pod.status?.containerStatuses?.find((c) => c.name === f.container)?.state?.running?.startedAt);
  return started !== undefined && s.now - started >= probeBudgetSeconds(spec?.readinessProbe) * 1000;
}

/** The first failing cause of `pod`, by its own diagnosis. */
function causeOf(s: RolloutState, pod: V1Pod): Finding | undefined {
  const events = kubeEventsAbout(s, 'Pod', pod.metadata?.name ?? '');
  return diagnosePodFindings(pod, events, s.now).find((f) => failing(s, pod, f));
}

/** `delete pod db-2` (or `db-1 db-2`) in the namespace. */
function deleteCommand(s: RolloutState, pods: readonly string[]): string {
  return `kubectl -n ${s.target.namespace} delete pod ${pods.join(' ')}`;
}

/** The pods of {@link abandonedRevisionPods} that are failing, each with its cause, by ordinal. */
function stuckPods(s: RolloutState): Array<{ name: string; cause: Finding }> {
  const sts = s.workload as V1StatefulSet | undefined;
  if (!sts) return [];
  const out: Array<{ name: string; cause: Finding }> = [];
  for (const pod of abandonedRevisionPods(sts, workloadPods(s))) {
    const cause = causeOf(s, pod);
    if (cause) out.push({ name: pod.metadata?.name ?? '', cause });
  }
  return out;
}

/**
 * The traced StatefulSet's forced rollback, if any: a pod of a revision no longer wanted
 * ({@link abandonedRevisionPods}) that is failing by its own diagnosis (a crash loop past its
 * restarts, an image that does not exist, a missing ConfigMap...). One `forced-rollback` finding
 * of the StatefulSet naming the pods, the first one's cause and the `kubectl delete pod` to run.
 */
export function forcedRollbackFinding(s: RolloutState): Finding | undefined {
  const stuck = stuckPods(s);
  const first = stuck[0];
  if (!first) return undefined;
  const names = stuck.map((x) => x.name);
  const { cause } = first;
  const revisions = [...new Set(names.map((n) => s.pods.get(n)?.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? '?'))];
  const several = names.length > 1;
  const what = cause.container ? ` ${cause.initContainer ? 'init container' : 'container'} "${cause.container}"` : '';
  const explanation =
    `pod ${first.name}${what}: ${cause.explanation}; ${names.join(', ')} ${several ? 'run' : 'runs'} revision ${revisions.join(', ')}, ` +
    'a template the StatefulSet no longer has (rolled back or changed again), and under podManagementPolicy OrderedReady the ' +
    `controller replaces such a pod only once it is Running and Ready: nothing rolls out until someone deletes ${several ? 'them' : 'it'} ` +
    `(a forced rollback, in Kubernetes' words): \`${deleteCommand(s, names)}\``;
  return {
    class: 'forced-rollback',
    object: { kind: 'StatefulSet', name: s.target.name },
    reason: cause.reason,
    message: cause.message,
    explanation,
    ...(cause.exitCode !== undefined ? { exitCode: cause.exitCode } : {}),
    ...(cause.restartCount !== undefined ? { restartCount: cause.restartCount } : {}),
    ...(cause.terminationMessage ? { terminationMessage: cause.terminationMessage } : {}),
  };
}

/** A `forced-rollback` problem's hints: the delete first, then the stuck pod's logs and description, and the rollout. */
export function withForcedRollbackHints(s: RolloutState, p: Problem): Problem {
  if (p.class !== 'forced-rollback') return p;
  const stuck = stuckPods(s);
  const first = stuck[0];
  if (!first) return p;
  const ns = `kubectl -n ${s.target.namespace}`;
  const { container, restartCount } = first.cause;
  const logs = container ? [`${ns} logs ${first.name} -c ${container}${(restartCount ?? 0) > 0 ? ' --previous' : ''}`] : [];
  const hints = [
    deleteCommand(
      s,
      stuck.map((x) => x.name),
    ),
    ...logs,
    `${ns} describe pod ${first.name}`,
    `${ns} rollout status statefulset/${s.target.name}`,
  ];
  return { ...p, hints };
}
