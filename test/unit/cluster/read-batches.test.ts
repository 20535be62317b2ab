/**
 * Watch lines in batches (src/cluster/read-batches.ts, line-watch.ts): the lines of a batched
 * watch wait at most BATCH_MS and then come together, in the order they arrived; a line of a watch
 * that is not batched, and a watch's end, come after everything that arrived before them, at once.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { LineWatch, readLines } from '../../../src/cluster/line-watch.js';
import {
  afterReadBatch,
  BATCH_MS,
  deliveringReadBatch,
  deliverLater,
  deliverNow,
  drainReadBatches,
} from '../../../src/cluster/read-batches.js';
import { trackRolloutWith } from '../../../src/track/tracker.js';
import { localKubeConfig } from '../../helpers/local-kubeconfig.js';

const line = (name: string) => `${JSON.stringify({ type: 'ADDED', object: { metadata: { name } } })}\n`;

describe('read batches', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => {
    drainReadBatches();
    mock.timers.reset();
  });

  it('holds deliveries until BATCH_MS after the first, then runs them in order', () => {
    assert.ok(BATCH_MS > 0 && BATCH_MS <= 100, `BATCH_MS ${BATCH_MS}`);
    const ran: string[] = [];
    deliverLater(() => ran.push('a'));
    mock.timers.tick(BATCH_MS - 1);
    deliverLater(() => ran.push('b'));
    assert.equal(ran.length, 0);
    mock.timers.tick(1);
    assert.deepEqual(ran, ['a', 'b']);
    deliverLater(() => ran.push('c'));
    mock.timers.tick(BATCH_MS - 1);
    assert.deepEqual(ran, ['a', 'b'], 'a new batch waits from its own first delivery');
    mock.timers.tick(1);
    assert.deepEqual(ran, ['a', 'b', 'c']);
  });

  it('a delivery that must not wait runs at once, after everything queued before it', () => {
    const ran: string[] = [];
    deliverLater(() => ran.push('pod 1'));
    deliverLater(() => ran.push('pod 2'));
    deliverNow(() => ran.push('deployment'));
    assert.deepEqual(ran, ['pod 1', 'pod 2', 'deployment']);
    deliverNow(() => ran.push('alone'));
    assert.deepEqual(ran.at(-1), 'alone');
    mock.timers.tick(BATCH_MS);
    assert.equal(ran.length, 4, 'nothing runs twice');
  });

  it('what a batch registers after it runs once the whole batch was delivered, before the drain returns', () => {
    const ran: string[] = [];
    assert.equal(deliveringReadBatch(), false);
    const deliver = (name: string) => () => {
      ran.push(`${name} ${deliveringReadBatch() ? 'in a batch' : 'alone'}`);
      if (name === 'pod 1') afterReadBatch(() => ran.push('flush'));
    };
    deliverLater(deliver('pod 1'));
    deliverLater(deliver('pod 2'));
    deliverNow(deliver('deployment'));
    assert.deepEqual(ran, ['pod 1 in a batch', 'pod 2 in a batch', 'deployment in a batch', 'flush']);
    deliverNow(deliver('alone'));
    assert.equal(ran.at(-1), 'alone alone', 'a line with nothing queued before it is no batch');
    // A flush that queues a delivery: it is delivered in the same drain.
    deliverLater(() => afterReadBatch(() => deliverLater(() => ran.push('queued by a flush'))));
    mock.timers.tick(BATCH_MS);
    assert.equal(ran.at(-1), 'queued by a flush');
    assert.equal(deliveringReadBatch(), false);
  });

  it('a delivery that throws does not keep the others from running, and its error is not lost', () => {
    const ran: string[] = [];
    deliverLater(() => {
      throw new Error('listener failed');
    });
    deliverLater(() => ran.push('after'));
    assert.throws(() => mock.timers.tick(BATCH_MS), /listener failed/);
    assert.deepEqual(ran, ['after']);
    deliverLater(() => ran.push('next batch'));
    mock.timers.tick(BATCH_MS);
    assert.deepEqual(ran, ['after', 'next batch']);
  });

  it("batched lines wait, and another stream's line comes after them: the order of arrival", () => {
    const seen: string[] = [];
    const record = (_type: string, o: { metadata: { name: string } }) => seen.push(o.metadata.name);
    const pods = new PassThrough();
    const deployments = new PassThrough();
    let heard = 0;
    readLines(pods, () => heard++, record, undefined, true);
    readLines(deployments, () => heard++, record);
    pods.emit('data', line('pod-a') + line('pod-b').slice(0, 10));
    pods.emit('data', line('pod-b').slice(10));
    assert.deepEqual(seen, [], 'the batched lines wait');
    assert.equal(heard, 2, 'each chunk is a sign of life at once');
    deployments.emit('data', line('web'));
    assert.deepEqual(seen, ['pod-a', 'pod-b', 'web']);
    pods.emit('data', line('pod-c'));
    mock.timers.tick(BATCH_MS);
    assert.deepEqual(seen, ['pod-a', 'pod-b', 'web', 'pod-c']);
  });
});

describe('a tracker', () => {
  it('makes its own observations (a tick) after every line read before them', async () => {
    const order: string[] = [];
    const tracking = trackRolloutWith({ name: 'web', namespace: 'ns', kubeconfig: localKubeConfig('http://127.0.0.1:9') }, {});
    // A line read before the tracker's first tick, which emits `started` on the next turn.
    deliverLater(() => order.push('line'));
    const started = new Promise<void>((resolve) =>
      tracking.subscribe((e) => {
        if (e.type !== 'started') return;
        order.push('started');
        resolve();
      }),
    );
    await started;
    tracking.stop();
    await tracking.verdict;
    assert.deepEqual(order, ['line', 'started']);
  });
});

describe('a batched watch', () => {
  it('ends after every line it received', async () => {
    const LINES = 40;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Array.from({ length: LINES }, (_, i) => line(`p${i}`)).join(''));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const kc = localKubeConfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const seen: string[] = [];
      const atEnd = await new Promise<number>((resolve) => {
        const record = (_type: string, o: { metadata: { name: string } }) => seen.push(o.metadata.name);
        void new LineWatch(kc).watch('/api/v1/pods', {}, record, () => resolve(seen.length), undefined, true);
      });
      assert.equal(atEnd, LINES, 'every line was delivered before the end');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
