/**
 * The pure rollout reducer: (state, observation) -> [state, events]. No I/O, no clock: time is
 * `obs.at`. Once a verdict was emitted the state is final and further observations emit nothing.
 */

import type { ClassifierFailure } from './diagnose/index.js';
import { type Emit, phaseEmitted, type Touched } from './emit.js';
import { trackEndedPods } from './ended-pods.js';
import { successEventsKnown, takeSync } from './event-backlog.js';
import { emitHold, successHold, trackSettling } from './hold.js';
import { idleTick } from './idle-tick.js';
import { intake } from './intake.js';
import { hasEnded } from './k8s.js';
import { emitK8sEvents } from './k8s-events.js';
import { replicaCounts } from './kinds/deployment.js';
import { kindModule, moduleOf } from './kinds/index.js';
import type { KindModule } from './kinds/module.js';
import { podScope } from './pod-scope.js';
import { emitProblemChanges, reportClassifierFailures } from './problem-events.js';
import { currentProblems, failingProblems, orderedProblems, type PodScope, trackNotReady } from './problems.js';
import { initialPulumiState } from './pulumi-await.js';
import { quotaListWaitUntil } from './quota-holders.js';
import { deletedProblem, stopped } from './rollout-ends.js';
import type { EmittedMemo, RolloutState } from './state.js';
import { timeReadyPods } from './timings.js';
import type { ObjectObservation, Observation, Policy, Problem, RolloutEvent, TrackTarget, Verdict } from './types.js';
import { buildVerdict } from './verdict.js';
import { kindOf } from './workloads.js';

type Draft = { -readonly [K in keyof RolloutState]: RolloutState[K] };

function emptyMemo(): EmittedMemo {
  return {
    started: false,
    notFound: false,
    phases: [],
    replicaSets: {},
    oldReplicas: {},
    pods: {},
    conditions: {},
    kubeEvents: {},
    problems: {},
    notReadySince: {},
    rsRevisions: {},
    classifierFailures: {},
    walked: {},
    eventNames: {},
    settling: {},
    ended: {},
    notes: {},
    refusing: {},
    freedAt: {},
    folded: {},
    departed: [],
    podCauses: {},
    departedPods: [],
    readyLost: {},
  };
}

/**
 * The state before any observation. `now` is when tracking started (ms); it anchors the verdict's
 * duration and which pre-existing Kubernetes events count as news.
 */
export function initialState(target: TrackTarget, policy: Policy, now: number): RolloutState {
  return {
    target,
    facts: kindModule(target.kind).facts,
    policy,
    startedAt: now,
    now,
    synced: false,
    eventBacklog: 'listed',
    fresh: new Set(),
    deleted: false,
    replicaSets: new Map(),
    pods: new Map(),
    podsByOwner: new Map(),
    ownedPods: new Map(),
    kubeEvents: new Map(),
    kubeEventsByObject: new Map(),
    kubeEventArrival: new Map(),
    pvcs: new Map(),
    nodes: new Map(),
    notReadyNodes: {},
    pulumi: initialPulumiState(),
    problems: {},
    memo: emptyMemo(),
    owner: { seq: 0 },
    seq: 0,
  };
}

function finish(s: Draft, emit: Emit, v: Verdict): void {
  s.verdict = v;
  emit({ type: 'verdict', verdict: v });
}

/** Replaces the current problems of the pods in `scope`; emits `problem` / `problem-cleared`. @returns the problems that cleared. */
function updateProblems(s: Draft, memo: EmittedMemo, at: number, emit: Emit, scope: PodScope): Problem[] {
  const failures: ClassifierFailure[] = [];
  const next = currentProblems(s, at, failures, scope);
  reportClassifierFailures(failures, memo, at, emit);
  const previous = s.problems;
  s.problems = next;
  return emitProblemChanges(s, memo, previous, at, emit);
}

function succeed(s: Draft, memo: EmittedMemo, at: number, emit: Emit, kind: KindModule): void {
  const key = `${memo.revision ?? ''}:complete`;
  if (!memo.phases.includes(key)) {
    memo.phases = [...memo.phases, key];
    emit({ type: 'phase', phase: 'complete', message: kind.completeMessage(s, memo) });
  }
  finish(s, emit, buildVerdict(s, { outcome: 'succeeded', at, problems: orderedProblems(s, []) }));
}

/**
 * Everything the observations changed about the rollout, for every kind (its module says what
 * differs): events, problems, then a verdict or a hold. `obs` is the last of them, `touched` what
 * each of them changed (none for a tick or a sync).
 */
function derive(s: Draft, memo: EmittedMemo, at: number, emit: Emit, obs: Observation, touched: readonly Touched[]): void {
  const kind = moduleOf(s);
  if (kind.waiting(s, memo, emit)) return;
  kind.emitChanges(s, memo, emit, touched);
  const scope = podScope(s, memo, obs, touched);
  if (kind.podsRunOn) trackEndedPods(s, memo, at, scope, emit);
  const opened = kind.emitRows(s, memo, touched, emit);
  trackNotReady(s, memo, at, scope);
  if (scope !== 'all') timeReadyPods(s, scope);
  const succeeded = kind.criterionMet(s);
  // Watched on after its success, the revision's pods replaced or rescaled are not its phases again.
  if (!phaseEmitted(memo, 'complete')) kind.emitPhases(s, memo, emit, succeeded);
  kind.emitProgress(s, memo, emit);
  emitK8sEvents(s, memo, s.ownedPods, opened, touched, emit);
  trackSettling(s, memo, updateProblems(s, memo, at, emit, scope), at);
  // No verdict until the initial lists are in: the pods that say why, or that hold a success, may
  // not be known yet (the tracker delivers the snapshot, then `synced`, at one instant).
  if (!s.synced) return;
  // A problem whose window ran out fails the rollout even if the pods look ready right now.
  const failing = failingProblems(s, at);
  // Until the Event backlog is in, only a success whose Events are all known is judged.
  if (failing.length > 0 && s.eventBacklog !== 'listed') return;
  if (failing.length > 0 && at < (kind.causeWaitUntil?.(s, failing) ?? at)) return;
  if (failing.length > 0 && at < (quotaListWaitUntil(s, failing) ?? at)) return;
  if (failing.length > 0) return finish(s, emit, buildVerdict(s, { outcome: 'failed', at, problems: orderedProblems(s, failing) }));
  if (!succeeded) {
    memo.held = undefined;
    return;
  }
  const hold = successHold(s, at, kind);
  if (hold) return emitHold(hold, memo, emit);
  if (!successEventsKnown(s)) return;
  succeed(s, memo, at, emit, kind);
}

/**
 * The `emit` of one observation: each event stamped with `at` and the workload. A function that
 * returns the closure, so the bundle's keepNames does not name a new closure on every observation.
 */
function emitterInto(events: RolloutEvent[], at: number, state: RolloutState): Emit {
  const deployment = { namespace: state.target.namespace, name: state.target.name };
  const kind = kindOf(state);
  const workload = { kind, ...deployment };
  return (e) => {
    events.push({ at, workload, deployment, kind, ...e } as RolloutEvent);
  };
}

const CONSUMED =
  'reduce() was given a state that an earlier reduce() call already consumed: states are single-owner ' +
  '(caches are updated in place); pass only the newest state, the one reduce() returned last.';

/**
 * Applies one observation. Consumes `state` (its caches, indexes and memos are updated in place,
 * so the cost does not grow with what is cached) and returns the next state and the events it
 * caused, in order. Only the returned state may be passed on; an older one throws. After the
 * verdict, returns `[state, []]`. Observations are never mutated.
 */
export function reduce(state: RolloutState, obs: Observation): [RolloutState, RolloutEvent[]] {
  if (state.verdict) return [state, []];
  if (state.owner.seq !== state.seq) throw new Error(CONSUMED);
  const at = obs.at;
  const events: RolloutEvent[] = [];
  const emit = emitterInto(events, at, state);
  const s: Draft = { ...state, now: Math.max(state.now, at), seq: state.seq + 1 };
  state.owner.seq = s.seq;
  // Hot path: on a shared namespace watch most observations are about other Deployments. When
  // intake finds nothing for this target, nothing can be derived from it (time-driven changes
  // come with ticks), so skip deriving. `started` must come first, though.
  let intaken = false;
  let touched: Touched | undefined;
  if (obs.type === 'upsert' || obs.type === 'delete') {
    if (state.memo.started) {
      intaken = true;
      touched = intake(s, obs, emit);
      if (!touched) return [s, events];
    }
  }
  const memo = s.memo;
  if (!memo.started) {
    memo.started = true;
    emit({ type: 'started' });
  }
  switch (obs.type) {
    case 'synced':
    case 'event-backlog':
    case 'fresh':
      if (!takeSync(s, obs)) return [s, events];
      break;
    case 'tick':
      if (idleTick(s)) return [s, events];
      break;
    case 'terminating-pods':
      s.terminatingListed = { at, pods: obs.pods };
      break;
    case 'timeout':
    case 'cancel':
      finish(s, emit, stopped(s, obs));
      return [s, events];
    default:
      if (!intaken) touched = intake(s, obs, emit);
  }
  if (s.deleted) failDeleted(s, at, emit);
  else derive(s, memo, at, emit, obs, touched ? [touched] : []);
  return [s, events];
}

/**
 * Applies observations that came together as one step. Object observations (upserts and
 * deletes, in the order they came) are each taken into the caches in turn, then the rollout is
 * derived once, at the last one's time: the tracker applies a batch of watch lines this way (they
 * came within 100 ms), and deriving for several pods' changes costs about what it costs for one.
 * A pod's state or a problem that a later change in the same batch replaced is not reported
 * (every version of an Event is; a pod that ended is derived before its deletion, so its ending is
 * said), and a verdict is reached on the batch's end state. Any other
 * observation among them (a tick, a sync), or a batch of one, is applied with {@link reduce} one
 * by one. Same ownership as {@link reduce}.
 */
export function reduceBatch(state: RolloutState, observations: readonly Observation[]): [RolloutState, RolloutEvent[]] {
  const last = observations.at(-1);
  if (!last || observations.length === 1 || !state.memo.started || state.verdict || !observations.every(isObjectObservation)) {
    return reduceEach(state, observations);
  }
  // A pod that ended and was deleted in the same batch (a StatefulSet's or DaemonSet's controller
  // deletes it at once): what came before its deletion is derived first, so its ending is said.
  const cut = observations.findIndex((o, i) => i > 0 && o.type === 'delete' && o.kind === 'Pod' && hasEnded(o.object));
  if (cut > 0) {
    const [before, first] = reduceBatch(state, observations.slice(0, cut));
    const [after, rest] = reduceBatch(before, observations.slice(cut));
    return [after, [...first, ...rest]];
  }
  if (state.owner.seq !== state.seq) throw new Error(CONSUMED);
  const events: RolloutEvent[] = [];
  const s: Draft = { ...state, seq: state.seq + 1 };
  state.owner.seq = s.seq;
  const touched: Touched[] = [];
  let at = state.now;
  for (const obs of observations as readonly ObjectObservation[]) {
    at = Math.max(at, obs.at);
    const t = intake(s, obs, emitterInto(events, obs.at, state));
    if (t) touched.push(t);
    if (s.deleted) break;
  }
  s.now = at;
  if (touched.length === 0) return [s, events];
  const emit = emitterInto(events, at, state);
  if (s.deleted) failDeleted(s, at, emit);
  else derive(s, s.memo, at, emit, last, touched);
  return [s, events];
}

/** An object's change (not a tick, a sync, a timeout...). */
function isObjectObservation(obs: Observation): obs is ObjectObservation {
  return obs.type === 'upsert' || obs.type === 'delete';
}

/** Each observation reduced in turn. */
function reduceEach(state: RolloutState, observations: readonly Observation[]): [RolloutState, RolloutEvent[]] {
  let s = state;
  const events: RolloutEvent[] = [];
  for (const obs of observations) {
    const [next, more] = reduce(s, obs);
    s = next;
    events.push(...more);
  }
  return [s, events];
}

/** The Deployment was deleted: the rollout fails at once. */
function failDeleted(s: Draft, at: number, emit: Emit): void {
  const p = deletedProblem(s, at);
  emit({ type: 'problem', problem: p, failsAt: at });
  finish(s, emit, buildVerdict(s, { outcome: 'failed', at, problems: [p, ...orderedProblems(s, [])] }));
}

/** Current problems, most relevant first (failing ones first). */
export function problemsOf(state: RolloutState): Problem[] {
  return orderedProblems(state, failingProblems(state, state.now));
}

/** Replica counts of the tracked rollout right now. */
export { replicaCounts };
