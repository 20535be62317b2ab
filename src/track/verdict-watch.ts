/**
 * The watch after the verdict (the CLI's `--watch`): the tracker keeps its source subscription and
 * feeds every later change to the same reducer, reopened by `watchedOn` (src/core), so the events
 * come by the one route every observation takes. Never a second verdict.
 */
import type { Observation, RolloutEvent, RolloutState } from '../core/index.js';
import { reduce, watchedOn } from '../core/index.js';

/**
 * Asks the tracker to watch on after its verdict. The verdict is published and resolved as usual;
 * then every later change is published until `stop()`. Timers, deadlines and the live log stream
 * end with the verdict. Not entered after a cancel.
 */
export interface WatchAfterVerdict {
  /**
   * Called once when the tracker's stream ends: the watch ended by `stop()` (no error) or a watch
   * error (forbidden...), or tracking ended without a watch (a cancel, a tracking error).
   */
  onEnd(error?: unknown): void;
}

/** One tracker's watch after its verdict: the reopened state and what it still holds back. */
export class VerdictWatch {
  private state: RolloutState;
  /** Events that came before the verdict was published (its log tails being read). */
  private held: RolloutEvent[] | undefined = [];

  constructor(
    state: RolloutState,
    private readonly publish: (e: RolloutEvent) => void,
  ) {
    this.state = watchedOn(state);
  }

  /** Feeds one observation: its events published (held until {@link verdictPublished}), a verdict ignored. */
  observe(obs: Observation): void {
    const [next, events] = reduce(this.state, obs);
    this.state = next.verdict === undefined ? next : watchedOn(next);
    for (const e of events) {
      if (e.type === 'verdict') continue;
      if (this.held) this.held.push(e);
      else this.publish(e);
    }
  }

  /** The verdict is out: what was held back is published, and from now on every event at once. */
  verdictPublished(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const e of held) this.publish(e);
  }
}
