/**
 * The loop of a side watch: a watch a source opens beside its kind watchers for the Event backlog
 * (the replay's watches from R, the named Events' watch from L). Unlike a kind watcher, it never
 * lists again: it resumes from its last revision a few times and then gives up, leaving the
 * verdict to the kind watchers' lists.
 */
import { statusOf } from './api-errors.js';
import { sleep } from './backoff.js';
import type { WatchEnd } from './watch-stream.js';

/** Times in a row a side watch that ended without a line is re-opened before it gives up. */
export const SIDE_WATCH_RESUMES = 3;

/** One side watch, as its loop drives it. */
export interface SideWatch {
  /** True once the owner stopped or gave this watch up: the loop ends quietly. */
  stopped(): boolean;
  /** Opens one watch from the last revision it delivered and resolves with how it ended. */
  once(): Promise<WatchEnd>;
  /** True (once) when the watch was cut on purpose, to be re-opened at once. */
  takeResume(): boolean;
  /** A 410 Gone: true to try again (the watch moved its start later), false to give up. */
  retryGone?(end: Extract<WatchEnd, { kind: 'gone' }>): boolean;
  /** Aborts the pause before a retry. */
  signal: AbortSignal;
}

/**
 * Runs `watch` until it is stopped (resolves `'stopped'`) or gives up (`'gave-up'`): on a 410 the
 * watch may not retry, on a stream error, on 401 or 403, or after {@link SIDE_WATCH_RESUMES} ends
 * in a row without a line (an error pauses 200 ms more at each).
 */
export async function runSideWatch(watch: SideWatch): Promise<'stopped' | 'gave-up'> {
  let resumes = 0;
  while (!watch.stopped()) {
    const end = await watch.once();
    if (watch.stopped()) break;
    if (watch.takeResume()) continue;
    if (end.kind === 'gone' && watch.retryGone?.(end)) continue;
    if (end.kind === 'gone' || end.kind === 'stream-error') return 'gave-up';
    if (end.kind === 'error' && [401, 403, 410].includes(statusOf(end.err) ?? 0)) return 'gave-up';
    // A watch that delivered lines worked: only consecutive ends without any count.
    if ('events' in end && end.events > 0) resumes = 0;
    if (++resumes > SIDE_WATCH_RESUMES) return 'gave-up';
    if (end.kind === 'error') await sleep(200 * resumes, watch.signal);
  }
  return 'stopped';
}

/** Aborts `controller` when `lifetime` is (or already was) aborted. */
export function abortWith(controller: AbortController, lifetime: AbortSignal): void {
  if (lifetime.aborted) controller.abort();
  else lifetime.addEventListener('abort', () => controller.abort(), { once: true });
}
