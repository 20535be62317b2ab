/**
 * The tracker: joins the shared watch source to the pure core, owns every timer (ticks, the
 * overall timeout, the not-found grace), cancellation and log enrichment, and closes everything it
 * opened once the verdict is known.
 */

import { unreachableError } from '../cluster/api-errors.js';
import { acquireNamespaceSource, describeTarget, type NamespaceSource, type SourceOptions } from '../cluster/index.js';
import type { Observation, RolloutEvent, Verdict } from '../core/index.js';
import { cleanEvent, cleanVerdict, initialState, logTargets, type RolloutState, reduce } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';
import { type LongTimer, setLongTimeout } from '../long-timer.js';
import { EventHub } from './event-hub.js';
import { LogFollower } from './log-follower.js';
import { withLogTails } from './log-tails.js';
import { NoProgressWatchdog } from './no-progress.js';
import { type ResolvedTrackOptions, resolveTrackOptions, type TrackOptions } from './options.js';

/** A running rollout trace: an event stream (listeners and async iteration) and its verdict. */
export interface Tracking extends AsyncIterable<RolloutEvent> {
  /**
   * The final answer. Resolves for every rollout outcome (succeeded, failed, timed-out,
   * cancelled); rejects only with a {@link RolloutTraceError} (bad input, kubeconfig, forbidden,
   * unreachable cluster, missing namespace or Deployment).
   */
  readonly verdict: Promise<Verdict>;
  /** Calls `listener` with every event so far and every later one. Returns the unsubscribe function. */
  subscribe(listener: (e: RolloutEvent) => void): () => void;
  /** Cancels tracking (verdict `cancelled`) and closes every watch; same as aborting `signal`. */
  stop(reason?: string): void;
}

/** Internal knobs for tests (not part of the public API: see {@link trackRolloutWith}). */
export interface TrackInternals {
  source?: SourceOptions;
  /** Tick period (ms). Default 1000. */
  tickMs?: number;
}

const MAX_TICK_MS = 1000;

/**
 * Tracks one Deployment's rollout with Pulumi's success predicate and the failure policy.
 *
 * Options are validated at once: on bad input `verdict` rejects with RolloutTraceError
 * `bad-input` and nothing is opened. Otherwise the namespace's shared watch source is joined, and
 * after the verdict every watch and timer is released so the process can exit.
 *
 * @example
 * const t = trackRollout({ name: 'web', namespace: 'prod' });
 * for await (const e of t) console.log(e.type);
 * const verdict = await t.verdict;
 */
export function trackRollout(opts: TrackOptions): Tracking {
  return trackRolloutWith(opts, {});
}

/**
 * {@link trackRollout} with internal knobs (tests tune the source and tick through this; it is not
 * re-exported by the package).
 */
export function trackRolloutWith(opts: TrackOptions, internals: TrackInternals): Tracking {
  let resolved: ResolvedTrackOptions;
  try {
    resolved = resolveTrackOptions(opts);
  } catch (err) {
    return failedTracking(err);
  }
  return trackResolved(resolved, internals);
}

/** Starts tracking with options already validated by `resolveTrackOptions` (loads nothing again). */
export function trackResolved(resolved: ResolvedTrackOptions, internals: TrackInternals): Tracking {
  return new RolloutTracker(resolved, internals).tracking;
}

/** A Tracking that failed before starting: no events, verdict rejected. */
export function failedTracking(err: unknown): Tracking {
  const hub = new EventHub<RolloutEvent>();
  hub.end(err);
  const verdict = Promise.reject(err);
  verdict.catch(() => undefined); // callers that never look at the verdict must not crash on it
  return {
    verdict,
    subscribe: (l) => hub.subscribe(l),
    stop: () => undefined,
    [Symbol.asyncIterator]: () => hub[Symbol.asyncIterator](),
  };
}

class RolloutTracker {
  readonly tracking: Tracking;
  private readonly hub = new EventHub<RolloutEvent>();
  private state: RolloutState;
  private source: NamespaceSource | undefined;
  private unsubscribe: (() => void) | undefined;
  private tickTimer: LongTimer | undefined;
  private nextTickAt = 0;
  private timeoutTimer: LongTimer | undefined;
  private graceTimer: LongTimer | undefined;
  private watchdog: NoProgressWatchdog | undefined;
  private logFollower: LogFollower | undefined;
  private readonly deadlines = new Map<string, number>();
  private deploymentPresent = false;
  private synced = false;
  /** A verdict the core reached before the source was synced, held until it is (see observe). */
  private held: { verdict: Verdict; at: number } | undefined;
  private finished = false;
  private resolveVerdict!: (v: Verdict) => void;
  private rejectVerdict!: (e: unknown) => void;
  private readonly onAbort = () => this.cancel(abortReason(this.opts.signal));

  constructor(
    private readonly opts: ResolvedTrackOptions,
    private readonly internals: TrackInternals,
  ) {
    const verdict = new Promise<Verdict>((resolve, reject) => {
      this.resolveVerdict = resolve;
      this.rejectVerdict = reject;
    });
    verdict.catch(() => undefined);
    this.state = initialState(
      {
        namespace: opts.namespace,
        name: opts.name,
        ...(opts.baselineRevision !== undefined ? { baselineRevision: opts.baselineRevision } : {}),
        ...(opts.minGeneration !== undefined ? { minGeneration: opts.minGeneration } : {}),
      },
      opts.policy,
      Date.now(),
    );
    this.tracking = {
      verdict,
      subscribe: (l) => this.hub.subscribe(l),
      stop: (reason) => this.cancel(reason ?? 'stopped'),
      [Symbol.asyncIterator]: () => this.hub[Symbol.asyncIterator](),
    };
    // Start on the next turn so a caller can attach listeners first (they replay anyway).
    setImmediate(() => this.start());
  }

  private start(): void {
    if (this.finished) return;
    const { signal } = this.opts;
    this.observe({ type: 'tick', at: Date.now() }); // emits `started`
    if (signal?.aborted) return this.cancel(abortReason(signal));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timeoutTimer = setLongTimeout(() => this.onTimeout(), this.opts.timeoutSeconds * 1000);
    const noProgress = this.opts.noProgressTimeoutSeconds;
    if (noProgress !== undefined) {
      this.watchdog = new NoProgressWatchdog(noProgress, (at) => {
        // A missing Deployment is the not-found grace's business: start a new window instead.
        if (!this.deploymentPresent) return false;
        this.observe({ type: 'timeout', at, timeoutSeconds: noProgress, timeoutKind: 'no-progress' });
        return true;
      });
      this.watchdog.start();
    }
    const follow = this.opts.logs ? this.opts.logs.follow : undefined;
    if (follow) {
      this.logFollower = new LogFollower(this.opts.kc, this.opts.namespace, follow, (target, line) => {
        if (this.finished) return;
        const { pod, container, revision } = target;
        this.publish({
          type: 'log',
          at: Date.now(),
          deployment: { namespace: this.opts.namespace, name: this.opts.name },
          pod,
          container,
          ...(revision !== undefined ? { revision } : {}),
          line,
        });
      });
    }
    try {
      this.source = acquireNamespaceSource(this.opts.kc, this.opts.namespace, this.internals.source);
      this.unsubscribe = this.source.subscribe({
        deploymentName: this.opts.name,
        onObservation: (obs) => this.fromSource(obs),
        onError: (err) => this.fail(err),
        onWaiting: (message) => this.waitingForApiServer(message),
        onWarning: (message) => this.warn('NodesNotReadable', message),
      });
    } catch (err) {
      return this.fail(err);
    }
    this.scheduleTick();
  }

  /** The apiserver is being retried: say so (a `waiting` event every sink prints). */
  private waitingForApiServer(message: string): void {
    if (this.finished) return;
    const deployment = { namespace: this.opts.namespace, name: this.opts.name };
    this.hub.push({ type: 'waiting', reason: 'api-server', message, at: Date.now(), deployment });
  }

  /** A degraded diagnosis (not a rollout problem): a Warning line every sink prints, once. */
  private warn(reason: string, message: string): void {
    if (this.finished) return;
    const at = Date.now();
    const deployment = { namespace: this.opts.namespace, name: this.opts.name };
    const event = { type: 'Warning' as const, reason, message, object: 'rollout-trace', count: 1, lastSeen: new Date(at).toISOString() };
    this.hub.push({ type: 'k8s-event', event, at, deployment });
  }

  /**
   * The overall deadline. If the apiserver never answered, there is no rollout to judge: the
   * error says why the cluster could not be reached (exit code 3), not `timed out` (70).
   */
  private onTimeout(): void {
    const failure = this.source?.firstContactFailure;
    if (failure !== undefined) return this.fail(unreachableError(this.opts.kc, this.opts.timeoutSeconds, failure));
    this.observe({ type: 'timeout', at: Date.now(), timeoutSeconds: this.opts.timeoutSeconds });
  }

  private fromSource(obs: Observation): void {
    if (this.finished) return;
    if (obs.type === 'upsert' && obs.kind === 'Deployment') {
      this.deploymentPresent = true;
      this.graceTimer?.cancel();
      this.graceTimer = undefined;
    }
    if (obs.type === 'synced') this.synced = true;
    this.observe(obs);
    if (this.logFollower && !this.finished && (obs.type === 'synced' || (this.synced && obs.type === 'upsert' && obs.kind !== 'Event'))) {
      this.logFollower.sync(logTargets(this.state, this.opts.logs ? this.opts.logs.follow?.containers : undefined));
    }
    if (obs.type === 'synced' && this.held) return void this.conclude(this.held.verdict, this.held.at);
    if (obs.type === 'synced' && !this.deploymentPresent && !this.finished) {
      this.graceTimer = setLongTimeout(() => this.notFound(), this.opts.notFoundGraceSeconds * 1000);
    }
  }

  /** Feeds one observation to the core and publishes what it says; the verdict is held back for enrichment. */
  private observe(obs: Observation): void {
    if (this.finished) return;
    if (this.held && (obs.type === 'timeout' || obs.type === 'cancel')) return void this.conclude(this.held.verdict, this.held.at);
    const [next, events] = reduce(this.state, obs);
    this.state = next;
    for (const e of events) {
      if (e.type === 'verdict') {
        // Before `synced`, a list or watch may still be refused: hold the verdict so permission
        // errors are reported deterministically rather than racing a quick success.
        const early = !this.synced && obs.type !== 'timeout' && obs.type !== 'cancel';
        if (early) this.held = { verdict: e.verdict, at: e.at };
        else void this.conclude(e.verdict, e.at);
        return;
      }
      if (e.type === 'problem') {
        if (e.failsAt !== undefined) this.deadlines.set(e.problem.id, e.failsAt);
        else this.deadlines.delete(e.problem.id);
        // A deadline before the next tick: tick exactly then instead.
        if (e.failsAt !== undefined && this.tickTimer && e.failsAt < this.nextTickAt) queueMicrotask(() => this.scheduleTick());
      } else if (e.type === 'problem-cleared') this.deadlines.delete(e.id);
      this.watchdog?.saw(e);
      this.publish(e);
    }
  }

  /** Ticks every second, or sooner when a problem's policy deadline comes first. */
  private scheduleTick(): void {
    if (this.finished) return;
    this.tickTimer?.cancel();
    const now = Date.now();
    const period = this.internals.tickMs ?? MAX_TICK_MS;
    let delay = period;
    for (const at of this.deadlines.values()) if (at >= now) delay = Math.min(delay, at - now + 1);
    delay = Math.max(0, delay);
    this.nextTickAt = now + delay;
    this.tickTimer = setLongTimeout(() => {
      this.observe({ type: 'tick', at: Date.now() });
      this.scheduleTick();
    }, delay);
  }

  private cancel(reason?: string): void {
    if (this.finished) return;
    this.observe({ type: 'cancel', at: Date.now(), ...(reason ? { reason } : {}) });
  }

  private notFound(): void {
    if (this.finished || this.deploymentPresent) return;
    const { namespace, name, kc } = this.opts;
    const others = (this.source?.deployments() ?? [])
      .map((d) => d.metadata?.name ?? '')
      .filter(Boolean)
      .sort();
    const listed = others.length
      ? `Deployments in "${namespace}": ${others
          .slice(0, 8)
          .map((n) => `"${n}"`)
          .join(', ')}${others.length > 8 ? `, and ${others.length - 8} more` : ''}.`
      : `Namespace "${namespace}" has no Deployments.`;
    this.fail(
      new RolloutTraceError(
        'deployment-not-found',
        `Deployment "${name}" was not found in namespace "${namespace}" of ${describeTarget(kc)} ` +
          `within ${this.opts.notFoundGraceSeconds} s. ${listed} Check the name and namespace.`,
      ),
    );
  }

  /** Releases everything: the source subscription (the last one closes the watches) and timers. */
  private release(): void {
    this.finished = true;
    for (const t of [this.tickTimer, this.timeoutTimer, this.graceTimer]) t?.cancel();
    this.watchdog?.stop();
    this.logFollower?.stop();
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    const unsub = this.unsubscribe;
    this.unsubscribe = undefined;
    unsub?.();
  }

  private async conclude(verdict: Verdict, at: number): Promise<void> {
    if (this.finished) return;
    this.release();
    let final = verdict;
    if (this.opts.logs && (verdict.outcome === 'failed' || verdict.outcome === 'timed-out') && verdict.problems.length) {
      final = await withLogTails(this.opts.kc, verdict, this.opts.logs.tailLines, this.opts.logs.redact);
    }
    final = cleanVerdict(final, this.opts.clean);
    this.hub.push({ type: 'verdict', verdict: final, at, deployment: final.deployment });
    this.hub.end();
    this.resolveVerdict(final);
  }

  /** Hands an event to every consumer, its cluster-supplied text cleaned (redacted, sanitised, capped). */
  private publish(e: RolloutEvent): void {
    this.hub.push(cleanEvent(e, this.opts.clean));
  }

  private fail(err: unknown): void {
    if (this.finished) return;
    this.release();
    const error =
      err instanceof RolloutTraceError
        ? err
        : new RolloutTraceError('cluster-unreachable', `Tracking failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
    this.hub.end(error);
    this.rejectVerdict(error);
  }
}

function abortReason(signal: AbortSignal | undefined): string | undefined {
  const r: unknown = signal?.reason;
  if (r === undefined) return undefined;
  if (typeof r === 'string') return r;
  if (r instanceof Error) return r.name === 'AbortError' ? 'aborted' : r.message;
  return String(r);
}
