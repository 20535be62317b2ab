/**
 * Watch lines handled in batches. A busy watch delivers about one object per read, and each read
 * wakes the process on a core whose caches another process (the apiserver, etcd) has just filled:
 * handling one object then costs several times what handling it right after another does
 * (docs/performance.md, "Pod and Event lines in batches"). Lines of the busy kinds (Pods, Events)
 * wait here up to {@link BATCH_MS}, and are then parsed, routed and reduced together, in the order
 * they came; so do the workload and ReplicaSet lines that cannot bring a verdict (waiting-lines.ts).
 * Everything that must not wait (a line that can bring a verdict, a line of another watch, the end
 * of a watch, a watcher's act, the tracker's tick) drains the queue first: deliveries keep the
 * order of arrival.
 */

/**
 * How long the first line of a batch waits at most (ms): the CLI prints at most every 100 ms
 * anyway (cli/batched-stream.ts), and a workload's line that can bring a verdict never waits.
 */
export const BATCH_MS = 100;

const queue: (() => void)[] = [];
/** Run once the batch being delivered is: see {@link afterReadBatch}. */
const flushes: (() => void)[] = [];
let timer: NodeJS.Timeout | undefined;
let draining = false;

/**
 * Runs every queued delivery now, in order (also those a delivery queues meanwhile). A delivery
 * that throws does not keep the later ones from running; the first error is thrown at the end.
 */
export function drainReadBatches(): void {
  if (timer) {
    clearTimeout(timer);
    timer = undefined;
  }
  if (draining) return;
  draining = true;
  let failure: { error: unknown } | undefined;
  const run = (f: () => void) => {
    try {
      f();
    } catch (error) {
      failure ??= { error };
    }
  };
  let i = 0;
  do {
    for (; i < queue.length; i++) run(queue[i]!);
    for (const flush of flushes.splice(0)) run(flush);
  } while (i < queue.length);
  queue.length = 0;
  draining = false;
  if (failure) throw failure.error;
}

/** Whether a batch is being delivered now: the caller runs inside {@link drainReadBatches}. */
export function deliveringReadBatch(): boolean {
  return draining;
}

/**
 * Runs `flush` once every line of the batch being delivered has been (before
 * {@link drainReadBatches} returns, in the order registered): a subscriber that holds the batch's
 * observations applies them there as one step.
 */
export function afterReadBatch(flush: () => void): void {
  flushes.push(flush);
}

/** Queues `deliver` behind the lines that came before it; a batch is drained within {@link BATCH_MS}. */
export function deliverLater(deliver: () => void): void {
  queue.push(deliver);
  timer ??= setTimeout(drainReadBatches, BATCH_MS);
}

/** Runs `deliver` now, after everything queued before it. */
export function deliverNow(deliver: () => void): void {
  if (queue.length > 0 || draining) {
    queue.push(deliver);
    drainReadBatches();
    return;
  }
  deliver();
}
