/**
 * After the first contact, a request that waits for its answer longer than
 * {@link UNANSWERED_PROBE_MS} makes the source probe the apiserver on fresh connections
 * (checkReachable, its probes hedged): a probe that answers at once means the request is merely
 * slow (a large list) and nothing more is done for it; one that answers after others went
 * unanswered ends an outage: the silent requests are sent again (unanswered.ts) and
 * `recovered(since)` lets the source re-open the watches that may have been cut: those that heard
 * nothing since {@link CUT_MARGIN_MS} after the outage's first unanswered request was sent (a watch
 * can hear a last line after that request left and before the outage reached it).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { checkReachable } from './reachability.js';
import { oldestUnanswered, serverOrigin } from './unanswered.js';

/** A request unanswered for this long (ms) is checked with a probe. */
export const UNANSWERED_PROBE_MS = 2000;

/**
 * A watch that heard a line this long after the outage's first unanswered request was sent is
 * alive, not cut. The request that finds an outage was sent at most about {@link UNANSWERED_PROBE_MS}
 * (and one check) before the outage began: one sent earlier and unanswered was checked by a probe
 * that answered at once, and is no longer counted. A watch cut by the outage heard its last line
 * before the outage began.
 */
export const CUT_MARGIN_MS = UNANSWERED_PROBE_MS + 1000;

/** First lists without an answer for this long (ms) after the first contact are said once. */
export const FIRST_LISTS_NOTICE_MS = 5000;

/** What the trace waits for before it can say anything: the first lists still to come. */
export interface FirstLists {
  /** The resources whose first list is still to come (empty once all came). */
  unlisted(): string[];
  /** Says a line naming them. */
  say(message: string): void;
}

/** Probes the apiserver while one of the source's requests waits too long for its answer. */
export class UnansweredMonitor {
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  /** Requests sent before this were already checked by a probe that answered at once. */
  private checkedUntil = 0;
  private readonly stopped = new AbortController();
  private readonly server: string;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    /** An outage ended: a watch that heard nothing since `since` (epoch ms) may have been cut by it. */
    private readonly recovered: (since: number) => void,
    /** A trace that sees nothing must not be silent: first lists with no answer for a while are said. */
    private readonly firstLists?: FirstLists,
  ) {
    this.server = serverOrigin(kc.getCurrentCluster()?.server ?? '');
  }

  /** Starts checking (every half second). */
  start(): void {
    if (this.timer || this.stopped.signal.aborted) return;
    const started = Date.now();
    let said = this.firstLists === undefined;
    this.timer = setInterval(() => {
      void this.check();
      if (said || Date.now() - started < FIRST_LISTS_NOTICE_MS) return;
      const unlisted = this.firstLists!.unlisted();
      said = true;
      if (unlisted.length === 0) return;
      const seconds = Math.round((Date.now() - started) / 1000);
      this.firstLists!.say(
        `waiting for the API server ${this.kc.getCurrentCluster()?.server}: no answer to the first list of ${unlisted.join(', ')} in namespace "${this.namespace}" for ${seconds} s; retrying until the timeout`,
      );
    }, 500);
    this.timer.unref();
  }

  /** Stops checking and any probe under way. */
  stop(): void {
    this.stopped.abort();
    if (this.timer) clearInterval(this.timer);
  }

  private async check(): Promise<void> {
    const oldest = oldestUnanswered(this.server, this.checkedUntil);
    if (this.probing || oldest === undefined || Date.now() - oldest < UNANSWERED_PROBE_MS) return;
    this.probing = true;
    const probedAt = Date.now();
    let outage = false;
    try {
      await checkReachable(this.kc, this.namespace, { signal: this.stopped.signal, onRecovered: () => (outage = true) });
    } catch {
      // A namespace gone, refused credentials: the watches report what they meet themselves.
    } finally {
      this.probing = false;
    }
    this.checkedUntil = probedAt;
    if (outage && !this.stopped.signal.aborted) this.recovered(oldest + CUT_MARGIN_MS);
  }
}
