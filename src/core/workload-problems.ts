/**
 * The problems of the traced workload object itself, read from its kind's rule: a rollout nobody
 * will finish (`rollout-blocked`), a failed Job (`job-failed`), a suspended Job waiting to be
 * admitted (`job-suspended`), pods its controller cannot create (`replica-failure`, from its
 * FailedCreate Events), and what its module finds only a person can clear (`stuckFinding`: a
 * StatefulSet's `forced-rollback`). What only a kind's pods have is its module's (kinds/).
 */
import type { Finding } from './diagnose/index.js';
import { diagnoseWorkloadCreates } from './diagnose/workload.js';
import { moduleOf } from './kinds/index.js';
import { jobCounts } from './kinds/job.js';
import { kubeEventsAbout } from './relations.js';
import type { RolloutState } from './state.js';
import { kindOf, terminatingUntil } from './workloads.js';

/** The traced workload's own findings: blocked, (a Job) failed or suspended, or pods it cannot create. */
export function workloadFindings(state: RolloutState): Finding[] {
  const module = moduleOf(state);
  const rule = module.rule(state);
  if (!rule) return [];
  const object = { kind: kindOf(state), name: state.target.name };
  if (rule.state === 'blocked') {
    return [{ class: 'rollout-blocked', object, reason: rule.reason, message: rule.message, explanation: rule.message }];
  }
  if (rule.reason === 'Suspended') return [suspendedFinding(state, object, rule.message)];
  if (rule.state === 'progressing') {
    // The Events first: the pods are counted only when a create failed.
    const created = diagnoseWorkloadCreates(object, kubeEventsAbout(state, object.kind, object.name), () => terminatingUntil(state));
    const stuck = module.stuckFinding?.(state);
    return [...(created && module.podsShort?.(state) ? [created] : []), ...(stuck ? [stuck] : [])];
  }
  if (rule.state !== 'failed') return [];
  const counts = 'parallelism' in rule.progress ? jobCounts(rule.progress) : '';
  return [
    {
      class: 'job-failed',
      object,
      reason: rule.reason,
      message: rule.message,
      explanation: `job failed (${rule.reason}): ${rule.message}${counts ? `; ${counts}` : ''}`,
    },
  ];
}

/** Reasons of the Job controller's own Events about a Job: they never say what holds it. */
const JOB_CONTROLLER_REASONS = new Set([
  'SuccessfulCreate',
  'SuccessfulDelete',
  'Completed',
  'Suspended',
  'Resumed',
  'BackoffLimitExceeded',
]);

/**
 * A suspended Job, waiting to be admitted, with what holds it when an Event about the Job says so
 * (the newest from another component than the Job controller: Kueue's `Pending: couldn't assign
 * flavors ... insufficient quota`).
 */
function suspendedFinding(state: RolloutState, object: Finding['object'], message: string): Finding {
  const events = kubeEventsAbout(state, 'Job', state.target.name).filter((e) => !JOB_CONTROLLER_REASONS.has(e.reason ?? ''));
  const held = events.at(-1);
  const by = held ? `; ${held.source?.component ?? held.reportingComponent ?? 'an Event'} says ${held.reason}: ${held.message ?? ''}` : '';
  return { class: 'job-suspended', object, reason: 'Suspended', message, explanation: `${message}${by}` };
}
