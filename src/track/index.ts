/**
 * Rollout tracking: joins the cluster watch source to the pure core.
 */
export { trackRollout, type Tracking } from './tracker.js';
export { trackRollouts, type MultiTracking } from './many.js';
export { resolveTrackOptions, type TrackOptions, type ResolvedTrackOptions } from './options.js';
export type { LogOptions, LogFollowOptions } from './log-options.js';
