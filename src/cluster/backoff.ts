/**
 * Exponential back-off with full jitter, for reconnecting watches and retrying lists.
 */
import { setLongTimeout } from '../long-timer.js';

/** Back-off settings (milliseconds). */
export interface BackoffOptions {
  /** First delay. Default 500. */
  initialMs?: number;
  /** Upper bound of any delay. Default 10 000. */
  maxMs?: number;
  /** Growth per failure. Default 2. */
  factor?: number;
  /** Random source in [0, 1); injectable for tests. */
  random?: () => number;
}

/**
 * Produces delays `initial * factor^n` capped at `max`, each jittered to a random value between
 * half and all of it (so many clients reconnecting after an apiserver restart spread out).
 */
export class Backoff {
  private failures = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly random: () => number;

  constructor(opts: BackoffOptions = {}) {
    this.initialMs = opts.initialMs ?? 500;
    this.maxMs = opts.maxMs ?? 10_000;
    this.factor = opts.factor ?? 2;
    this.random = opts.random ?? Math.random;
  }

  /** The delay before the next attempt; grows with each call until {@link reset}. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * this.factor ** this.failures);
    this.failures++;
    return Math.round(base / 2 + (base / 2) * this.random());
  }

  /** Call after a success: the next failure starts from the initial delay again. */
  reset(): void {
    this.failures = 0;
  }

  /** Consecutive failures since the last reset. */
  get attempts(): number {
    return this.failures;
  }
}

/** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setLongTimeout(done, ms);
    function done() {
      timer.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
