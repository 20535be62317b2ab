/**
 * The order in which a tracker applies observations, and the batches it applies as one step. The
 * object observations of one read batch (cluster/read-batches.ts) are held while the batch is
 * delivered, then applied together (core `reduceBatch`): its lines came within 100 ms, and deriving
 * the rollout once for all of them costs about what it costs for one. Anything else is applied
 * alone, after everything read before it.
 */
import { afterReadBatch, deliveringReadBatch, drainReadBatches } from '../cluster/index.js';
import type { ObjectObservation, Observation } from '../core/index.js';

/** Feeds `apply` one step of observations at a time, in the order they came. */
export class ObservationBatch {
  private held: ObjectObservation[] = [];

  constructor(private readonly apply: (step: readonly Observation[]) => void) {}

  /** An observation from the watch source: held with its read batch, or applied now. */
  fromSource(obs: Observation): void {
    if (this.hold(obs)) return;
    this.flush();
    this.apply([obs]);
  }

  /** An observation the tracker makes (a tick, a timeout, a list): it comes after every line read before it. */
  own(obs: Observation): void {
    drainReadBatches();
    this.flush();
    this.apply([obs]);
  }

  /** Holds `obs` when it is an object's change delivered with a read batch. */
  private hold(obs: Observation): boolean {
    if ((obs.type !== 'upsert' && obs.type !== 'delete') || !deliveringReadBatch()) return false;
    if (this.held.length === 0) afterReadBatch(() => this.flush());
    this.held.push(obs);
    return true;
  }

  /** Applies what is held: before anything that comes after it. */
  private flush(): void {
    if (this.held.length === 0) return;
    const step = this.held;
    this.held = [];
    this.apply(step);
  }
}
