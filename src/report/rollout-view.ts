/**
 * A read model of the event stream: what the TTY tree draws and what the plain sink's
 * "still waiting" line names. Pure: it only folds {@link RolloutEvent}s.
 */
import type { PodState, Problem, RolloutEvent, RolloutEventOf, RolloutPhase, Verdict, WorkloadKind } from '../core/index.js';
import { workloadKey, workloadOf } from '../core/index.js';
import { terminatingText } from './describe-event.js';

/** One ReplicaSet as last reported. */
export type ReplicaSetView = Omit<RolloutEventOf<'replicaset'>, 'type' | 'at' | 'deployment' | 'workload' | 'kind' | 'created'>;

/** One pod as last reported. */
export interface ReportedPod {
  name: string;
  replicaSet?: string;
  revision?: string;
  state: PodState;
  detail?: string;
  /** The last streamed log line (`container: line`), when logs are followed. */
  lastLog?: string;
}

/** Everything known about one traced Deployment. */
export interface WorkloadView {
  key: string;
  /** The traced workload's kind (a StatefulSet's, DaemonSet's or Job's pods have no ReplicaSet). */
  kind: WorkloadKind;
  namespace: string;
  name: string;
  revision?: string;
  /** The older revision whose template `revision` brings back (a rollback). */
  restores?: string;
  phase?: RolloutPhase;
  phaseMessage?: string;
  progress?: { desired: number; ready: number; updated: number; available: number; message: string };
  waiting?: string;
  paused: boolean;
  replicaSets: Map<string, ReplicaSetView>;
  pods: Map<string, ReportedPod>;
  problems: Map<string, Problem>;
  verdict?: Verdict;
  /** Events seen after the verdict (`--watch`). */
  watchingAfterVerdict: boolean;
  /** The last few one-off happenings (pod deleted/orphaned, scaled...) the tree cannot show. */
  notes: string[];
}

const MAX_NOTES = 3;

/** Folds events into one {@link WorkloadView} per Deployment, in first-seen order. */
export class RolloutView {
  private readonly byKey = new Map<string, WorkloadView>();

  /** The views, in the order their Deployments were first seen. */
  get deployments(): WorkloadView[] {
    return [...this.byKey.values()];
  }

  /** The view of the event's Deployment (created on first sight). */
  viewOf(e: RolloutEvent): WorkloadView {
    const key = workloadKey(workloadOf(e));
    let view = this.byKey.get(key);
    if (!view) {
      view = {
        key,
        kind: workloadOf(e).kind,
        namespace: e.deployment.namespace,
        name: e.deployment.name,
        paused: false,
        replicaSets: new Map(),
        pods: new Map(),
        problems: new Map(),
        watchingAfterVerdict: false,
        notes: [],
      };
      this.byKey.set(key, view);
    }
    return view;
  }

  /** Applies one event and returns the updated view. */
  apply(e: RolloutEvent): WorkloadView {
    const v = this.viewOf(e);
    if (v.verdict && e.type !== 'verdict') v.watchingAfterVerdict = true;
    switch (e.type) {
      case 'waiting':
        v.waiting = e.message;
        break;
      case 'held':
        v.waiting = `holding success: ${e.message}`;
        break;
      case 'revision':
        v.revision = e.revision;
        v.restores = e.restores;
        v.waiting = undefined;
        break;
      case 'phase':
        v.phase = e.phase;
        v.phaseMessage = e.message;
        v.waiting = undefined;
        break;
      case 'replicaset':
      case 'pod':
      case 'log':
      case 'pod-deleted':
      case 'pod-orphaned':
        applyTree(v, e);
        break;
      case 'scaled':
      case 'superseded':
      case 'note':
        note(v, noteOf(e));
        break;
      case 'paused':
      case 'resumed':
        v.paused = e.type === 'paused';
        break;
      case 'progress':
        v.progress = progressOf(e);
        break;
      case 'problem':
        v.problems.set(e.problem.id, e.problem);
        break;
      case 'problem-cleared':
        v.problems.delete(e.id);
        if (e.problem.podDeleted) note(v, `pod ${e.problem.object.name} deleted with its problem open: ${e.problem.explanation}`);
        break;
      case 'verdict':
        v.verdict = e.verdict;
        v.watchingAfterVerdict = false;
        break;
    }
    return v;
  }
}

type EventOf<T extends RolloutEvent['type']> = Extract<RolloutEvent, { type: T }>;

/** The tree's rows: a ReplicaSet, a pod, a pod's last log line, a pod that left. */
function applyTree(v: WorkloadView, e: EventOf<'replicaset' | 'pod' | 'log' | 'pod-deleted' | 'pod-orphaned'>): void {
  switch (e.type) {
    case 'replicaset': {
      const { name, revision, role, desired, ready, available } = e;
      v.replicaSets.set(name, { name, revision, role, desired, ready, available });
      // Only one ReplicaSet is "new": a newer template demotes the previous one.
      if (role === 'new') {
        for (const rs of v.replicaSets.values()) if (rs.name !== name && rs.role === 'new') rs.role = 'old';
      }
      return;
    }
    case 'pod': {
      const { name, replicaSet, revision, state, detail } = e;
      v.pods.set(name, { name, replicaSet, revision, state, detail, lastLog: v.pods.get(name)?.lastLog });
      return;
    }
    case 'log': {
      const pod = v.pods.get(e.pod);
      if (pod) pod.lastLog = `${e.container}: ${e.line}`;
      return;
    }
    default:
      // kubespy's view: a pod that left the ReplicaSet leaves the tree (a note says why).
      v.pods.delete(e.name);
      note(v, noteOf(e));
  }
}

/** What the view's notes say of a pod that left, a scale, a superseded revision or a note. */
function noteOf(e: EventOf<'pod-deleted' | 'pod-orphaned' | 'scaled' | 'superseded' | 'note'>): string {
  switch (e.type) {
    case 'pod-deleted':
      return `pod ${e.name} deleted`;
    case 'pod-orphaned':
      return `pod ${e.name} orphaned: relabeled, released by ReplicaSet ${e.replicaSet}`;
    case 'scaled':
      return `scaled from ${e.from} to ${e.to} replicas`;
    case 'superseded':
      return `revision ${e.revision} superseded by revision ${e.by}`;
    case 'note':
      return e.message;
  }
}

function note(v: WorkloadView, text: string): void {
  v.notes.push(text);
  if (v.notes.length > MAX_NOTES) v.notes.shift();
}

/** Problems currently reported about a pod. */
export function podProblems(v: WorkloadView, pod: string): Problem[] {
  return [...v.problems.values()].filter((p) => p.object.kind === 'Pod' && p.object.name === pod);
}

/** True when a pod row deserves the warning marker. */
export function podHasWarning(v: WorkloadView, pod: ReportedPod): boolean {
  return pod.state === 'failed' || podProblems(v, pod.name).length > 0;
}

/** ReplicaSets ordered new first, then old by revision descending. */
export function orderedReplicaSets(v: WorkloadView): ReplicaSetView[] {
  return [...v.replicaSets.values()].sort((a, b) => {
    if (a.role !== b.role) return a.role === 'new' ? -1 : 1;
    return Number(b.revision) - Number(a.revision);
  });
}

/** Pods of one ReplicaSet, by name. */
export function podsOf(v: WorkloadView, rs: string | undefined): ReportedPod[] {
  return [...v.pods.values()].filter((p) => p.replicaSet === rs).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * What the rollout is still waiting for, in one line: the Pulumi-style progress message plus the
 * pods that are not ready yet (at most three named).
 */
export function describeWaitingFor(v: WorkloadView): string {
  const parts: string[] = [];
  if (v.waiting !== undefined) parts.push(v.waiting);
  if (v.progress) parts.push(v.progress.message || `${v.progress.ready}/${v.progress.desired} pods ready`);
  else if (v.phaseMessage !== undefined) parts.push(v.phaseMessage);
  const notReady = [...v.pods.values()].filter((p) => p.state !== 'ready' && p.state !== 'terminating');
  if (notReady.length > 0) {
    const named = notReady.slice(0, 3).map((p) => `${p.name} (${p.detail !== undefined ? `${p.state}: ${p.detail}` : p.state})`);
    const more = notReady.length > 3 ? ` and ${notReady.length - 3} more` : '';
    parts.push(`pods not ready: ${named.join(', ')}${more}`);
  }
  for (const p of v.problems.values()) parts.push(`problem: ${p.object.kind}/${p.object.name}: ${p.explanation}`);
  return parts.length > 0 ? parts.join('; ') : `the ${v.kind} to report status`;
}

/** A progress event as the view shows it: the old pods still terminating (1.33+) belong on its line. */
function progressOf(e: Extract<RolloutEvent, { type: 'progress' }>): WorkloadView['progress'] {
  const { desired, ready, updated, available } = e;
  return { desired, ready, updated, available, message: e.message === '' ? '' : `${e.message}${terminatingText(e.terminating)}` };
}
