/**
 * The no-progress deadline: fires when no event that reflects rollout progress was published for
 * a while (kubedog's "no activity" timeout). Warnings, k8s events and problems are not progress:
 * a crash-looping pod produces plenty of those while the rollout stands still.
 */
import type { RolloutEvent } from '../core/index.js';
import { type LongTimer, realClock, setLongTimeout, type TimerClock } from '../long-timer.js';

/** Event types that mean the rollout moved (or was changed by someone). */
const PROGRESS_TYPES: ReadonlySet<RolloutEvent['type']> = new Set<RolloutEvent['type']>([
  'revision',
  'superseded',
  'phase',
  'replicaset',
  'pod',
  'pod-deleted',
  'pod-orphaned',
  'scaled',
  'progress',
  'paused',
  'resumed',
]);

/** True when `e` reflects rollout progress. */
export function isProgressEvent(e: RolloutEvent): boolean {
  // A pod whose state stays the same but whose detail changes (another restart, a new waiting
  // reason) is churning, not progressing.
  if (e.type === 'pod') return e.previous === undefined || e.state !== e.previous;
  return PROGRESS_TYPES.has(e.type);
}

/**
 * Calls `fire(at)` once no progress was seen for `seconds`. One timer at a time: progress only
 * moves a timestamp, and the timer re-arms for the remainder when it wakes early. When `fire`
 * returns false (e.g. the Deployment is not there yet), a new window starts.
 */
export class NoProgressWatchdog {
  private lastProgressAt = 0;
  private timer: LongTimer | undefined;
  private stopped = false;

  constructor(
    private readonly seconds: number,
    private readonly fire: (at: number) => boolean,
    private readonly clock: TimerClock = realClock,
  ) {}

  /** Starts the first window now. */
  start(): void {
    this.lastProgressAt = this.clock.now();
    this.arm(this.seconds * 1000);
  }

  /** Records a published event; progress restarts the window. */
  saw(e: RolloutEvent): void {
    if (isProgressEvent(e)) this.lastProgressAt = this.clock.now();
  }

  /** Cancels the timer for good. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(ms: number): void {
    if (this.stopped) return;
    // Any window length: `--no-progress-timeout 600h` is longer than one Node timer can wait.
    this.timer = setLongTimeout(() => this.wake(), Math.max(0, ms), this.clock);
  }

  private wake(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const now = this.clock.now();
    const remaining = this.lastProgressAt + this.seconds * 1000 - now;
    if (remaining > 0) return this.arm(remaining);
    if (this.fire(now)) return this.stop();
    this.lastProgressAt = now;
    this.arm(this.seconds * 1000);
  }
}
