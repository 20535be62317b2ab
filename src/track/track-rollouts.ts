/**
 * Tracking several Deployments at once, as one merged event stream.
 */
import type { RolloutEvent, Verdict } from '../core/index.js';
import { EventHub, type HubReplay } from './event-hub.js';
import { resolveTrackOptions, sharedKubeConfigLoader, type TrackOptions } from './options.js';
import { trackResolved } from './tracker.js';
import { failedTracking, type Tracking } from './tracking.js';
import type { WatchAfterVerdict } from './verdict-watch.js';

/** Several rollouts tracked together. */
export interface MultiTracking {
  /** Every tracker's events, interleaved in arrival order; ends after the last verdict. */
  events: AsyncIterable<RolloutEvent>;
  /** Calls `listener` with every event of every tracker (past ones first). */
  subscribe(listener: (e: RolloutEvent) => void): () => void;
  /** The verdicts, in the order of the options; rejects with the first RolloutTraceError. */
  verdicts: Promise<Verdict[]>;
  /** Cancels every tracker. */
  stop(): void;
}

/**
 * Tracks several Deployments. Deployments in the same namespace share one watch per kind. Every
 * option set is validated first: if any is bad, `verdicts` rejects and nothing is opened.
 */
export function trackRollouts(opts: TrackOptions[]): MultiTracking {
  return trackRolloutsReplaying(opts, 'all');
}

/**
 * {@link trackRollouts} whose merged stream replays `replay` to a late consumer (the CLI, whose
 * sink is its only consumer, keeps no history: it would grow with the trace). Each tracker's own
 * stream feeds only the merged one, so it keeps none either. With `watch` (the CLI's `--watch`),
 * every tracker watches on after its verdict (see {@link WatchAfterVerdict}) until `stop()`; the
 * merged stream then ends when every watch has ended, and `watch.onEnd` is called once, with the
 * first watch error if any. Not re-exported by the package.
 */
export function trackRolloutsReplaying(opts: TrackOptions[], replay: HubReplay, watch?: WatchAfterVerdict): MultiTracking {
  const hub = new EventHub<RolloutEvent>(replay);
  let trackings: Tracking[];
  try {
    if (!Array.isArray(opts)) throw new TypeError('not an array');
    // Validate every option set (loading each kubeconfig once) before opening anything.
    const load = sharedKubeConfigLoader();
    const resolved = opts.map((o) => resolveTrackOptions(o, load));
    const each = watchEach(resolved.length, watch && { onEnd: (err) => (hub.end(err), watch.onEnd(err)) });
    trackings = resolved.map((r) => trackResolved(r, { replay: 'until-first-listener', ...each }));
  } catch (err) {
    trackings = [failedTracking(err)];
    watch?.onEnd(err);
  }
  let open = trackings.length;
  let firstError: unknown;
  for (const t of trackings) {
    t.subscribe((e) => hub.push(e));
    t.verdict
      .then(
        () => undefined,
        (err: unknown) => {
          firstError ??= err;
        },
      )
      .finally(() => {
        if (--open === 0 && !watch) hub.end(firstError);
      });
  }
  if (trackings.length === 0) {
    hub.end();
    watch?.onEnd();
  }
  const verdicts = Promise.all(trackings.map((t) => t.verdict));
  verdicts.catch(() => undefined);
  return {
    events: { [Symbol.asyncIterator]: () => hub[Symbol.asyncIterator]() },
    subscribe: (l) => hub.subscribe(l),
    verdicts,
    stop: () => {
      for (const t of trackings) t.stop();
    },
  };
}

/** Each tracker's part of `watch`: the last tracker's stream to end calls `watch.onEnd`, with the first error. */
function watchEach(count: number, watch: WatchAfterVerdict | undefined): { watchAfterVerdict?: WatchAfterVerdict } {
  if (!watch) return {};
  let open = count;
  let firstError: unknown;
  return {
    watchAfterVerdict: {
      onEnd(error) {
        firstError ??= error;
        if (--open === 0) watch.onEnd(firstError);
      },
    },
  };
}
