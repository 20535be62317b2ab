/**
 * A tracker's ticks (src/track/tick-schedule.ts): one a period, paused while every tick would
 * change nothing, and on resume the next one a period (or a nearer problem deadline) later.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { RolloutEvent } from '../../../src/core/index.js';
import { TickSchedule } from '../../../src/track/tick-schedule.js';

describe('tick schedule', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it('ticks once a period, none while paused, and again a period after resuming', () => {
    let ticks = 0;
    const schedule = new TickSchedule(1000, () => ticks++);
    schedule.start();
    mock.timers.tick(1000);
    assert.equal(ticks, 1);
    schedule.pause();
    assert.equal(schedule.paused, true);
    mock.timers.tick(10_000);
    assert.equal(ticks, 1, 'no tick while paused');
    schedule.start();
    mock.timers.tick(10_000);
    assert.equal(ticks, 1, 'start does not undo a pause');
    schedule.resume();
    assert.equal(schedule.paused, false);
    mock.timers.tick(999);
    assert.equal(ticks, 1);
    mock.timers.tick(1);
    assert.equal(ticks, 2, 'a period after resuming');
    schedule.stop();
    mock.timers.tick(5000);
    assert.equal(ticks, 2);
  });

  it('a tick that pauses the schedule is the last until resumed', () => {
    let ticks = 0;
    const schedule = new TickSchedule(1000, () => {
      ticks++;
      schedule.pause();
    });
    schedule.start();
    mock.timers.tick(5000);
    assert.equal(ticks, 1);
  });

  it('keeps a problem deadline seen while paused, and ticks just after it once resumed', () => {
    let ticks = 0;
    const schedule = new TickSchedule(1000, () => ticks++);
    schedule.start();
    schedule.pause();
    const failsAt = Date.now() + 300;
    schedule.saw({ type: 'problem', failsAt, problem: { id: 'p' } } as unknown as RolloutEvent);
    schedule.resume();
    mock.timers.tick(300);
    assert.equal(ticks, 0);
    mock.timers.tick(1);
    assert.equal(ticks, 1, 'just after the deadline, not a period later');
    schedule.stop();
  });
});
