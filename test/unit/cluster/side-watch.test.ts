import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSideWatch, SIDE_WATCH_RESUMES } from '../../../src/cluster/side-watch.js';
import type { WatchEnd } from '../../../src/cluster/watch-stream.js';

const quiet: WatchEnd = { kind: 'closed', events: 0, ms: 5 };
const heard: WatchEnd = { kind: 'closed', events: 3, ms: 5 };
const refused = (code: number): WatchEnd => ({ kind: 'error', err: { code }, events: 0, ms: 5 });
const gone: WatchEnd = { kind: 'gone', message: 'too old resource version: 10 (20)' };

/** Runs the loop over `ends` (one per watch opened); returns its outcome and the watches opened. */
async function drive(
  ends: WatchEnd[],
  o: { resumes?: number[]; stopAfter?: number; retryGone?: boolean } = {},
): Promise<{ outcome: string; opened: number }> {
  let opened = 0;
  const lifetime = new AbortController();
  lifetime.abort(); // no pause before a retry in these rows
  const outcome = await runSideWatch({
    stopped: () => o.stopAfter !== undefined && opened >= o.stopAfter,
    once: async () => {
      const end = ends[opened++];
      assert.ok(end, `watch ${opened} opened after the loop should have ended`);
      return end;
    },
    takeResume: () => (o.resumes ?? []).includes(opened),
    ...(o.retryGone === undefined ? {} : { retryGone: () => o.retryGone === true }),
    signal: lifetime.signal,
  });
  return { outcome, opened };
}

describe('runSideWatch', () => {
  const table: Array<[string, WatchEnd[], Parameters<typeof drive>[1], string, number]> = [
    ['gives up after the resumes in a row without a line', Array(SIDE_WATCH_RESUMES + 1).fill(quiet), {}, 'gave-up', 4],
    ['a watch that brought lines starts the count again', [quiet, quiet, heard, quiet, quiet, quiet], {}, 'gave-up', 6],
    ['a cut on purpose is re-opened without counting', Array(7).fill(quiet), { resumes: [1, 2, 3] }, 'gave-up', 7],
    ['a 410 without a later start gives up at once', [gone], {}, 'gave-up', 1],
    ['a 410 the watch moved past is retried', [gone, heard, quiet, quiet, quiet], { retryGone: true }, 'gave-up', 5],
    ['a 410 it cannot move past gives up', [gone], { retryGone: false }, 'gave-up', 1],
    ['403 gives up at once', [refused(403)], {}, 'gave-up', 1],
    ['401 gives up at once', [refused(401)], {}, 'gave-up', 1],
    ['a 500 counts as an end without a line', Array(4).fill(refused(500)), {}, 'gave-up', 4],
    ['a stream error gives up', [{ kind: 'stream-error', status: { code: 500 } }], {}, 'gave-up', 1],
    ['stopped: ends quietly', [heard, heard, heard], { stopAfter: 2 }, 'stopped', 2],
  ];
  for (const [name, ends, o, outcome, opened] of table) {
    it(name, async () => {
      assert.deepEqual(await drive(ends, o), { outcome, opened });
    });
  }
});
