/**
 * One rollout's tracker (its entry points are in tracker.ts): joins the shared watch source to the
 * pure core, owns every timer (ticks, the overall timeout, the not-found grace), cancellation and
 * log enrichment, and closes everything it opened once the verdict is known. Wiring and I/O only:
 * what to do with a verdict, a missing Deployment or the next tick is decided in decisions.ts
 * (pure, tested from tables).
 */
import { acquireNamespaceSource, describeTarget, type NamespaceSource, unreachableError } from '../cluster/index.js';
import type { Observation, RolloutEvent, Verdict, WorkloadRef } from '../core/index.js';
import { cleanEvent, currentPodsKey, idleTick, initialState, type RolloutState, reduceBatch, ticksMatterAfter } from '../core/index.js';
import { type LongTimer, setLongTimeout } from '../long-timer.js';
import {
  abortReason,
  admit,
  INITIAL_GATE,
  noProgressMayFire,
  notFoundError,
  onVerdict,
  refreshesLogTargets,
  type TimedVerdict,
  trackingError,
} from './decisions.js';
import { EventHub } from './event-hub.js';
import { NoProgressWatchdog } from './no-progress.js';
import { ObservationBatch } from './observation-batch.js';
import { type ResolvedTrackOptions, type TrackInternals, trackTarget } from './options.js';
import { apiServerWaiting, logLine, trackerWarning } from './own-events.js';
import { QuotaHolders, terminatingPodsOf } from './quota-holders.js';
import { TickSchedule } from './tick-schedule.js';
import { TrackerLogs } from './tracker-logs.js';
import { type Tracking, trackingOf } from './tracking.js';
import { VerdictWatch } from './verdict-watch.js';

const MAX_TICK_MS = 1000;

type VerdictEvent = Extract<RolloutEvent, { type: 'verdict' }>;

/** Tracks one rollout from its validated options; {@link RolloutTracker.tracking} is what callers get. */
export class RolloutTracker {
  readonly tracking: Tracking;
  private readonly hub: EventHub<RolloutEvent>;
  private state: RolloutState;
  private source: NamespaceSource | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly ticks: TickSchedule;
  /** Observations in order, a read batch's applied as one step. */
  private readonly steps = new ObservationBatch((step) => this.apply(step));
  private timeoutTimer: LongTimer | undefined;
  private graceTimer: LongTimer | undefined;
  private watchdog: NoProgressWatchdog | undefined;
  private logs: TrackerLogs | undefined;
  /** Lists the namespace's terminating pods while a quota refuses ours. */
  private readonly quota: QuotaHolders;
  /** The verdict is being published (log reads under way): a second one is not. */
  private concluding = false;
  private readonly ref: WorkloadRef;
  /** Synced, Deployment seen, a held verdict: see decisions.ts. */
  private gate = INITIAL_GATE;
  private finished = false;
  /** After the verdict with `watchAfterVerdict`: observations still reach the reducer. */
  private watch: VerdictWatch | undefined;
  private streamEnded = false;
  private resolveVerdict!: (v: Verdict) => void;
  private rejectVerdict!: (e: unknown) => void;
  private readonly onAbort = () => this.cancel(abortReason(this.opts.signal?.reason));

  constructor(
    private readonly opts: ResolvedTrackOptions,
    private readonly internals: TrackInternals,
  ) {
    this.hub = new EventHub<RolloutEvent>(internals.replay);
    const verdict = new Promise<Verdict>((resolve, reject) => {
      this.resolveVerdict = resolve;
      this.rejectVerdict = reject;
    });
    this.ref = { kind: opts.kind, namespace: opts.namespace, name: opts.name };
    this.state = initialState(trackTarget(opts), opts.policy, Date.now());
    internals.recorder?.started(this.state.startedAt);
    this.tracking = trackingOf(this.hub, verdict, (reason) => this.cancel(reason ?? 'stopped'));
    this.ticks = new TickSchedule(internals.tickMs ?? MAX_TICK_MS, () => this.steps.own({ type: 'tick', at: Date.now() }));
    this.quota = new QuotaHolders(terminatingPodsOf(opts.kc, opts.namespace), (obs) => this.steps.own(obs));
    // Start on the next turn so a caller can attach listeners first (they replay anyway).
    setImmediate(() => this.start());
  }

  private start(): void {
    if (this.finished) return;
    const { signal } = this.opts;
    this.steps.own({ type: 'tick', at: Date.now() }); // emits `started`
    if (signal?.aborted) return this.cancel(abortReason(signal.reason));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timeoutTimer = setLongTimeout(() => this.onTimeout(), this.opts.timeoutSeconds * 1000);
    const noProgress = this.opts.noProgressTimeoutSeconds;
    if (noProgress !== undefined) {
      this.watchdog = new NoProgressWatchdog(noProgress, (at) => {
        if (!noProgressMayFire(this.gate)) return false;
        this.steps.own({ type: 'timeout', at, timeoutSeconds: noProgress, timeoutKind: 'no-progress' });
        return true;
      });
      this.watchdog.start();
    }
    const { logs } = this.opts;
    if (logs) {
      const options = { kc: this.opts.kc, namespace: this.opts.namespace, kind: this.opts.kind, logs };
      this.logs = new TrackerLogs(options, (target, line) => {
        if (!this.finished) this.record(this.publish(logLine(this.ref, target, line, Date.now())));
      });
    }
    try {
      this.source = acquireNamespaceSource(this.opts.kc, this.opts.namespace, this.internals.source);
      this.unsubscribe = this.source.subscribe({
        workloadName: this.opts.name,
        kind: this.opts.kind,
        routinePodEvents: (this.opts.policy?.classifiers?.length ?? 0) > 0,
        partialSuccess: this.state.policy.success.mode !== 'full',
        onObservation: (obs) => this.fromSource(obs),
        onError: (err) => this.fail(err),
        onWaiting: (message) => this.say(apiServerWaiting(this.ref, message, Date.now())),
        onWarning: (message) => this.say(trackerWarning(this.ref, 'NodesNotReadable', message, Date.now())),
      });
    } catch (err) {
      return this.fail(err);
    }
    this.ticks.start();
  }

  /** An event the tracker makes itself (own-events.ts), published until the verdict. */
  private say(e: RolloutEvent): void {
    if (!this.finished) this.record(this.publish(e));
  }

  /** Records one of the tracker's own events (publish first: `?.` would skip evaluating it). */
  private record(e: RolloutEvent): void {
    this.internals.recorder?.event(e);
  }

  /**
   * The overall deadline. If the apiserver never answered, there is no rollout to judge: the
   * error says why the cluster could not be reached (exit code 3), not `timed out` (70).
   */
  private onTimeout(): void {
    const failure = this.source?.firstContactFailure;
    if (failure !== undefined) return this.fail(unreachableError(this.opts.kc, this.opts.timeoutSeconds, failure));
    this.steps.own({ type: 'timeout', at: Date.now(), timeoutSeconds: this.opts.timeoutSeconds });
  }

  private fromSource(obs: Observation): void {
    if (this.watch) {
      this.internals.recorder?.observation(obs);
      return this.watch.observe(obs);
    }
    if (!this.finished) this.steps.fromSource(obs);
  }

  /**
   * Feeds observations to the core as one step (admitted first: decisions.ts), publishes what it
   * says, holds the verdict; re-targets the followed logs when the pods may have changed.
   */
  private apply(step: readonly Observation[]): void {
    if (this.finished) return;
    this.internals.recorder?.batch(step);
    for (const obs of step) {
      const admitted = admit(this.gate, obs);
      this.gate = admitted.gate;
      if (admitted.release) return void this.conclude(admitted.release);
      if (admitted.grace) {
        this.graceTimer?.cancel();
        this.graceTimer =
          admitted.grace === 'start' ? setLongTimeout(() => this.notFound(), this.opts.notFoundGraceSeconds * 1000) : undefined;
      }
    }
    const keyBefore = this.ticks.paused ? currentPodsKey(this.state) : undefined;
    const [next, events] = reduceBatch(this.state, step);
    this.state = next;
    for (const obs of step) this.pauseOrResumeTicks(obs, keyBefore);
    this.logs?.observed(step, events, this.state);
    for (const e of events) {
      if (e.type === 'verdict') {
        const decided = onVerdict(this.gate, step.at(-1)!, { verdict: e.verdict, at: e.at });
        this.gate = decided.gate;
        if (decided.publish) void this.conclude(decided.publish);
        return;
      }
      this.ticks.saw(e);
      this.quota.saw(e);
      this.watchdog?.saw(e);
      this.publish(e);
    }
    if (this.logs && !this.finished && step.some((obs) => refreshesLogTargets(this.gate, obs))) this.logs.targetsChanged(this.state);
  }

  /** Ticks pause while every tick would change nothing (idle-tick.ts), and resume as soon as one may. */
  private pauseOrResumeTicks(obs: Observation, keyBefore: string | undefined): void {
    if (obs.type === 'tick') return void (idleTick(this.state) && this.ticks.pause());
    if (this.ticks.paused && ticksMatterAfter(this.state, obs, keyBefore)) this.ticks.resume();
  }

  private cancel(reason?: string): void {
    if (this.watch) return this.endWatch();
    if (this.finished) return;
    this.steps.own({ type: 'cancel', at: Date.now(), ...(reason ? { reason } : {}) });
  }

  /** The not-found grace ran out: fail unless the Deployment appeared meanwhile. */
  private notFound(): void {
    if (this.finished) return;
    const { namespace, name, kc, notFoundGraceSeconds: graceSeconds } = this.opts;
    const deployments = this.source?.namesOf(this.opts.kind) ?? [];
    const error = notFoundError(this.gate, {
      name,
      namespace,
      target: describeTarget(kc),
      graceSeconds,
      deployments,
      kind: this.opts.kind,
    });
    if (error) this.fail(error);
  }

  /**
   * Releases everything: timers, the log stream and the source subscription (the last one closes
   * the watches), which `keepSource` keeps open for the watch after the verdict.
   */
  private release(keepSource = false): void {
    this.finished = true;
    this.ticks.stop();
    this.quota.stop();
    for (const t of [this.timeoutTimer, this.graceTimer]) t?.cancel();
    this.watchdog?.stop();
    this.logs?.stop();
    if (keepSource) return;
    this.watch = undefined;
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    const unsub = this.unsubscribe;
    this.unsubscribe = undefined;
    unsub?.();
  }

  /** Publishes the verdict (with log tails if wanted, cleaned) at the time the core reached it, and ends. */
  private async conclude({ verdict, at }: TimedVerdict): Promise<void> {
    if (this.finished || this.concluding) return;
    this.concluding = true;
    // The followed logs of instances that ended before their stream opened, before the verdict.
    if (this.logs) {
      await this.logs.drain(this.state);
      if (this.finished) return; // failed meanwhile (a watch error): said already
    }
    const watch = this.internals.watchAfterVerdict !== undefined && verdict.outcome !== 'cancelled' && this.unsubscribe !== undefined;
    this.release(watch);
    if (watch) {
      this.watch = new VerdictWatch(this.state, (e) => this.publish(e));
      this.internals.recorder?.watching();
    }
    const final = this.logs ? await this.logs.enrich(verdict, this.state) : verdict;
    const e = this.publish({ type: 'verdict', verdict: final, at, workload: final.workload, deployment: final.deployment }) as VerdictEvent;
    this.internals.recorder?.verdict(e.verdict, at);
    if (!this.watch) this.endStream();
    this.resolveVerdict(e.verdict);
    this.watch?.verdictPublished();
  }

  /** Ends the watch after the verdict (`stop()`, or a watch error): releases the source, ends the stream. */
  private endWatch(error?: unknown): void {
    if (!this.watch) return;
    this.internals.recorder?.end();
    this.release();
    this.endStream(error);
  }

  /** Ends the event stream (with `error`, if any) and tells the watch's owner, once. */
  private endStream(error?: unknown): void {
    if (this.streamEnded) return;
    this.streamEnded = true;
    this.hub.end(error);
    this.internals.watchAfterVerdict?.onEnd(error);
  }

  /**
   * Hands an event to every consumer, its cluster-supplied text cleaned (redacted, sanitised,
   * capped): the one boundary where cluster text enters the event stream (docs/security.md).
   */
  private publish(e: RolloutEvent): RolloutEvent {
    const cleaned = cleanEvent(e.kind === undefined ? { ...e, kind: this.opts.kind } : e, this.opts.clean);
    this.hub.push(cleaned);
    return cleaned;
  }

  private fail(err: unknown): void {
    if (this.watch) return this.endWatch(trackingError(err));
    if (this.finished) return;
    this.release();
    const error = trackingError(err);
    this.internals.recorder?.error(error.message);
    this.endStream(error);
    this.rejectVerdict(error);
  }
}
