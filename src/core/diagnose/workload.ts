/** Diagnosis of the Deployment, its ReplicaSets and its PVCs. */
import type { CoreV1Event, V1Deployment, V1PersistentVolumeClaim, V1ReplicaSet } from '@kubernetes/client-node';
import { deploymentCondition, replicaSetCondition } from '../k8s.js';
import type { Finding } from './container.js';
import { latestEvent } from './events.js';

/** ReplicaFailure condition / FailedCreate events: pods cannot even be created (quota, admission...). */
export function diagnoseReplicaSet(rs: V1ReplicaSet, events: CoreV1Event[]): Finding | undefined {
  const cond = replicaSetCondition(rs, 'ReplicaFailure');
  const failedCreate = latestEvent(events, (e) => e.reason === 'FailedCreate' && e.type === 'Warning');
  const active = cond?.status === 'True';
  if (!active && !failedCreate) return undefined;
  // An old FailedCreate event with the RS now complete is history, not a problem.
  const ready = (rs.status?.replicas ?? 0) >= (rs.spec?.replicas ?? 1);
  if (!active && ready) return undefined;
  const message = ((failedCreate?.message || cond?.message) ?? '').replace(/^\(combined from similar events\): /, '');
  return {
    class: 'replica-failure',
    object: { kind: 'ReplicaSet', name: rs.metadata?.name ?? '' },
    reason: active ? (cond?.reason ?? 'FailedCreate') : 'FailedCreate',
    message,
    explanation: `pods cannot be created: ${message}`,
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
  return {
    class: 'replica-failure',
    object: { kind: 'Deployment', name },
    reason: cond.reason ?? 'ReplicaSetCreateError',
    message: cond.message ?? '',
    explanation: `the new ReplicaSet cannot be created: ${cond.message ?? ''}`,
  };
}

/** A referenced PVC that is not Bound. */
export function diagnosePvc(pvc: V1PersistentVolumeClaim, events: CoreV1Event[]): Finding | undefined {
  const phase = pvc.status?.phase ?? 'Pending';
  if (phase === 'Bound') return undefined;
  const why = latestEvent(events, () => true);
  const message = why?.message ?? `status.phase is ${phase}`;
  return {
    class: 'pvc-pending',
    object: { kind: 'PersistentVolumeClaim', name: pvc.metadata?.name ?? '' },
    reason: why?.reason ?? phase,
    message,
    explanation: `PersistentVolumeClaim "${pvc.metadata?.name ?? ''}" is ${phase}${why ? `: ${message}` : ''}`,
  };
}
