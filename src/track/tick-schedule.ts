/**
 * A tracker's ticks: one every period (a second), or sooner when a problem's policy deadline comes
 * first, so that a window that runs out fails the rollout then and not up to a period later. Timers
 * only: what a tick means is the core's (`tick` observations); the delay is decisions.ts's
 * `tickDelay`.
 */
import type { RolloutEvent } from '../core/index.js';
import { type LongTimer, setLongTimeout } from '../long-timer.js';
import { tickDelay } from './decisions.js';

/** Ticks for one tracker until {@link TickSchedule.stop}. */
export class TickSchedule {
  private timer: LongTimer | undefined;
  private nextTickAt = 0;
  private stopped = false;
  /** No tick is scheduled until {@link resume}. */
  private pausedNow = false;
  /** Problem id -> when its window runs out (ms). */
  private readonly deadlines = new Map<string, number>();

  constructor(
    private readonly periodMs: number,
    private readonly tick: () => void,
  ) {}

  /** Schedules the next tick (and drops a pending one). */
  start(): void {
    if (this.stopped || this.pausedNow) return;
    this.timer?.cancel();
    const now = Date.now();
    const delay = tickDelay(now, this.periodMs, this.deadlines.values());
    this.nextTickAt = now + delay;
    this.timer = setLongTimeout(() => {
      this.tick();
      this.start();
    }, delay);
  }

  /** Keeps the problems' deadlines from the events the core emitted; ticks sooner for an earlier one. */
  saw(e: RolloutEvent): void {
    if (e.type === 'problem-cleared') this.deadlines.delete(e.id);
    if (e.type !== 'problem') return;
    if (e.failsAt === undefined) return void this.deadlines.delete(e.problem.id);
    this.deadlines.set(e.problem.id, e.failsAt);
    // A deadline before the next tick: tick exactly then instead.
    if (this.timer && e.failsAt < this.nextTickAt) queueMicrotask(() => this.start());
  }

  /**
   * Stops ticking until {@link resume}: the core's state depends on no time now (idle-tick.ts), so
   * every tick would change nothing, and each would still wake the process.
   */
  pause(): void {
    this.pausedNow = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Whether ticking is paused. */
  get paused(): boolean {
    return this.pausedNow;
  }

  /** Ticks again after {@link pause}: the next tick a period (or a nearer deadline) from now. */
  resume(): void {
    if (!this.pausedNow) return;
    this.pausedNow = false;
    this.start();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }
}
