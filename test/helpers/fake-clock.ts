/**
 * A manual clock for timer tests: `advance(ms)` runs the timers that fall due, in order. Like
 * Node, a delay above 2^31-1 ms (or a negative/NaN one) becomes 1 ms, so a test that hands a huge
 * delay straight to `setTimeout` sees the same premature firing as the real thing.
 */
import type { TimerClock } from '../../src/long-timer.js';

/** A fake {@link TimerClock} with controls. */
export function fakeClock(start = 1_000_000) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const delays: number[] = [];
  const clock: TimerClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const delay = ms > 2 ** 31 - 1 || !(ms >= 1) ? 1 : ms;
      delays.push(ms);
      timers.set(++seq, { at: now + delay, fn });
      return seq;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  function advance(ms: number): void {
    const end = now + ms;
    for (;;) {
      const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  }
  return { clock, advance, pending: () => timers.size, now: () => now, delays };
}
