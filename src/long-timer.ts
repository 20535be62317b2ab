/**
 * Timers of any length. Node's `setTimeout` takes at most 2^31-1 ms (about 24.8 days): a longer
 * delay fires after 1 ms with a TimeoutOverflowWarning, so `--timeout 600h` would end a healthy
 * rollout at once. {@link setLongTimeout} chains timers of at most that size and checks the due
 * time on each wake-up, so every duration a user can type works.
 */

/** The longest delay Node's `setTimeout` honours (ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The longest duration accepted anywhere (ms): beyond it, times lose integer precision. */
export const MAX_DURATION_MS = Number.MAX_SAFE_INTEGER;

/** Time and timers, injectable for tests. */
export interface TimerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process clock. */
export const realClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** A pending {@link setLongTimeout}. */
export interface LongTimer {
  /** Cancels it (idempotent). */
  cancel(): void;
  /** Lets the process exit while it is pending (like `Timeout.unref`). Returns the timer. */
  unref(): LongTimer;
}

/**
 * Calls `fn` once `ms` milliseconds have passed (per `clock.now()`), whatever the size of `ms`.
 * A NaN or negative `ms` counts as 0; `Infinity` never fires.
 */
export function setLongTimeout(fn: () => void, ms: number, clock: TimerClock = realClock): LongTimer {
  const due = clock.now() + (Number.isNaN(ms) ? 0 : Math.max(ms, 0));
  let handle: unknown;
  let cancelled = false;
  let unrefd = false;
  const arm = (): void => {
    const remaining = due - clock.now();
    if (remaining <= 0) {
      handle = undefined;
      fn();
      return;
    }
    if (remaining === Number.POSITIVE_INFINITY) return;
    handle = clock.setTimeout(wake, Math.min(remaining, MAX_TIMER_MS));
    if (unrefd) (handle as { unref?: () => void } | undefined)?.unref?.();
  };
  const wake = (): void => {
    if (!cancelled) arm();
  };
  // The first check happens in a timer too, so `fn` never runs before the caller gets the handle.
  handle = clock.setTimeout(wake, Math.min(Math.max(0, due - clock.now()), MAX_TIMER_MS));
  const timer: LongTimer = {
    cancel() {
      cancelled = true;
      if (handle !== undefined) clock.clearTimeout(handle);
      handle = undefined;
    },
    unref() {
      unrefd = true;
      (handle as { unref?: () => void } | undefined)?.unref?.();
      return timer;
    },
  };
  return timer;
}

/**
 * A duration check for every API and flag: `seconds` must be a finite number whose milliseconds
 * stay within {@link MAX_DURATION_MS}. Returns a reason when it is not, for a one-paragraph error.
 */
export function durationProblem(seconds: unknown): string | undefined {
  if (typeof seconds !== 'number' || Number.isNaN(seconds)) return 'it is not a number';
  if (!Number.isFinite(seconds) || seconds * 1000 > MAX_DURATION_MS) {
    return `it is longer than the longest duration supported (${Math.floor(MAX_DURATION_MS / 3_600_000)}h, about 285 000 years)`;
  }
  return undefined;
}
