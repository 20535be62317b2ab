/**
 * The compact rollout tree of the TTY sink:
 *
 *     Deployment default/nginx · revision 3 · scaling up
 *       Waiting for app ReplicaSet to be available (1/3 Pods available)
 *       ├─ ReplicaSet nginx-5d9 (new, revision 3) 1/3 ready
 *       │  ├─ ✓ nginx-5d9-abc ready
 *       │  └─ ⚠ nginx-5d9-def waiting: ImagePullBackOff
 *       └─ ReplicaSet nginx-7f8 (old, revision 2) 2/2 ready
 */
import type { PodState } from '../core/index.js';
import type { Palette } from './colors.js';
import { phaseLabel } from './describe-event.js';
import { orderedReplicaSets, podHasWarning, podProblems, podsOf, type ReportedPod, type WorkloadView } from './rollout-view.js';

const STATE_MARK: Record<PodState, string> = {
  pending: '○',
  scheduled: '○',
  'container-creating': '◔',
  initializing: '◔',
  waiting: '◔',
  running: '◑',
  ready: '✓',
  terminating: '✗',
  succeeded: '✓',
  failed: '✗',
};

/** The header line: `Deployment ns/name · revision N · phase`. */
export function treeHeader(v: WorkloadView, c: Palette): string {
  const parts = [`${v.kind} ${c.bold(`${v.namespace}/${v.name}`)}`];
  if (v.revision !== undefined)
    parts.push(`revision ${v.revision}${v.restores !== undefined ? ` (rollback to revision ${v.restores}'s template)` : ''}`);
  if (v.paused) parts.push(c.yellow('paused'));
  if (v.verdict && v.watchingAfterVerdict) parts.push(c.cyan('watching for changes'));
  else if (v.phase !== undefined) parts.push(phaseLabel(v.phase));
  return parts.join(' · ');
}

/** The lines under the header (progress, ReplicaSets, pods, problems). */
export function treeBody(v: WorkloadView, c: Palette): string[] {
  const lines: string[] = [];
  if (v.waiting !== undefined && !v.verdict) lines.push(c.dim(v.waiting));
  else if (v.progress && v.progress.message !== '' && !v.verdict) lines.push(c.dim(v.progress.message));
  // Old ReplicaSets scaled to zero with no pods left are history (kept for rollback): not drawn.
  const drawn = orderedReplicaSets(v).filter((rs) => rs.role === 'new' || rs.desired > 0 || rs.ready > 0 || podsOf(v, rs.name).length > 0);
  const groups: { label: string; pods: ReportedPod[] }[] = drawn.map((rs) => ({
    label: `ReplicaSet ${rs.name} ${c.dim(`(${rs.role}, revision ${rs.revision})`)} ${readyRatio(rs.ready, rs.desired, c)}`,
    pods: podsOf(v, rs.name),
  }));
  const known = new Set(v.replicaSets.keys());
  const strays = [...v.pods.values()].filter((p) => p.replicaSet === undefined || !known.has(p.replicaSet));
  if (strays.length > 0) groups.push({ label: c.dim(v.kind === 'Deployment' ? 'other pods' : 'pods'), pods: strays });
  groups.forEach((g, gi) => {
    const lastGroup = gi === groups.length - 1;
    lines.push(`${lastGroup ? '└─' : '├─'} ${g.label}`);
    g.pods.forEach((pod, pi) => {
      const lastPod = pi === g.pods.length - 1;
      lines.push(`${lastGroup ? '   ' : '│  '}${lastPod ? '└─' : '├─'} ${podRow(v, pod, c)}`);
      if (pod.lastLog !== undefined)
        lines.push(`${lastGroup ? '   ' : '│  '}${lastPod ? '   ' : '│  '}  ${c.dim(`› ${clip(pod.lastLog, MAX_LOG_WIDTH)}`)}`);
    });
  });
  for (const n of v.notes) lines.push(c.dim(`• ${n}`));
  return lines;
}

/** Header plus body, indented under the header. */
export function renderTree(v: WorkloadView, c: Palette): string {
  return [treeHeader(v, c), ...treeBody(v, c).map((l) => `  ${l}`)].join('\n');
}

function podRow(v: WorkloadView, pod: ReportedPod, c: Palette): string {
  const warn = podHasWarning(v, pod);
  const mark = warn ? c.yellow('⚠') : pod.state === 'ready' ? c.green(STATE_MARK.ready) : c.dim(STATE_MARK[pod.state]);
  const problem = podProblems(v, pod.name)[0];
  const detail = problem ? problem.explanation : pod.detail;
  const state = warn ? c.yellow(pod.state) : pod.state === 'ready' ? c.green(pod.state) : pod.state;
  return `${mark} ${pod.name} ${state}${detail !== undefined && detail !== '' ? c.dim(`: ${detail}`) : ''}`;
}

/** A streamed log line is clipped so the live tree keeps one row per line. */
const MAX_LOG_WIDTH = 100;

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function readyRatio(ready: number, desired: number, c: Palette): string {
  const text = `${ready}/${desired} ready`;
  return ready >= desired ? c.green(text) : text;
}
