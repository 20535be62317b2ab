/** `reduce` treats its input state as immutable: deep-frozen states must replay identically. */
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

describe('immutability', () => {
  for (const name of ['update-to-2', 'broken-image', 'crash-loop']) {
    it(`${name}: replaying with deep-frozen states and observations gives the same events`, () => {
      const f = loadFixture(name);
      let state: RolloutState = deepFreeze(initialState(f.target, resolvePolicy(), f.t0));
      const events: RolloutEvent[] = [];
      for (const o of f.observations) {
        const obs = deepFreeze(structuredClone({ ...o, at: o.at + f.t0 }) as Observation);
        const before = JSON.stringify(state);
        const [next, out] = reduce(state, obs);
        assert.equal(JSON.stringify(state), before);
        state = deepFreeze(next);
        events.push(...out);
      }
      assert.deepEqual(events, replay(f).events);
    });
  }
});
