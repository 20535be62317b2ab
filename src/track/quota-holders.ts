/**
 * While a quota refuses the traced workload's pods, lists the namespace's terminating pods: at once
 * when such a refusal with a window is reported, then every {@link LIST_EVERY_MS} until every one is cleared or
 * the trace ends. Each list is one `terminating-pods` observation (the core's quota-holders.ts says
 * what it decides). Pods of other workloads that terminate free the quota too, and the trace
 * watches only its own.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { listTerminatingPods } from '../cluster/index.js';
import { isQuotaRefusal, type Observation, type RolloutEvent, type TerminatingPod } from '../core/index.js';
import { realClock, type TimerClock } from '../long-timer.js';

/** How often the terminating pods are listed while a quota refusal is open (ms). */
export const LIST_EVERY_MS = 3_000;

/** Lists the namespace's terminating pods (cluster/terminating-pods.ts). */
export type ListTerminating = (signal: AbortSignal) => Promise<TerminatingPod[]>;

/** The list of `namespace`'s terminating pods through `kc`. */
export function terminatingPodsOf(kc: KubeConfig, namespace: string): ListTerminating {
  return (signal) => listTerminatingPods(kc, namespace, signal);
}

/** The lists of one trace. */
export class QuotaHolders {
  /** Ids of the quota refusals open now. */
  private readonly open = new Set<string>();
  private timer: unknown;
  private listing: AbortController | undefined;
  private stopped = false;

  constructor(
    private readonly list: ListTerminating,
    private readonly observe: (obs: Observation) => void,
    private readonly clock: TimerClock = realClock,
  ) {}

  /**
   * Follows the core's events: a quota refusal with a window (`failsAt`) starts the lists; once
   * none is open (cleared, or without a window: a Job's, a warn-only class) they end.
   */
  saw(e: RolloutEvent): void {
    if (e.type === 'problem') {
      if (isQuotaRefusal(e.problem) && e.failsAt !== undefined) this.open.add(e.problem.id);
      else this.open.delete(e.problem.id);
    } else if (e.type === 'problem-cleared') this.open.delete(e.id);
    else return;
    if (this.open.size === 0) this.pause();
    else if (this.timer === undefined && !this.listing) this.listNow();
  }

  /** Ends the lists for good (the trace ended). */
  stop(): void {
    this.stopped = true;
    this.pause();
  }

  private pause(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.listing?.abort();
    this.listing = undefined;
  }

  /** One list; the observation says when it was asked (what it found is at least that recent). */
  private listNow(): void {
    this.timer = undefined;
    if (this.stopped || this.open.size === 0) return;
    const listing = new AbortController();
    this.listing = listing;
    const at = this.clock.now();
    this.list(listing.signal).then(
      (pods) => {
        if (this.listing !== listing) return;
        this.listing = undefined;
        this.observe({ type: 'terminating-pods', at, pods });
        this.next();
      },
      () => {
        // Not listed (the API server was unreachable, the list was refused): tried again later.
        if (this.listing !== listing) return;
        this.listing = undefined;
        this.next();
      },
    );
  }

  private next(): void {
    if (this.stopped || this.open.size === 0 || this.timer !== undefined) return;
    this.timer = this.clock.setTimeout(() => this.listNow(), LIST_EVERY_MS);
  }
}
