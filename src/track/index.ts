/**
 * Rollout tracking: joins the cluster watch source to the pure core.
 */

export type { LogFollowOptions, LogOptions } from './log-options.js';
export { type ResolvedTrackOptions, resolveTrackOptions, type TrackOptions } from './options.js';
export { type ReplayedTrace, replayPolicy, replayTrace } from './replay.js';
export { type MultiTracking, trackRollouts, trackRolloutsReplaying } from './track-rollouts.js';
export { trackWorkload } from './track-workload.js';
export { trackRollout } from './tracker.js';
export type { Tracking } from './tracking.js';
