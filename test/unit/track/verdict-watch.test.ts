/**
 * The watch after the verdict (`--watch`): the tracker's own reducer state, reopened, reports later
 * changes by the route every observation takes; nothing before the verdict is published, never a
 * second verdict.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation, RolloutEvent } from '../../../src/core/index.js';
import { reduce } from '../../../src/core/index.js';
import { VerdictWatch } from '../../../src/track/verdict-watch.js';
import { availableTrue, deployment, ofType, progressing, replicaSet, run, up, verdictOf } from '../core/builders.js';
import { doneAt2, rollingTo2, UPDATE } from '../core/scenario.js';

/** Revision 3 written after the verdict, then rolled out. */
function revision3(at: number): Observation[] {
  return [
    up('ReplicaSet', replicaSet({ name: 'web-3', revision: '3', replicas: 3, ready: 3, image: 'nginx:3' }), at),
    up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 0, ready: 0, statusReplicas: 0 }), at),
    up(
      'Deployment',
      deployment({
        revision: '3',
        generation: 3,
        image: 'nginx:3',
        conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-3')],
      }),
      at,
    ),
  ];
}

function succeeded() {
  const { state, events } = run([...rollingTo2(), { type: 'synced', at: 1 }, ...doneAt2(2)], UPDATE);
  assert.equal(verdictOf(events)?.outcome, 'succeeded', JSON.stringify(events.map((e) => e.type)));
  return state;
}

test('after the verdict the plain reducer is final: a new revision emits nothing', () => {
  let state = succeeded();
  const out: RolloutEvent[] = [];
  for (const obs of revision3(10)) {
    const [next, events] = reduce(state, obs);
    state = next;
    out.push(...events);
  }
  assert.deepEqual(out, []);
});

test('the watch reports a new revision after the verdict is published, and never a second verdict', () => {
  const published: RolloutEvent[] = [];
  const watch = new VerdictWatch(succeeded(), (e) => published.push(e));
  for (const obs of revision3(10)) watch.observe(obs);
  assert.deepEqual(published, [], 'held until the verdict is out');
  watch.verdictPublished();
  assert.deepEqual(
    ofType(published, 'revision').map((e) => e.revision),
    ['3'],
  );
  assert.deepEqual(ofType(published, 'superseded'), [{ ...ofType(published, 'superseded')[0]!, revision: '2', by: '3' }]);
  for (const obs of revision3(20)) watch.observe(obs);
  watch.observe({ type: 'tick', at: 30 });
  assert.deepEqual(ofType(published, 'verdict'), []);
});
