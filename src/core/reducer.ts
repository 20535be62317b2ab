/**
 * The pure rollout reducer: (state, observation) -> [state, events]. No I/O, no clock: time is
 * `obs.at`. Once a verdict was emitted the state is final and further observations emit nothing.
 */

import type { ClassifierFailure } from './diagnose/index.js';
import { type Emit, emitK8sEvents, phaseEmitted } from './emit.js';
import { trackEndedPods } from './ended-pods.js';
import { successEventsKnown, takeSync } from './event-backlog.js';
import { kubectlHints } from './hints.js';
import { emitHold, successHold, trackSettling } from './hold.js';
import { idleTick } from './idle-tick.js';
import { intake, type Touched } from './intake.js';
import { moduleOf } from './kinds/index.js';
import type { KindModule } from './kinds/module.js';
import { podScope } from './pod-scope.js';
import { emitProblemChanges, reportClassifierFailures } from './problem-events.js';
import { currentProblems, failingProblems, orderedProblems, type PodScope, trackNotReady } from './problems.js';
import { initialPulumiState } from './pulumi-await.js';
import { quotaListWaitUntil } from './quota-holders.js';
import type { EmittedMemo, RolloutState } from './state.js';
import { timeReadyPods } from './timings.js';
import type { Observation, Policy, Problem, RolloutEvent, TrackTarget, Verdict } from './types.js';
import { buildVerdict, replicaCounts } from './verdict.js';
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

function deletedProblem(s: Draft, at: number): Problem {
  const kind = kindOf(s);
  const ref = { namespace: s.target.namespace, name: s.target.name, kind };
  return {
    id: `workload-deleted/${kind}/${s.target.name}`,
    class: 'workload-deleted',
    object: { kind, name: s.target.name },
    reason: 'Deleted',
    message: `${kind} ${s.target.namespace}/${s.target.name} was deleted`,
    explanation: `the ${kind} was deleted while its rollout was being tracked`,
    firstSeen: at,
    lastSeen: at,
    events: [],
    hints: kubectlHints(ref, { kind, name: ref.name, deleted: true }),
  };
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
 * Everything an observation changed about the rollout, for every kind (its module says what
 * differs): events, problems, then a verdict or a hold.
 */
function derive(s: Draft, memo: EmittedMemo, at: number, emit: Emit, obs: Observation, touched: Touched | undefined): void {
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
  else derive(s, memo, at, emit, obs, touched);
  return [s, events];
}

/**
 * The verdict of the tracker's `timeout` or `cancel`: the rollout ends now, whatever its state. A
 * timeout while a decided failure only waits for its pods' cause (`causeWaitUntil`) gives that
 * failure: the rollout did not run out of time, it had failed.
 */
function stopped(s: Draft, obs: Extract<Observation, { type: 'timeout' | 'cancel' }>): Verdict {
  const { at } = obs;
  const failing = failingProblems(s, at);
  const problems = orderedProblems(s, failing);
  if (obs.type === 'cancel') return buildVerdict(s, { outcome: 'cancelled', at, problems, ...(obs.reason ? { reason: obs.reason } : {}) });
  // Waiting for its cause, or done waiting with no tick since: decided either way.
  const decided = failing.length > 0 && moduleOf(s).causeWaitUntil?.(s, failing) !== undefined;
  if (s.synced && s.eventBacklog === 'listed' && decided) return buildVerdict(s, { outcome: 'failed', at, problems });
  return buildVerdict(s, {
    outcome: 'timed-out',
    at,
    problems,
    timeoutSeconds: obs.timeoutSeconds,
    timeoutKind: obs.timeoutKind ?? 'overall',
  });
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
