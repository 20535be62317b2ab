/**
 * A shared namespace watch delivers every Deployment's objects to every tracker. Another
 * Deployment's objects and re-delivered (same resourceVersion) objects must change nothing: the
 * events are exactly those of the plain replay.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, RolloutEvent } from '../../../src/core/index.js';
import { initialState, reduce, resolvePolicy } from '../../../src/core/index.js';
import { type Fixture, loadFixture, replay } from '../../fixtures/replay.js';

const ALL = [
  'first-rollout',
  'update-to-2',
  'broken-image',
  'crash-loop',
  'not-ready',
  'missing-configmap',
  'unschedulable',
  'quota',
  'rollback',
];

/** The fixture's watch observations as if for Deployment `other` (names and UIDs changed). */
function otherDeployment(f: Fixture, other: string): Observation[] {
  const text = JSON.stringify(f.observations.filter((o) => 'kind' in o))
    .replace(new RegExp(`"${f.target.name}"`, 'g'), `"${other}"`)
    .replace(new RegExp(`"${f.target.name}-`, 'g'), `"${other}-`)
    .replace(/\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{10})[0-9a-f]{2}\b/g, '$1ff');
  return JSON.parse(text) as Observation[];
}

function replayShared(f: Fixture): RolloutEvent[] {
  const others = otherDeployment(f, 'zz-other');
  let state = initialState(f.target, resolvePolicy(), f.t0);
  const events: RolloutEvent[] = [];
  const feed = (o: Observation) => {
    const [next, out] = reduce(state, { ...o, at: o.at + f.t0 } as Observation);
    state = next;
    events.push(...out);
  };
  let j = 0;
  for (const o of f.observations) {
    // The other Deployment's objects up to this time, then this one; watch objects twice.
    while (j < others.length && others[j].at <= o.at) feed(others[j++]);
    feed(o);
    if ('kind' in o && o.type === 'upsert') feed(o);
  }
  return events;
}

describe('shared namespace watch: foreign and repeated objects change nothing', () => {
  for (const name of ALL) {
    it(`${name}: same events as the plain replay`, () => {
      const f = loadFixture(name);
      const plain = replay(f).events;
      const shared = replayShared(f);
      assert.ok(plain.length > 5);
      assert.deepEqual(shared, plain);
    });
  }
});
