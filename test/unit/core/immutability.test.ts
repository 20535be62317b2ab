/**
 * The reducer's ownership contract: `reduce` never mutates observations; it consumes the state it
 * is given (caches are updated in place, O(1) per observation) and refuses an already consumed one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, RolloutEvent, RolloutState } from '../../../src/core/index.js';
import { initialState, reduce, resolvePolicy } from '../../../src/core/index.js';
import { loadFixture, replay } from '../../fixtures/replay.js';

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v, seen);
  return Object.freeze(value);
}

describe('ownership', () => {
  for (const name of ['update-to-2', 'broken-image', 'crash-loop']) {
    it(`${name}: replaying deep-frozen observations gives the same events, and the same again`, () => {
      const f = loadFixture(name);
      let state: RolloutState = initialState(f.target, resolvePolicy(), f.t0);
      const events: RolloutEvent[] = [];
      for (const o of f.observations) {
        const obs = deepFreeze(structuredClone({ ...o, at: o.at + f.t0 }) as Observation);
        const [next, out] = reduce(state, obs);
        state = next;
        events.push(...out);
      }
      assert.ok(events.some((e) => e.type === 'verdict'));
      assert.deepEqual(events, replay(f).events);
      assert.deepEqual(replay(f).events, replay(f).events, 'each replay starts from its own fresh state');
    });
  }

  it('refuses a state that was already passed to reduce, naming the rule', () => {
    const f = loadFixture('update-to-2');
    const first = initialState(f.target, resolvePolicy(), f.t0);
    const [second] = reduce(first, { type: 'tick', at: f.t0 + 1000 });
    assert.throws(() => reduce(first, { type: 'tick', at: f.t0 + 2000 }), /already consumed.*pass only the newest state/);
    const [third, out] = reduce(second, { type: 'tick', at: f.t0 + 2000 });
    assert.equal(third.now, f.t0 + 2000);
    assert.deepEqual(out, []);
  });

  it('keeps at most 32 Events per involved object and forgets the oldest', () => {
    const f = loadFixture('update-to-2');
    let state = initialState(f.target, resolvePolicy(), f.t0);
    [state] = reduce(state, { type: 'synced', at: f.t0 });
    for (let i = 0; i < 100; i++) {
      const event = {
        metadata: { uid: `ev-${i}`, name: `web-1.${i}`, resourceVersion: `${i}` },
        involvedObject: { kind: 'Pod', name: 'web-1' },
        reason: 'BackOff',
        message: `m${i}`,
        type: 'Warning',
      };
      [state] = reduce(state, { type: 'upsert', kind: 'Event', object: event, at: f.t0 + i } as Observation);
    }
    assert.equal(state.kubeEventsByObject.get('web-1')?.length, 32);
    assert.equal(state.kubeEvents.size, 32);
    assert.equal(state.kubeEvents.has('ev-67'), false);
    assert.equal(state.kubeEvents.has('ev-68'), true);
  });
});
