/** A sink that keeps every event in memory (tests, programmatic use). */
import type { RolloutEvent, RolloutEventOf, Verdict } from '../core/index.js';
import type { Sink } from './sink.js';

/** Collects events; `closed` tells whether {@link MemorySink.close} ran. */
export class MemorySink implements Sink {
  /** Every event written, in order. */
  readonly events: RolloutEvent[] = [];
  closed = false;

  write(e: RolloutEvent): void {
    this.events.push(e);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** The events of one type. */
  ofType<T extends RolloutEvent['type']>(type: T): RolloutEventOf<T>[] {
    return this.events.filter((e): e is RolloutEventOf<T> => e.type === type);
  }

  /** The verdicts seen so far. */
  get verdicts(): Verdict[] {
    return this.ofType('verdict').map((e) => e.verdict);
  }
}
