import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { durationProblem, MAX_TIMER_MS, setLongTimeout } from '../../src/long-timer.js';
import { fakeClock } from '../helpers/fake-clock.js';

const HOUR = 3_600_000;

describe('setLongTimeout', () => {
  for (const hours of [1, 597, 600, 10_000]) {
    it(`fires exactly after ${hours}h, never early, with every timer within Node's limit`, () => {
      const c = fakeClock();
      let firedAt: number | undefined;
      const t0 = c.now();
      setLongTimeout(() => (firedAt = c.now()), hours * HOUR, c.clock);
      c.advance(hours * HOUR - 1);
      assert.equal(firedAt, undefined, 'not before its time');
      c.advance(1);
      assert.equal(firedAt, t0 + hours * HOUR);
      assert.ok(Math.max(...c.delays) <= MAX_TIMER_MS, `delays ${c.delays.join(',')}`);
      assert.equal(c.pending(), 0);
    });
  }

  it('cancel() stops it, also between two chained timers', () => {
    const c = fakeClock();
    let fired = 0;
    const t = setLongTimeout(() => fired++, 100 * 24 * HOUR, c.clock);
    c.advance(MAX_TIMER_MS + 5);
    t.cancel();
    c.advance(200 * 24 * HOUR);
    assert.equal(fired, 0);
    assert.equal(c.pending(), 0);
  });

  it('a zero or negative delay fires on the next turn, not synchronously', () => {
    const c = fakeClock();
    let fired = 0;
    setLongTimeout(() => fired++, -5, c.clock);
    assert.equal(fired, 0);
    c.advance(1);
    assert.equal(fired, 1);
  });

  it('works on the real clock (a short delay)', async () => {
    const t0 = Date.now();
    await new Promise<void>((resolve) => setLongTimeout(resolve, 30));
    assert.ok(Date.now() - t0 >= 25);
  });
});

describe('durationProblem', () => {
  it('accepts any finite duration up to Number.MAX_SAFE_INTEGER ms', () => {
    for (const s of [0, 0.001, 600, 597 * 3600, 1e9, Number.MAX_SAFE_INTEGER / 1000])
      assert.equal(durationProblem(s), undefined, String(s));
  });
  it('rejects NaN, non-numbers, Infinity and more than Number.MAX_SAFE_INTEGER ms', () => {
    assert.match(durationProblem(Number.NaN) ?? '', /not a number/);
    assert.match(durationProblem('10') ?? '', /not a number/);
    for (const s of [Number.POSITIVE_INFINITY, 1e13, Number.MAX_SAFE_INTEGER])
      assert.match(durationProblem(s) ?? '', /longer than the longest/);
  });
});
