/**
 * The watch after a verdict (`--watch`): the same reducer, reopened, narrates later changes. A pod
 * of the judged revision deleted and replaced is not that revision's rollout again (no phase
 * lines); a later revision is a rollout of its own.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Observation, RolloutEvent, RolloutState } from '../../../src/core/index.js';
import { VerdictWatch } from '../../../src/track/verdict-watch.js';
import { availableTrue, del, deployment, ofType, pod, progressing, replicaSet, run, up } from './builders.js';
import { doneAt2, UPDATE } from './scenario.js';

/** What the tracker's watch after the verdict publishes for `observations`. */
function watchOn(state: RolloutState, observations: Observation[]): RolloutEvent[] {
  const events: RolloutEvent[] = [];
  const watch = new VerdictWatch(state, (e) => events.push(e));
  watch.verdictPublished();
  for (const obs of observations) watch.observe(obs);
  return events;
}

test('a pod of the judged revision deleted and replaced after the verdict: its pods, no phases', () => {
  const { state, events } = run(doneAt2(1), UPDATE);
  assert.equal(ofType(events, 'verdict')[0]?.verdict.outcome, 'succeeded');
  const after = watchOn(state, [
    del('Pod', pod({ name: 'web-2-done1', rs: 'web-2' }), 3),
    up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 3, ready: 2 }), 3),
    up('Pod', pod({ name: 'web-2-again', rs: 'web-2', ready: false }), 4),
    up('Pod', pod({ name: 'web-2-again', rs: 'web-2' }), 6),
    up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 3, ready: 3 }), 6),
  ]);
  assert.ok(
    ofType(after, 'pod-deleted').some((e) => e.name === 'web-2-done1'),
    JSON.stringify(after.map((e) => e.type)),
  );
  assert.ok(ofType(after, 'pod').some((e) => e.name === 'web-2-again'));
  assert.deepEqual(
    ofType(after, 'phase').map((e) => e.message),
    [],
  );
  assert.deepEqual(ofType(after, 'verdict'), [], 'never a second verdict');
});

test('a new revision after the verdict: its own phases', () => {
  const { state } = run(doneAt2(1), UPDATE);
  const after = watchOn(state, [
    up('ReplicaSet', replicaSet({ name: 'web-3', revision: '3', replicas: 1, ready: 0, image: 'nginx:nope' }), 3),
    up(
      'Deployment',
      deployment({
        revision: '3',
        generation: 3,
        image: 'nginx:nope',
        conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-3')],
      }),
      3,
    ),
  ]);
  assert.deepEqual(
    ofType(after, 'phase').map((e) => e.phase),
    ['new-replicaset', 'scaling-up'],
  );
});
