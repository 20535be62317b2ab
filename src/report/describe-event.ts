/**
 * One-line descriptions of events for append-only logs. Each line has a *subject* key: the plain
 * sink prints a line only when its text differs from the last one printed for the same subject,
 * so an unchanged pod or a re-sent progress message never repeats.
 */
import type { RolloutEvent } from '../core/index.js';
import { formatWindow } from './format-time.js';
import { readableMessage } from './format-verdict.js';

/** A printable line about one subject, or nothing. */
export interface EventLine {
  subject: string;
  text: string;
  level: 'info' | 'warn' | 'good';
}

/** Describes one event (verdicts are rendered by `formatVerdict`, not here). */
export function describeEvent(e: RolloutEvent): EventLine | undefined {
  switch (e.type) {
    case 'started':
      return { subject: 'started', text: 'tracing rollout', level: 'info' };
    case 'waiting':
      return { subject: 'waiting', text: `waiting: ${e.message}`, level: 'info' };
    case 'revision':
      return revisionLine(e);
    case 'superseded':
      return { subject: 'revision', text: `revision ${e.revision} superseded by revision ${e.by}`, level: 'warn' };
    case 'phase':
      return phaseLine(e);
    case 'replicaset': {
      // (`created` means first seen by this trace, not created in the cluster: not worth a word.)
      return {
        subject: `rs/${e.name}`,
        text: `ReplicaSet ${e.name} (${e.role}, revision ${e.revision}): ${describeReplicaCounts(e)}`,
        level: 'info',
      };
    }
    case 'pod':
      return podLine(e);
    case 'pod-deleted':
      return { subject: `pod/${e.name}`, text: `pod ${e.name} deleted`, level: 'info' };
    case 'pod-orphaned':
      return {
        subject: `pod/${e.name}`,
        text: `pod ${e.name} orphaned: its labels no longer match, ReplicaSet ${e.replicaSet} released it (ownerReference removed) and will replace it`,
        level: 'warn',
      };
    case 'condition':
      return conditionLine(e);
    case 'paused':
      return { subject: 'paused', text: 'rollout paused (spec.paused=true)', level: 'warn' };
    case 'resumed':
      return { subject: 'paused', text: 'rollout resumed', level: 'info' };
    case 'scaled':
      return { subject: 'scaled', text: `scaled from ${e.from} to ${e.to} replicas`, level: 'info' };
    case 'progress':
      return {
        subject: 'progress',
        text: `${e.message !== '' ? e.message : `${e.ready}/${e.desired} ready, ${e.updated} updated, ${e.available} available`}${terminatingText(e.terminating)}`,
        level: 'info',
      };
    case 'k8s-event':
      return warningEventLine(e);
    case 'problem':
      return problemLine(e);
    case 'problem-cleared':
      return problemClearedLine(e);
    case 'held':
      return { subject: 'held', text: `holding success: ${e.message}`, level: 'warn' };
    case 'note':
      return { subject: `note/${e.object}`, text: `note: ${e.message}`, level: 'warn' };
    case 'log':
      return { subject: `log/${e.pod}/${e.container}`, text: `log ${e.pod}/${e.container} | ${e.line}`, level: 'info' };
    case 'verdict':
      return undefined;
  }
}

type EventOf<T extends RolloutEvent['type']> = Extract<RolloutEvent, { type: T }>;

function phaseLine(e: EventOf<'phase'>): EventLine {
  const step = PHASE_STEP[e.phase];
  const text = step !== undefined ? `phase ${step}/3 (${phaseLabel(e.phase)}): ${e.message}` : e.message;
  return { subject: 'phase', text, level: e.phase === 'complete' ? 'good' : 'info' };
}

function conditionLine(e: EventOf<'condition'>): EventLine {
  const reason = e.reason !== undefined ? ` (${e.reason})` : '';
  const message = e.message !== undefined && e.message !== '' ? `: ${e.message}` : '';
  return { subject: `condition/${e.condition}`, text: `condition ${e.condition}=${e.status}${reason}${message}`, level: 'info' };
}

function problemClearedLine(e: EventOf<'problem-cleared'>): EventLine {
  const p = e.problem;
  const subject = `problem/${e.id}`;
  const what = `${p.object.kind}/${p.object.name}: ${p.explanation}`;
  // Not solved: the pod went with its problem (a failed Job's pods, an eviction, a delete).
  if (p.podDeleted) return { subject, text: `deleted with its problem open: ${what}`, level: 'warn' };
  // The container runs again: it may end the same way, so this is no good news yet.
  if (p.exitCode !== undefined) return { subject, text: `running again after: ${what}`, level: 'info' };
  return { subject, text: `cleared: ${what}`, level: 'good' };
}

function revisionLine(e: EventOf<'revision'>): EventLine {
  const restores = e.restores !== undefined ? `the template of revision ${e.restores}` : undefined;
  const text =
    e.change === 'initial'
      ? `revision ${e.revision}${restores ? ` (a rollback: ${restores})` : ''}`
      : e.change === 'new'
        ? `new revision ${e.revision}${e.previous !== undefined ? ` (was ${e.previous})` : ''}: rollout started`
        : `rollback to revision ${e.revision}${e.previous !== undefined ? ` (was ${e.previous})` : ''}${restores ? `: ${restores}` : ''}`;
  return { subject: 'revision', text, level: 'info' };
}

function podLine(e: EventOf<'pod'>): EventLine {
  const rev = e.revision !== undefined ? ` (revision ${e.revision})` : '';
  const detail = e.detail !== undefined && e.detail !== '' ? ` - ${e.detail}` : '';
  const node = e.node !== undefined && (e.state === 'scheduled' || e.previous === 'pending') ? ` on ${e.node}` : '';
  return {
    subject: `pod/${e.name}`,
    text: `pod ${e.name}${rev}: ${e.state}${node}${detail}`,
    level: e.state === 'failed' ? 'warn' : e.state === 'ready' ? 'good' : 'info',
  };
}

/** Warning Events only: Normal ones (Scheduled, Pulling, Started...) are what the pod lines already say. */
function warningEventLine(e: EventOf<'k8s-event'>): EventLine | undefined {
  // Normal events (Scheduled, Pulling, Started...) are what the pod lines already say.
  if (e.event.type !== 'Warning') return undefined;
  // The kubelet's bare echo (`Failed: Error: ErrImagePull`) repeats the pod line's reason.
  if (/^Error: \w+$/.test(e.event.message)) return undefined;
  return {
    subject: `event/${e.event.object}/${e.event.reason}/${e.event.message}`,
    text: `event [${e.event.object}] ${e.event.reason}: ${readableMessage(e.event.message)}`,
    level: 'warn',
  };
}

function problemLine(e: EventOf<'problem'>): EventLine {
  const p = e.problem;
  const container = p.container !== undefined ? ` container ${p.container}` : '';
  const pods = e.tolerated ? ` on more than ${e.tolerated} pod${e.tolerated === 1 ? '' : 's'}` : '';
  const window = e.failsAt !== undefined ? e.failsAt - p.firstSeen : undefined;
  let fails = '';
  if (window !== undefined && window <= 0) fails = `; fails the rollout${pods}`;
  // A crash class waits for its restarts: its window may be over by the time it can fail.
  else if (window !== undefined && e.failsAt! <= e.at)
    fails = `; persisted past its ${formatWindow(window)} window: fails the rollout${pods}`;
  else if (window !== undefined) fails = `; fails the rollout if it persists ${formatWindow(window)}${pods}`;
  return {
    subject: `problem/${p.id}`,
    // The raw reason flips (ErrImagePull <-> ImagePullBackOff); the pod line shows it, so it is
    // left out here to keep one line per distinct problem.
    text: `problem: ${p.object.kind}/${p.object.name}${container}: ${p.explanation}${fails}`,
    level: 'warn',
  };
}

/** `, 2 old pods terminating` (Kubernetes 1.33+ reports them), or nothing. */
export function terminatingText(terminating: number | undefined): string {
  return terminating ? `, ${terminating} old ${terminating === 1 ? 'pod' : 'pods'} terminating` : '';
}

/**
 * A ReplicaSet's counts in words. `3/2 ready` (more ready pods than desired) reads like a typo in
 * a log: it is a ReplicaSet being scaled down, so say so.
 */
function describeReplicaCounts(rs: { desired: number; ready: number; available: number }): string {
  if (rs.desired === 0 && rs.ready === 0 && rs.available === 0) return 'scaled to 0';
  if (rs.ready > rs.desired) return `${rs.ready} ready, scaling down to ${rs.desired}, ${rs.available} available`;
  return `${rs.ready}/${rs.desired} ready, ${rs.available} available`;
}

/** The kubespy article's three phases of a rollout. */
const PHASE_STEP: Partial<Record<string, number>> = { 'new-replicaset': 1, 'scaling-up': 2, 'scaling-down-old': 3 };

/** Short label of a rollout phase. */
export function phaseLabel(phase: string): string {
  switch (phase) {
    case 'new-replicaset':
      return 'new ReplicaSet';
    case 'scaling-up':
      return 'scaling up';
    case 'scaling-down-old':
      return 'scaling down old';

    default:
      return phase;
  }
}
