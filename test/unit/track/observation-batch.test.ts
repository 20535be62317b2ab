/**
 * The order in which a tracker applies observations (src/track/observation-batch.ts): the object
 * observations of a read batch are applied as one step once the batch is delivered; anything else
 * (a sync, a tick the tracker makes, a line delivered alone) is applied alone, after what came before it.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { BATCH_MS, deliverLater, deliverNow, drainReadBatches } from '../../../src/cluster/read-batches.js';
import type { Observation } from '../../../src/core/index.js';
import { ObservationBatch } from '../../../src/track/observation-batch.js';

const pod = (name: string, at = 1): Observation => ({ type: 'upsert', kind: 'Pod', object: { metadata: { name } }, at }) as Observation;
const nameOf = (o: Observation) => (o.type === 'upsert' || o.type === 'delete' ? (o.object.metadata?.name ?? '') : o.type);

describe('observation batches', () => {
  let steps: string[][];
  let batch: ObservationBatch;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    steps = [];
    batch = new ObservationBatch((step) => steps.push(step.map(nameOf)));
  });
  afterEach(() => {
    drainReadBatches();
    mock.timers.reset();
  });

  it("a read batch's object observations are one step, applied once the batch is delivered", () => {
    deliverLater(() => batch.fromSource(pod('a')));
    deliverLater(() => batch.fromSource(pod('b')));
    assert.deepEqual(steps, []);
    deliverNow(() => batch.fromSource(pod('web')));
    assert.deepEqual(steps, [['a', 'b', 'web']]);
  });

  it('a line delivered alone, and any other observation, is a step of its own after what came before it', () => {
    batch.fromSource(pod('alone'));
    deliverLater(() => batch.fromSource(pod('a')));
    deliverLater(() => batch.fromSource({ type: 'synced', at: 2 }));
    deliverLater(() => batch.fromSource(pod('b')));
    mock.timers.tick(BATCH_MS);
    assert.deepEqual(steps, [['alone'], ['a'], ['synced'], ['b']]);
  });

  it("the tracker's own observation comes after every line read before it", () => {
    deliverLater(() => batch.fromSource(pod('a')));
    deliverLater(() => batch.fromSource(pod('b')));
    batch.own({ type: 'tick', at: 3 });
    assert.deepEqual(steps, [['a', 'b'], ['tick']]);
  });

  it('an observation of its own made while a batch is delivered comes after what the batch held', () => {
    deliverLater(() => batch.fromSource(pod('a')));
    deliverLater(() => batch.own({ type: 'tick', at: 3 }));
    deliverLater(() => batch.fromSource(pod('b')));
    mock.timers.tick(BATCH_MS);
    assert.deepEqual(steps, [['a'], ['tick'], ['b']]);
  });
});
