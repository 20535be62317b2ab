/**
 * Observations applied as one step (core `reduceBatch`, as the tracker applies a read batch):
 * every recorded fixture, its object observations grouped by windows of 100 ms, 1 s and 5 s,
 * reaches the verdict it reaches one observation at a time, with the same problems, Events and
 * final pod rows, never earlier and at most a window (and the tick after it) later; and the edges:
 * a failure undone within a step, a workload deleted within one, a step that completes, other
 * observations among a step's, and each kind's rule on a step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  initialState,
  type Observation,
  type RolloutEvent,
  type RolloutState,
  reduce,
  reduceBatch,
  resolvePolicy,
} from '../../../src/core/index.js';
import { FIXTURES, fixtureTimeline } from '../../fixtures/replay.js';
import {
  daemonSetObject,
  del,
  deployment,
  failedJobObject,
  failedJobPod,
  jobObject,
  ofType,
  pod,
  run,
  statefulSetObject,
  T0,
  TARGET,
  tick,
  up,
  verdictOf,
  waiting,
  workloadPod,
} from './builders.js';
import { doneAt2, newPod, rollingTo2, UPDATE } from './scenario.js';

const isObject = (o: Observation) => o.type === 'upsert' || o.type === 'delete';

/** Consecutive object observations within `windowMs` of the first of them form a step; any other observation is a step alone. */
function steps(obs: readonly Observation[], windowMs: number): Observation[][] {
  const out: Observation[][] = [];
  for (const o of obs) {
    const open = out.at(-1);
    if (open && isObject(o) && isObject(open[0]!) && o.at - open[0]!.at <= windowMs) open.push(o);
    else out.push([o]);
  }
  return out;
}

/** Applies each step with `reduceBatch` until the verdict. */
function applySteps(state: RolloutState, all: Observation[][]): { state: RolloutState; events: RolloutEvent[]; batched: number } {
  const events: RolloutEvent[] = [];
  let batched = 0;
  for (const step of all) {
    const [next, out] = reduceBatch(state, step);
    state = next;
    events.push(...out);
    if (step.length > 1) batched++;
    if (out.some((e) => e.type === 'verdict')) break;
  }
  return { state, events, batched };
}

/** The last row of each pod, the Events reported, the verdict's outcome and problems: what a batch must not change. */
function outcomeOf(events: RolloutEvent[]) {
  const rows = new Map<string, string>();
  for (const e of ofType(events, 'pod')) rows.set(e.name, e.state);
  const v = verdictOf(events);
  return {
    rows: [...rows].sort(),
    k8sEvents: ofType(events, 'k8s-event')
      .map((e) => `${e.event.object} ${e.event.reason} ${e.event.message}`)
      .sort(),
    outcome: v?.outcome,
    problems: v?.problems.map((p) => p.id).sort(),
  };
}

describe('observations applied as one step', () => {
  let batchedInAll = 0;
  for (const name of FIXTURES) {
    for (const windowMs of [100, 1000, 5000]) {
      it(`${name}, steps of ${windowMs} ms: the same verdict, problems, Events and rows`, () => {
        const { f, obs } = fixtureTimeline(name);
        const start = () => initialState(f.target, resolvePolicy(), f.t0);
        const one = applySteps(
          start(),
          steps(obs, 0).flatMap((s) => s.map((o) => [o])),
        );
        const batched = applySteps(start(), steps(obs, windowMs));
        assert.deepEqual(outcomeOf(batched.events), outcomeOf(one.events));
        const at = (r: typeof one) => ofType(r.events, 'verdict')[0]?.at;
        if (at(one) !== undefined) {
          assert.ok(at(batched)! >= at(one)!, `not earlier: ${at(batched)! - at(one)!} ms`);
          assert.ok(at(batched)! <= at(one)! + windowMs + 1000, `${at(batched)! - at(one)!} ms later`);
        }
        assert.ok(batched.events.length <= one.events.length);
        batchedInAll += batched.batched;
      });
    }
  }
  it('the fixtures hold steps of several observations (the comparison above is not empty)', () => {
    assert.ok(batchedInAll > 50, `${batchedInAll} steps of several observations`);
  });
});

const start = () => ({ ...initialState({ ...TARGET, ...UPDATE }, resolvePolicy(), T0), synced: true });

/** `before` one at a time, then `step` as one; the events of the step. */
function stepAfter(before: Observation[], step: Observation[]): { state: RolloutState; events: RolloutEvent[] } {
  let state: RolloutState = start();
  for (const o of before) state = reduce(state, o)[0];
  const [next, events] = reduceBatch(state, step);
  return { state: next, events };
}

describe('the edges of a step', () => {
  const pulling = newPod('web-2-a', waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"'), 2);
  const runningPod = up('Pod', pod({ name: 'web-2-a', rs: 'web-2' }), 2);

  it('a step of one observation is reduce', () => {
    const [, alone] = reduce(stepAfter(rollingTo2(), []).state, pulling);
    assert.deepEqual(stepAfter(rollingTo2(), [pulling]).events, alone);
  });

  it('a problem undone within the step is not reported; one at a time, it opens and clears', () => {
    const batched = stepAfter(rollingTo2(), [pulling, runningPod]).events;
    assert.deepEqual(ofType(batched, 'problem'), []);
    assert.deepEqual(
      ofType(batched, 'pod').map((e) => e.state),
      ['ready'],
    );
    const { events } = run([...rollingTo2(), pulling, runningPod], UPDATE);
    assert.equal(ofType(events, 'problem').length, 1);
    assert.equal(ofType(events, 'problem-cleared').length, 1);
  });

  it('a workload deleted within the step fails at the delete; what came after it is not taken in', () => {
    const gone = del('Deployment', deployment({ revision: '2', generation: 2 }), 3);
    const later = up('Pod', pod({ name: 'web-2-late', rs: 'web-2' }), 4);
    const { state, events } = stepAfter(rollingTo2(), [pulling, gone, later]);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.class, 'workload-deleted');
    assert.equal(ofType(events, 'verdict')[0]?.at, T0 + 3000);
    assert.equal(state.pods.has('web-2-late'), false);
  });

  it('a step that completes the rollout succeeds at its last observation, its phase and progress in the end state', () => {
    const done = doneAt2(5).map((o, i) => ({ ...o, at: o.at + i }));
    const { events } = stepAfter(rollingTo2(), done);
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
    assert.equal(ofType(events, 'verdict')[0]?.at, done.at(-1)!.at);
    assert.ok(ofType(events, 'phase').some((e) => e.phase === 'complete'));
    assert.equal(ofType(events, 'progress').length, 1, 'one progress line for the step');
    assert.deepEqual(
      ofType(events, 'pod').map((e) => e.name),
      ['web-2-done1', 'web-2-done2', 'web-2-done3'],
    );
  });

  it('a tick among the observations: each is applied alone, as reduce does', () => {
    const step = [pulling, tick(3), runningPod];
    let state: RolloutState = start();
    for (const o of rollingTo2()) state = reduce(state, o)[0];
    const alone: RolloutEvent[] = [];
    let s = state;
    for (const o of step) {
      const [next, out] = reduce(s, o);
      s = next;
      alone.push(...out);
    }
    assert.deepEqual(stepAfter(rollingTo2(), step).events, alone);
  });

  it('a state a step consumed cannot be used again', () => {
    let state: RolloutState = start();
    for (const o of rollingTo2()) state = reduce(state, o)[0];
    reduceBatch(state, [pulling, runningPod]);
    assert.throws(() => reduceBatch(state, [pulling, runningPod]), /already consumed/);
  });
});

describe("each kind's rule on a step", () => {
  /** `obs` one at a time and with the observations of each second as one step: the same verdict. */
  function sameVerdict(obs: Observation[], target: Parameters<typeof run>[1]): void {
    const one = run(obs, target);
    const state = { ...initialState({ ...TARGET, ...target }, resolvePolicy(), T0), synced: !obs.some((o) => o.type === 'synced') };
    const bySecond: Observation[][] = [];
    for (const o of obs) {
      const open = bySecond.at(-1);
      if (open && open[0]!.at === o.at && isObject(o) && isObject(open[0]!)) open.push(o);
      else bySecond.push([o]);
    }
    assert.ok(
      bySecond.some((s) => s.length > 1),
      'some step holds several observations',
    );
    const batched = applySteps(state, bySecond);
    const v = verdictOf(one.events);
    assert.ok(v, 'the scenario reaches a verdict');
    assert.deepEqual(outcomeOf(batched.events), outcomeOf(one.events));
    assert.equal(ofType(batched.events, 'verdict')[0]?.at, ofType(one.events, 'verdict')[0]?.at);
  }

  it('a StatefulSet whose pods and status complete in one step succeeds', () => {
    const sts = (rev: string, updated: number) =>
      statefulSetObject(
        'db',
        { replicas: 2 },
        { readyReplicas: 2, currentRevision: rev, updateRevision: 'db-2', updatedReplicas: updated },
        2,
      );
    const pods = (rev: string, s: number) =>
      ['db-0', 'db-1'].map((name) => up('Pod', workloadPod('StatefulSet', 'db', { name, revision: rev }), s));
    sameVerdict([...pods('db-1', 1), up('StatefulSet', sts('db-1', 0), 1), ...pods('db-2', 3), up('StatefulSet', sts('db-2', 2), 3)], {
      kind: 'StatefulSet',
      name: 'db',
    });
  });

  it('a Job whose last pod and Failed condition come in one step fails with its pods', () => {
    const running = jobObject('migrate', { backoffLimit: 1 }, { active: 1, failed: 1 });
    sameVerdict(
      [
        up('Job', running, 1),
        up('Pod', failedJobPod('migrate-a', 3, 'no table'), 2),
        up('Pod', failedJobPod('migrate-b', 3, 'no table'), 4),
        up('Job', failedJobObject('migrate', { backoffLimit: 1 }, 2), 4),
      ],
      { kind: 'Job', name: 'migrate' },
    );
  });

  it('a DaemonSet whose pod and status come in one step succeeds', () => {
    const ds = daemonSetObject('agent', { desiredNumberScheduled: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberReady: 1 });
    const p = workloadPod('DaemonSet', 'agent', { name: 'agent-x', revision: '1', node: 'n-1' });
    const node = {
      metadata: { name: 'n-1', labels: {} },
      spec: { taints: [] },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    sameVerdict([up('Node', node, 0), up('Pod', p, 1), up('DaemonSet', ds, 1)], { kind: 'DaemonSet', name: 'agent' });
  });
});
