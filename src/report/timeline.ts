/**
 * The timeline of traced rollouts (pure): from the events of one or more traces, per workload its
 * time span, each pod's states over time (lanes), its ReplicaSet or revision steps, the Kubernetes
 * Events and problems as marks, and the verdict. What the HTML report draws (html-report.ts).
 */
import type { PodState, RolloutEvent, Verdict } from '../core/index.js';
import { cleanedEvent, workloadKey, workloadOf } from '../core/index.js';

/** One stretch of a pod in one state. */
export interface Segment {
  from: number;
  to: number;
  state: PodState | 'gone';
  detail?: string;
}

/** A pod's lane. */
export interface PodLane {
  pod: string;
  revision?: string;
  node?: string;
  segments: Segment[];
}

/** A mark at one time: an Event, a problem, a ReplicaSet or revision step. */
export interface Mark {
  at: number;
  kind: 'warning' | 'event' | 'problem' | 'step';
  text: string;
  /** The pod it is about, when it is one of the lanes. */
  pod?: string;
}

/** One workload's timeline. */
export interface WorkloadTimeline {
  key: string;
  title: string;
  start: number;
  end: number;
  lanes: PodLane[];
  marks: Mark[];
  verdict?: Verdict;
}

/** The workloads' timelines, in the order their traces started. */
export function timelinesOf(events: readonly RolloutEvent[]): WorkloadTimeline[] {
  const byKey = new Map<string, { events: RolloutEvent[] }>();
  for (const raw of events) {
    const e = cleanedEvent(raw);
    const key = workloadKey(workloadOf(e));
    let entry = byKey.get(key);
    if (!entry) {
      entry = { events: [] };
      byKey.set(key, entry);
    }
    entry.events.push(e);
  }
  return [...byKey.entries()].map(([key, { events: es }]) => timelineOf(key, es));
}

function timelineOf(key: string, events: RolloutEvent[]): WorkloadTimeline {
  const start = events[0]?.at ?? 0;
  const verdictEvent = events.find((e) => e.type === 'verdict');
  const verdict = verdictEvent?.type === 'verdict' ? verdictEvent.verdict : undefined;
  const end = Math.max(verdict?.finishedAt ?? 0, ...events.map((e) => e.at), start + 1);
  const w = events[0]?.workload;
  const title = w ? `${w.kind} ${w.namespace}/${w.name}` : key;
  const lanes = new Map<string, PodLane>();
  const marks: Mark[] = [];
  const close = (lane: PodLane, at: number) => {
    const last = lane.segments.at(-1);
    if (last && last.to === end) last.to = at;
  };
  for (const e of events) {
    switch (e.type) {
      case 'pod': {
        const lane = lanes.get(e.name) ?? { pod: e.name, segments: [] };
        lanes.set(e.name, lane);
        if (e.revision !== undefined) lane.revision = e.revision;
        if (e.node !== undefined) lane.node = e.node;
        close(lane, e.at);
        lane.segments.push({ from: e.at, to: end, state: e.state, ...(e.detail !== undefined ? { detail: e.detail } : {}) });
        break;
      }
      case 'pod-deleted': {
        const lane = lanes.get(e.name);
        if (lane) {
          close(lane, e.at);
          lane.segments.push({ from: e.at, to: end, state: 'gone' });
        }
        break;
      }
      case 'replicaset':
        marks.push({
          at: e.at,
          kind: 'step',
          text: `ReplicaSet ${e.name} (${e.role}, revision ${e.revision}): ${e.ready}/${e.desired} ready`,
        });
        break;
      case 'revision':
        marks.push({ at: e.at, kind: 'step', text: `revision ${e.revision}` });
        break;
      case 'k8s-event': {
        const pod = e.event.object.startsWith('Pod/') ? e.event.object.slice(4) : undefined;
        const text = `${e.event.object} ${e.event.reason}: ${e.event.message}`;
        marks.push({ at: e.at, kind: e.event.type === 'Warning' ? 'warning' : 'event', text, ...(pod ? { pod } : {}) });
        break;
      }
      case 'problem': {
        const pod = e.problem.object.kind === 'Pod' ? e.problem.object.name : undefined;
        marks.push({ at: e.at, kind: 'problem', text: `${e.problem.class}: ${e.problem.explanation}`, ...(pod ? { pod } : {}) });
        break;
      }
      default:
        break;
    }
  }
  return { key, title, start, end, lanes: [...lanes.values()], marks, ...(verdict ? { verdict } : {}) };
}

/** The states a lane is drawn in, in the legend's order. */
export const LANE_STATES: readonly (PodState | 'gone')[] = [
  'pending',
  'scheduled',
  'container-creating',
  'initializing',
  'waiting',
  'running',
  'ready',
  'succeeded',
  'failed',
  'terminating',
  'gone',
];

/**
 * Lanes grouped for a large rollout: per revision, the share of its pods in each state over
 * `buckets` equal stretches of time (what one lane per pod cannot show for 2,000 pods).
 */
export function groupedLanes(t: WorkloadTimeline, buckets: number): { revision: string; pods: number; shares: Record<string, number>[] }[] {
  const byRevision = new Map<string, PodLane[]>();
  for (const lane of t.lanes) byRevision.set(lane.revision ?? '?', [...(byRevision.get(lane.revision ?? '?') ?? []), lane]);
  const span = t.end - t.start;
  return [...byRevision.entries()].map(([revision, lanes]) => ({
    revision,
    pods: lanes.length,
    shares: Array.from({ length: buckets }, (_, i) => {
      const at = t.start + ((i + 0.5) * span) / buckets;
      const counts: Record<string, number> = {};
      for (const lane of lanes) {
        const s = lane.segments.find((seg) => seg.from <= at && at < seg.to)?.state;
        if (s) counts[s] = (counts[s] ?? 0) + 1 / lanes.length;
      }
      return counts;
    }),
  }));
}
