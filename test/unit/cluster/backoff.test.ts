import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTransient, statusOf } from '../../../src/cluster/api-errors.js';
import { Backoff, sleep } from '../../../src/cluster/backoff.js';

describe('Backoff', () => {
  it('doubles from 0.5 s up to 10 s, jittered between half and all of each step', () => {
    const lo = new Backoff({ random: () => 0 });
    const hi = new Backoff({ random: () => 0.999999 });
    const los = Array.from({ length: 8 }, () => lo.next());
    const his = Array.from({ length: 8 }, () => hi.next());
    assert.deepEqual(los, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    assert.deepEqual(his, [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('starts over after reset', () => {
    const b = new Backoff({ random: () => 1 - Number.EPSILON });
    b.next();
    b.next();
    assert.equal(b.attempts, 2);
    b.reset();
    assert.equal(b.attempts, 0);
    assert.equal(b.next(), 500);
  });

  it('spreads delays with real randomness', () => {
    const delays = new Set(Array.from({ length: 20 }, () => new Backoff().next()));
    assert.ok(delays.size > 5, 'jitter spreads reconnects');
    for (const d of delays) assert.ok(d >= 250 && d <= 500);
  });

  it('sleep ends early on abort', async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 20);
    await sleep(5000, ac.signal);
    assert.ok(Date.now() - t0 < 1000);
  });
});

describe('error classification', () => {
  it('retries network errors, 408, 429 and 5xx; not 4xx', () => {
    assert.equal(isTransient(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })), true);
    assert.equal(isTransient({ statusCode: 503 }), true);
    assert.equal(isTransient({ code: 429 }), true);
    assert.equal(isTransient({ code: 403 }), false);
    assert.equal(statusOf({ statusCode: 410 }), 410);
    assert.equal(statusOf(Object.assign(new Error('x'), { code: 'ECONNRESET' })), undefined);
  });
});
