/**
 * Ticks paused while the state depends on no time (src/core/idle-tick.ts, the tracker's
 * `pauseOrResumeTicks`): each recorded fixture, replayed with a tick every second, gives exactly
 * the same events when the ticks that the pause skips are left out, and the pause does skip some.
 * A resume rule that missed a change making time matter (a restarted pod, an open problem, a new
 * current set) would drop a tick that fails, holds or reports something, and the events would differ.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  currentPodsKey,
  idleTick,
  initialState,
  type Observation,
  type RolloutEvent,
  type RolloutState,
  reduce,
  resolvePolicy,
  ticksMatterAfter,
} from '../../../src/core/index.js';
import { FIXTURES, fixtureTimeline } from '../../fixtures/replay.js';
import { availableTrue, deployment, imageOf, iso, pod, replicaSet, running, T0, TARGET, tick, up, waiting } from './builders.js';
import { rollingTo2, UPDATE } from './scenario.js';

/** Pod `<rs>-a`, Pending while its init container runs (since second 1). */
function initializing(rs = 'web-2') {
  return pod({
    name: `${rs}-a`,
    rs,
    phase: 'Pending',
    ready: false,
    initContainers: [running('wait-db', { ready: false, startedAt: iso(1) })],
    initSpecs: [{ name: 'wait-db', image: 'busybox:1.32' }],
    containers: [waiting('PodInitializing', undefined)],
  });
}

/** Replays fixture `name` cut to `share`; with `pausing`, a tick is left out while the tracker would have paused them. */
function replay(name: string, share: number, pausing: boolean): { events: RolloutEvent[]; skipped: number } {
  const { f, obs } = fixtureTimeline(name, share);
  return replayFrom(initialState(f.target, resolvePolicy(), f.t0), obs, pausing);
}

/** Replays `obs` from `state`, as {@link replay}. */
function replayFrom(state: RolloutState, obs: Observation[], pausing: boolean): { events: RolloutEvent[]; skipped: number } {
  const events: RolloutEvent[] = [];
  let paused = false;
  let skipped = 0;
  for (const o of obs) {
    if (paused && o.type === 'tick') {
      skipped++;
      continue;
    }
    const keyBefore = paused ? currentPodsKey(state) : undefined;
    const [next, out] = reduce(state, o);
    state = next;
    events.push(...out);
    if (out.some((e) => e.type === 'verdict')) break;
    if (!pausing) continue;
    if (o.type === 'tick') paused = idleTick(state);
    else if (paused && ticksMatterAfter(state, o, keyBefore)) paused = false;
  }
  return { events, skipped };
}

describe('ticks paused while nothing depends on time', () => {
  let skippedInAll = 0;
  for (const name of FIXTURES) {
    for (const share of [1, 0.75, 0.5, 0.25]) {
      it(`${name}, ${share * 100} % of it: the same events with the paused ticks left out`, () => {
        const every = replay(name, share, false);
        const paused = replay(name, share, true);
        assert.deepEqual(paused.events, every.events);
        skippedInAll += paused.skipped;
      });
    }
  }
  it('the pause skips ticks (the comparison above is not empty)', () => {
    assert.ok(skippedInAll > 100, `skipped ${skippedInAll} ticks`);
  });

  it('a pod whose init container runs makes ticks matter, with no problem open yet', () => {
    // Only ticks report it (after 30 s): its pod's observation must resume them.
    const ticks = Array.from({ length: 60 }, (_, i) => tick(i));
    const obs = [...rollingTo2(), up('Pod', initializing(), 2), ...ticks].sort((a, b) => a.at - b.at);
    const start = () => ({ ...initialState({ ...TARGET, ...UPDATE }, resolvePolicy(), T0), synced: true });
    const every = replayFrom(start(), obs, false);
    const paused = replayFrom(start(), obs, true);
    assert.ok(every.events.some((e) => e.type === 'problem' && e.problem.class === 'init-running'));
    assert.deepEqual(paused.events, every.events);
  });

  it('a rollback that makes such a pod current makes ticks matter: the current set changed', () => {
    // web-1-a waits in its init container while web-2 is current (ticks pause), then web-1 is current again.
    const rollback = [
      up('ReplicaSet', replicaSet({ name: 'web-1', revision: '3', history: '1', ready: 0, image: imageOf('1') }), 5),
      up('Deployment', deployment({ revision: '3', generation: 3, image: imageOf('1'), conditions: [availableTrue] }), 5),
    ];
    const ticks = Array.from({ length: 60 }, (_, i) => tick(i));
    const obs = [...rollingTo2(), up('Pod', initializing('web-1'), 2), ...rollback, ...ticks].sort((a, b) => a.at - b.at);
    const start = () => ({ ...initialState({ ...TARGET, ...UPDATE }, resolvePolicy(), T0), synced: true });
    const every = replayFrom(start(), obs, false);
    const paused = replayFrom(start(), obs, true);
    assert.ok(every.events.some((e) => e.type === 'problem' && e.problem.class === 'init-running'));
    assert.ok(paused.skipped > 0, 'ticks were paused before the rollback');
    assert.deepEqual(paused.events, every.events);
  });
});
