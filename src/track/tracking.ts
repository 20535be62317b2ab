/**
 * The handle a caller holds for one traced rollout ({@link Tracking}): its event stream and its
 * verdict. The tracker (rollout-tracker.ts) makes live ones; {@link failedTracking} one that never started.
 */
import type { RolloutEvent, Verdict } from '../core/index.js';
import { EventHub } from './event-hub.js';

/** A running rollout trace: an event stream (listeners and async iteration) and its verdict. */
export interface Tracking extends AsyncIterable<RolloutEvent> {
  /**
   * The final answer. Resolves for every rollout outcome (succeeded, failed, timed-out,
   * cancelled); rejects only with a {@link RolloutTraceError} (bad input, kubeconfig, forbidden,
   * unreachable cluster, missing namespace or Deployment).
   */
  readonly verdict: Promise<Verdict>;
  /** Calls `listener` with every event so far and every later one. Returns the unsubscribe function. */
  subscribe(listener: (e: RolloutEvent) => void): () => void;
  /** Cancels tracking (verdict `cancelled`) and closes every watch; same as aborting `signal`. */
  stop(reason?: string): void;
}

/**
 * A {@link Tracking} over `hub`'s events and `verdict`. A rejected verdict that nobody looks at
 * does not crash the process.
 */
export function trackingOf(hub: EventHub<RolloutEvent>, verdict: Promise<Verdict>, stop: (reason?: string) => void): Tracking {
  verdict.catch(() => undefined);
  return {
    verdict,
    subscribe: (l) => hub.subscribe(l),
    stop,
    [Symbol.asyncIterator]: () => hub[Symbol.asyncIterator](),
  };
}

/** A Tracking that failed before starting: no events, verdict rejected. */
export function failedTracking(err: unknown): Tracking {
  const hub = new EventHub<RolloutEvent>();
  hub.end(err);
  return trackingOf(hub, Promise.reject(err), () => undefined);
}
