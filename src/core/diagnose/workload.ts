/** Diagnosis of the Deployment, its ReplicaSets, its PVCs, and the pod creates the other kinds report. */
import type { CoreV1Event, V1Deployment, V1PersistentVolumeClaim, V1ReplicaSet } from '@kubernetes/client-node';
import { deploymentCondition, eventTime, replicaSetCondition, timeOf } from '../k8s.js';
import { rolloutGap } from '../rolled-out.js';
import type { Finding } from './container.js';
import { latestEvent } from './events.js';

/**
 * A create the API server failed for a reason of its own, which the controller's retry may get
 * past: the messages apimachinery's errors.go gives the InternalError, ServerTimeout, Timeout,
 * TooManyRequests, ServiceUnavailable and Conflict statuses, etcd's own timeouts, an admission
 * webhook that could not be called, a new namespace's "default" ServiceAccount (or its token)
 * not created yet, and a name still taken (a StatefulSet's pod or claim created again before the
 * old one is gone from the controller's cache). The bench's 2,000-pod rollouts met the first two.
 */
const TRANSIENT_CREATE_ERROR = new RegExp(
  [
    'Internal error occurred', // InternalError
    'could not be completed at this time', // ServerTimeout: "The POST operation against Pod could not ..."
    'please try again',
    'timed out',
    'Timeout: ', // Timeout
    'unable to return a response', // 504
    'server is currently unable', // ServiceUnavailable
    'too many requests', // TooManyRequests, 429
    'Operation cannot be fulfilled', // Conflict
    'etcdserver: ',
    'rpc error: code = Unavailable',
    'context deadline exceeded',
    'connection refused',
    'i/o timeout',
    'failed calling webhook',
    'error looking up service account',
    'No API token found for service account',
    'already exists', // AlreadyExists
  ]
    .map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|'),
  'i',
);
/** A refusal stays until someone changes something, whatever else the message says. */
const REFUSAL = /denied the request|exceeded quota/i;

/** True when a FailedCreate / ReplicaFailure message is a server-side failure the controller retries. */
export function isTransientCreateError(message: string): boolean {
  return TRANSIENT_CREATE_ERROR.test(message) && !REFUSAL.test(message);
}

/** A quota's refusal of a create, as the API server words it. */
export const QUOTA_REFUSAL = /exceeded quota/;

/**
 * Why a failed create will pass on the controller's retry without anyone acting, if it will: the
 * API server failed it ({@link isTransientCreateError}), or a quota refused it while pods are
 * terminating, which still count against it and free it as they go (a rolling update's surge pod
 * waits for an old one under a quota sized for the replicas; another workload's old pods). Such a
 * `replica-failure` is `transient`: at least 120 s, and stays so (problems.ts) once the pods are
 * gone, until the controller's next retry. `refusedSince`: when the refusals began (ms).
 */
function retryPasses(
  message: string,
  refusedSince: number | undefined,
  terminatingUntil: (() => number | undefined) | undefined,
): Retry | undefined {
  if (isTransientCreateError(message)) return { why: 'the API server failed the request; the controller retries it' };
  const freedBy = QUOTA_REFUSAL.test(message) ? terminatingUntil?.() : undefined;
  if (freedBy === undefined) return undefined;
  return {
    why: 'terminating pods still count against the quota and free it as they go; the controller retries it',
    retryBy: quotaRetryBy(refusedSince ?? freedBy, freedBy),
  };
}

/** The longest delay between a controller's retries (client-go's default controller rate limiter). */
const MAX_RETRY_DELAY_MS = 1_000_000;
/** Time for a pod's removal after its grace period, and for the quota's recount. */
const QUOTA_RETRY_MARGIN_MS = 30_000;

/**
 * When a create a quota refused is retried at the latest once the pods that hold the quota are
 * gone (due at `freedBy`, the latest of their `deletionTimestamp`s: the deletion plus the grace
 * period). The controller retries a failed create after a delay that doubles (5 ms, 10 ms, ...,
 * up to 1,000 s: client-go's default controller rate limiter), so its next retry comes at most as
 * long after the quota frees as the refusals had lasted by then.
 */
function quotaRetryBy(refusedSince: number, freedBy: number): number {
  return freedBy + Math.min(Math.max(0, freedBy - refusedSince), MAX_RETRY_DELAY_MS) + QUOTA_RETRY_MARGIN_MS;
}

/** A create the controller's retry will pass: why, and (a quota) by when that retry is due. */
interface Retry {
  why: string;
  retryBy?: number;
}

/** The fields of a retried create's finding. */
function retried(retry: Retry | undefined): Pick<Finding, 'transient' | 'retryBy'> {
  if (!retry) return {};
  return retry.retryBy === undefined ? { transient: true } : { transient: true, retryBy: retry.retryBy };
}

/** When a FailedCreate Event's refusals began (ms): its first occurrence, if it says. */
function firstOccurrence(e: CoreV1Event | undefined): number | undefined {
  return e && (timeOf(e.firstTimestamp) ?? timeOf(e.eventTime));
}

/**
 * ReplicaFailure condition / FailedCreate events: pods cannot even be created (quota, admission...).
 * `terminatingUntil`: when the Deployment's terminating pods are due to be gone, if any (they
 * still count against a quota).
 */
export function diagnoseReplicaSet(
  rs: V1ReplicaSet,
  events: CoreV1Event[],
  terminatingUntil?: () => number | undefined,
): Finding | undefined {
  const cond = replicaSetCondition(rs, 'ReplicaFailure');
  const failedCreate = latestEvent(events, (e) => e.reason === 'FailedCreate' && e.type === 'Warning');
  const active = cond?.status === 'True';
  if (!active && !failedCreate) return undefined;
  // An old FailedCreate event with the RS now complete is history, not a problem.
  const ready = (rs.status?.replicas ?? 0) >= (rs.spec?.replicas ?? 1);
  if (!active && ready) return undefined;
  const message = ((failedCreate?.message || cond?.message) ?? '').replace(/^\(combined from similar events\): /, '');
  const retry = retryPasses(message, firstOccurrence(failedCreate) ?? timeOf(cond?.lastTransitionTime), terminatingUntil);
  return {
    class: 'replica-failure',
    object: { kind: 'ReplicaSet', name: rs.metadata?.name ?? '' },
    reason: active ? (cond?.reason ?? 'FailedCreate') : 'FailedCreate',
    message,
    explanation: retry ? `pods cannot be created yet (${retry.why}): ${message}` : `pods cannot be created: ${message}`,
    ...retried(retry),
  };
}

/** How the StatefulSet controller words a failed create: `create Pod db-1 in StatefulSet db failed error: ...`. */
const STS_CREATE = /^create (Pod|Claim) (\S+) (?:for Pod \S+ )?in StatefulSet \S+ failed error: ([\s\S]*)$/;
/** How the DaemonSet and Job controllers word it (controller_utils.go: `Error creating: ...`). */
const POD_CONTROL_CREATE = /^Error creating: ([\s\S]*)$/;

/**
 * A StatefulSet's, DaemonSet's or Job's FailedCreate Events (their controllers create the pods
 * and report on the workload, with no condition): current when newer than its last
 * SuccessfulCreate (the caller checks the controller still lacks pods). Refusals (quota,
 * LimitRange, Pod Security admission, a webhook that denies) and the API server's own failures
 * (`transient`), as for a ReplicaSet.
 */
export function diagnoseWorkloadCreates(
  object: Finding['object'],
  events: CoreV1Event[],
  terminatingUntil?: () => number | undefined,
): Finding | undefined {
  const failed = latestEvent(events, (e) => e.reason === 'FailedCreate' && e.type === 'Warning');
  if (!failed) return undefined;
  const created = latestEvent(events, (e) => e.reason === 'SuccessfulCreate');
  if (created && eventTime(created) > eventTime(failed)) return undefined;
  const raw = (failed.message ?? '').replace(/^\(combined from similar events\): /, '');
  const sts = STS_CREATE.exec(raw);
  const message = sts ? sts[3]! : (POD_CONTROL_CREATE.exec(raw)?.[1] ?? raw);
  const what = sts ? `${sts[1] === 'Pod' ? 'pod' : 'claim'} ${sts[2]} cannot be created` : 'pods cannot be created';
  const retry = retryPasses(message, firstOccurrence(failed), terminatingUntil);
  return {
    class: 'replica-failure',
    object,
    reason: 'FailedCreate',
    message,
    explanation: `${what}${retry ? ` yet (${retry.why})` : ''}: ${message}`,
    ...retried(retry),
  };
}

/** Progressing=False: ProgressDeadlineExceeded or ReplicaSetCreateError. */
export function diagnoseDeployment(d: V1Deployment): Finding | undefined {
  const cond = deploymentCondition(d, 'Progressing');
  if (cond?.status !== 'False') return undefined;
  const name = d.metadata?.name ?? '';
  if (cond.reason === 'ProgressDeadlineExceeded') {
    return {
      class: 'progress-deadline',
      object: { kind: 'Deployment', name },
      reason: cond.reason,
      message: cond.message ?? '',
      explanation: `the rollout made no progress for progressDeadlineSeconds (${d.spec?.progressDeadlineSeconds ?? 600}s): ${cond.message ?? ''}`,
    };
  }
  const transient = isTransientCreateError(cond.message ?? '');
  return {
    class: 'replica-failure',
    object: { kind: 'Deployment', name },
    reason: cond.reason ?? 'ReplicaSetCreateError',
    message: cond.message ?? '',
    explanation: `the new ReplicaSet cannot be created${transient ? ' yet (the API server failed the request; the Deployment controller retries it)' : ''}: ${cond.message ?? ''}`,
    ...(transient ? { transient: true } : {}),
  };
}

/**
 * `spec.paused=true` while the current template is not rolled out: the controller rolls nothing
 * out until the Deployment is resumed. A paused Deployment whose template is rolled out is no
 * problem (kubectl's rollout status succeeds on it too); nor is one whose pause the controller has
 * not observed yet.
 */
export function diagnosePaused(d: V1Deployment): Finding | undefined {
  if (d.spec?.paused !== true) return undefined;
  if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) return undefined;
  const gap = rolloutGap(d, 'complete');
  if (gap === undefined) return undefined;
  const name = d.metadata?.name ?? '';
  const cond = deploymentCondition(d, 'Progressing');
  return {
    class: 'paused',
    object: { kind: 'Deployment', name },
    reason: 'DeploymentPaused',
    message: cond?.reason === 'DeploymentPaused' ? (cond.message ?? '') : 'Deployment is paused',
    explanation:
      `the Deployment is paused (spec.paused=true) before its current template is rolled out: ${gap}; ` +
      `nothing more rolls out until \`kubectl rollout resume deployment/${name} -n ${d.metadata?.namespace ?? 'default'}\``,
  };
}

/** ` (StorageClass "fast")` when the claim names one. */
function storageClassWords(pvc: V1PersistentVolumeClaim): string {
  const sc = pvc.spec?.storageClassName;
  return sc ? ` (StorageClass "${sc}")` : '';
}

/** A referenced PVC that is not Bound (its StorageClass named, and the latest Event's message: the provisioner's). */
export function diagnosePvc(pvc: V1PersistentVolumeClaim, events: CoreV1Event[]): Finding | undefined {
  const phase = pvc.status?.phase ?? 'Pending';
  if (phase === 'Bound') return undefined;
  // The provisioner's failure (a Warning, e.g. ProvisioningFailed) says more than its later "waiting" Normal Events.
  const why = latestEvent(events, (e) => e.type === 'Warning') ?? latestEvent(events, () => true);
  const message = why?.message ?? `status.phase is ${phase}`;
  const sc = pvc.spec?.storageClassName;
  // The PV controller's own words for a class that does not exist: nothing will provision it until
  // someone creates that StorageClass, as final as an image that does not exist.
  if (sc && why?.reason === 'ProvisioningFailed' && message.includes(`storageclass.storage.k8s.io "${sc}" not found`)) {
    return {
      class: 'storage-class-not-found',
      object: { kind: 'PersistentVolumeClaim', name: pvc.metadata?.name ?? '' },
      reason: why.reason,
      message,
      explanation: `PersistentVolumeClaim "${pvc.metadata?.name ?? ''}" asks for StorageClass "${sc}", which does not exist in the cluster (kubectl get storageclass lists those that do)`,
    };
  }
  return {
    class: 'pvc-pending',
    object: { kind: 'PersistentVolumeClaim', name: pvc.metadata?.name ?? '' },
    reason: why?.reason ?? phase,
    message,
    explanation: `PersistentVolumeClaim "${pvc.metadata?.name ?? ''}"${storageClassWords(pvc)} is ${phase}${why ? `: ${message}` : ''}`,
  };
}
