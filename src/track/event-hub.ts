/**
 * A replaying multicast of rollout events: any number of listeners and async iterators, each
 * seeing every event from the first one (so a consumer that attaches late misses nothing), until
 * the stream ends after the verdict (or fails with an error).
 */
export class EventHub<T> {
  private readonly history: T[] = [];
  private readonly listeners = new Set<(e: T) => void>();
  private readonly waiters = new Set<() => void>();
  private ended = false;
  private error: unknown;

  /** Appends an event and hands it to every consumer. */
  push(event: T): void {
    if (this.ended) return;
    this.history.push(event);
    for (const l of [...this.listeners]) this.call(l, event);
    this.wake();
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
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** An async iterator over every event from the first; ends with the stream. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
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
