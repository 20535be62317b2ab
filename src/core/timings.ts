/**
 * Where a rollout's time went (pure): per pod of the current template, the seconds it waited for
 * a node, pulled its images, started its containers and took to become Ready, from the pod's own
 * timestamps (creation, `PodScheduled`, container `startedAt`, `Ready`) and its kubelet's `Pulled`
 * Events (`Successfully pulled image "x" in 11.2s`; those of containers started before the trace are
 * not listed, so theirs is unknown); and the phase that took most of the pods'
 * time, with the node where it did.
 */
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { currentPod, currentPods } from './current-pods.js';
import { isPodReady } from './k8s.js';
import { kubeEventsNamed } from './relations.js';
import type { RolloutState } from './state.js';
import type { PodTiming, RolloutTimings, StartPhase } from './timing-types.js';

const PHASES: readonly StartPhase[] = ['scheduling', 'image-pull', 'container-start', 'readiness'];
/** How each phase is named in a sentence. */
export const PHASE_WORDS: Readonly<Record<StartPhase, string>> = {
  scheduling: 'waiting for a node',
  'image-pull': 'image pulls',
  'container-start': 'container starts',
  readiness: 'readiness',
};

const seconds = (from: number | undefined, to: number | undefined): number | undefined =>
  from === undefined || to === undefined || !Number.isFinite(from) || !Number.isFinite(to) ? undefined : Math.max(0, (to - from) / 1000);

const time = (value: unknown): number | undefined => {
  if (value === undefined || value === null) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isFinite(ms) ? ms : undefined;
};

/** A Go duration as the kubelet writes it (`11.2s`, `1m2.5s`, `850ms`), in seconds. */
export function goDurationSeconds(text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|µs|us|ns)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, µs: 1e-6, us: 1e-6, ns: 1e-9 };
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
}

/** Seconds the pod's images took to pull, from its `Pulled` Events (0 when every image was present). */
function pullSeconds(events: readonly CoreV1Event[]): number | undefined {
  let total: number | undefined;
  for (const e of events) {
    if (e.reason !== 'Pulled') continue;
    const took = /Successfully pulled image .* in ([0-9.hmsµun]+)/.exec(e.message ?? '')?.[1];
    const s = took !== undefined ? goDurationSeconds(took) : /already present on machine/.test(e.message ?? '') ? 0 : undefined;
    if (s !== undefined) total = (total ?? 0) + s;
  }
  return total;
}

/**
 * One pod's phases (seconds), as far as it got. `pullsKnownFrom`: the time from which the pod's
 * `Pulled` Events are known (the trace's start: the Event list leaves them out, the watch brings
 * them); a pod whose containers started earlier without one has neither an image pull nor a
 * container start (the one would be counted in the other).
 */
export function podTiming(pod: V1Pod, events: readonly CoreV1Event[], pullsKnownFrom = Number.NEGATIVE_INFINITY): PodTiming {
  const created = time(pod.metadata?.creationTimestamp);
  const condition = (type: string) => time(pod.status?.conditions?.find((c) => c.type === type && c.status === 'True')?.lastTransitionTime);
  const scheduled = condition('PodScheduled');
  const starts = (pod.status?.containerStatuses ?? []).map((c) => time(c.state?.running?.startedAt)).filter((t) => t !== undefined);
  const started = starts.length > 0 && starts.length === (pod.status?.containerStatuses ?? []).length ? Math.max(...starts) : undefined;
  const ready = condition('Ready');
  const pull = pullSeconds(events);
  const pullUnknown = pull === undefined && started !== undefined && started < pullsKnownFrom;
  const beforeStart = pullUnknown ? undefined : seconds(scheduled, started);
  const timing: PodTiming = { pod: pod.metadata?.name ?? '', ...(pod.spec?.nodeName ? { node: pod.spec.nodeName } : {}) };
  const set = (phase: StartPhase, value: number | undefined) => {
    if (value !== undefined) timing[phase] = round(value);
  };
  set('scheduling', seconds(created, scheduled));
  set('image-pull', pull !== undefined && beforeStart !== undefined ? Math.min(pull, beforeStart) : pull);
  set('container-start', beforeStart !== undefined ? beforeStart - Math.min(pull ?? 0, beforeStart) : undefined);
  set('readiness', started !== undefined && ready !== undefined && ready >= started ? seconds(started, ready) : undefined);
  return timing;
}

const round = (s: number) => Math.round(s * 10) / 10;

/** A pod's timing and what it was computed from: its object (the key), its Events and the trace's start. */
interface Computed {
  events: readonly CoreV1Event[];
  from: number;
  timing: PodTiming;
}
/**
 * Timings already computed, by pod object (each watch update is a new object; a replaced one is
 * forgotten with it). A memo of a pure function: the same pod, Events and start give the same timing.
 */
const computed = new WeakMap<V1Pod, Computed>();

/** Whether the Events `uids` are still `events` (the same objects, in the same order). */
function sameEvents(state: RolloutState, uids: readonly string[] | undefined, events: readonly CoreV1Event[]): boolean {
  const n = uids?.length ?? 0;
  if (n !== events.length) return false;
  for (let i = 0; i < n; i++) if (state.kubeEvents.get(uids![i]!) !== events[i]) return false;
  return true;
}

/** {@link podTiming} of a current pod, computed again only when the pod, its Events or the trace's start changed. */
function timingOf(state: RolloutState, pod: V1Pod): PodTiming {
  const name = pod.metadata?.name ?? '';
  const from = state.startedAt;
  const known = computed.get(pod);
  if (known && known.from === from && sameEvents(state, state.kubeEventsByObject.get(name), known.events)) return known.timing;
  const events = kubeEventsNamed(state, name);
  const timing = podTiming(pod, events, from);
  computed.set(pod, { events, from, timing });
  return timing;
}

/**
 * Computes ahead the timings of the pods `names` that are Ready (a Ready pod's phases are over), so
 * that a verdict, which lists every current pod's, finds them computed instead of computing
 * thousands at the moment it is due.
 */
export function timeReadyPods(state: RolloutState, names: readonly string[]): void {
  for (const name of names) {
    const pod = currentPod(state, name);
    if (pod && isPodReady(pod)) timingOf(state, pod);
  }
}

/** The timings of the current template's pods, and the phase that took most of their time. */
export function rolloutTimings(state: RolloutState): RolloutTimings | undefined {
  const pods = currentPods(state).map((p) => timingOf(state, p));
  if (pods.length === 0) return undefined;
  const totals = Object.fromEntries(PHASES.map((ph) => [ph, round(pods.reduce((sum, p) => sum + (p[ph] ?? 0), 0))])) as Record<
    StartPhase,
    number
  >;
  const all = PHASES.reduce((sum, ph) => sum + totals[ph], 0);
  const timings: RolloutTimings = { pods, phases: totals };
  if (all <= 0) return timings;
  const phase = PHASES.reduce((best, ph) => (totals[ph] > totals[best] ? ph : best), PHASES[0]!);
  timings.dominant = dominantPhase(pods, phase, Math.round((totals[phase] / all) * 100));
  return timings;
}

/**
 * The pods in which `phase` took time, and their mean; named after a node only when that node
 * holds more than half of the phase's time (a phase spread evenly over nodes names none).
 */
export function dominantPhase(pods: readonly PodTiming[], phase: StartPhase, share: number): NonNullable<RolloutTimings['dominant']> {
  const byNode = new Map<string, number[]>();
  const all: number[] = [];
  for (const p of pods) {
    const took = p[phase];
    if (took === undefined || took <= 0) continue;
    all.push(took);
    const onNode = byNode.get(p.node ?? '');
    if (onNode) onNode.push(took);
    else byNode.set(p.node ?? '', [took]);
  }
  const [node, onNode] = [...byNode.entries()].sort((a, b) => sum(b[1]) - sum(a[1]))[0] ?? ['', []];
  const concentrated = node !== '' && sum(onNode) * 2 > sum(all);
  const took = concentrated ? onNode : all;
  return {
    phase,
    share,
    pods: took.length,
    meanSeconds: took.length > 0 ? round(sum(took) / took.length) : 0,
    ...(concentrated ? { node } : {}),
  };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** `image pulls: 62 % of the pods' time, 4 pods × 11 s on node-2` */
export function dominantWords(t: RolloutTimings): string | undefined {
  const d = t.dominant;
  if (!d) return undefined;
  const where = d.node ? ` on ${d.node}` : '';
  return `${PHASE_WORDS[d.phase]}: ${d.share} % of the pods' time, ${d.pods} pod${d.pods === 1 ? '' : 's'} × ${d.meanSeconds} s${where}`;
}
