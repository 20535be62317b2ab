/**
 * The tracker's entry points: options validated at once, then one RolloutTracker
 * (rollout-tracker.ts).
 */

import { recordTrace, type TraceRecorder } from '../record/index.js';
import { type ResolvedTrackOptions, resolveTrackOptions, type TrackInternals, type TrackOptions, trackTarget } from './options.js';
import { RolloutTracker } from './rollout-tracker.js';
import { failedTracking, type Tracking } from './tracking.js';

export type { TrackInternals };

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
  let recorder: TraceRecorder | undefined;
  try {
    recorder = resolved.record === undefined ? undefined : recordTrace(resolved.record, recordedSetup(resolved), resolved.mask);
  } catch (err) {
    return failedTracking(err);
  }
  return new RolloutTracker(resolved, { ...internals, ...(recorder ? { recorder } : {}) }).tracking;
}

/** How a recorded trace was set up (format.ts `RecordedTrace`). */
function recordedSetup(o: ResolvedTrackOptions) {
  const { classes, success, settleSeconds } = o.policy;
  return {
    target: trackTarget(o),
    policy: { classes, success, settleSeconds },
    timeoutSeconds: o.timeoutSeconds,
    ...(o.noProgressTimeoutSeconds !== undefined ? { noProgressTimeoutSeconds: o.noProgressTimeoutSeconds } : {}),
  };
}
