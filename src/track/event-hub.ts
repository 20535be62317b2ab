/**
 * How much of the past a consumer that attaches is shown: `all` (every event from the first, so
 * a consumer that attaches late misses nothing; the history grows with the trace), or
 * `until-first-listener` (the events before the first listener are handed to it, then no history
 * is kept: for a hub with one internal consumer, such as a tracker feeding trackRollouts' merged
 * stream, or the CLI's sink). An async iterator always keeps the history from then on.
 */
export type HubReplay = 'all' | 'until-first-listener';

/**
 * A replaying multicast of rollout events: any number of listeners and async iterators, each
 * seeing every event from the first one (see {@link HubReplay}), until the stream ends after the
 * verdict (or fails with an error).
 */
export class EventHub<T> {
  private readonly history: T[] = [];
  /** False once a first listener took the history in `until-first-listener` mode. */
  private keep = true;

  constructor(private readonly replay: HubReplay = 'all') {}
  private readonly listeners = new Set<(e: T) => void>();
  private readonly waiters = new Set<() => void>();
  private ended = false;
  private error: unknown;

  /** Appends an event and hands it to every consumer. */
  push(event: T): void {
    if (this.ended) return;
    if (this.keep) this.history.push(event);
    // The listeners as they are now (one added by a listener gets this event from the history).
    if (this.listeners.size === 1) this.call(this.listeners.values().next().value as (e: T) => void, event);
    else if (this.listeners.size > 1) for (const l of [...this.listeners]) this.call(l, event);
    if (this.waiters.size > 0) this.wake();
  }

  /** Ends the stream; iterators finish (throwing `error` if given) once they drained it. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.listeners.clear();
    this.wake();
  }

  /** Calls `listener` with every past event, then every new one. Returns the unsubscribe function. */
  subscribe(listener: (e: T) => void): () => void {
    for (const e of [...this.history]) this.call(listener, e);
    if (!this.ended) this.listeners.add(listener);
    if (this.replay === 'until-first-listener' && this.keep) {
      this.keep = false;
      this.history.length = 0;
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** An async iterator over every event from the first; ends with the stream. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    this.keep = true;
    let cursor = 0;
    let closed = false;
    return {
      next: async (): Promise<IteratorResult<T>> => {
        for (;;) {
          if (closed) return { done: true, value: undefined };
          if (cursor < this.history.length) return { done: false, value: this.history[cursor++] };
          if (this.ended) {
            closed = true;
            if (this.error !== undefined) throw this.error;
            return { done: true, value: undefined };
          }
          await new Promise<void>((resolve) => this.waiters.add(resolve));
        }
      },
      return: async (): Promise<IteratorResult<T>> => {
        closed = true;
        return { done: true, value: undefined };
      },
    };
  }

  /** True once ended. */
  get isEnded(): boolean {
    return this.ended;
  }

  private wake(): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) w();
  }

  private call(listener: (e: T) => void, event: T): void {
    try {
      listener(event);
    } catch (err) {
      // A broken sink must not stop tracking; surface it without crashing the process.
      process.emitWarning(`rollout-trace: an event listener threw: ${(err as Error)?.message ?? String(err)}`);
    }
  }
}
