/**
 * Writing recordings: traces that end at different times into one path (a Pulumi run's) make one
 * readable file, however their writes interleave with the gzip streams still flushing, and
 * `recordingsFlushed` settles only once every byte is on disk.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { parseRecording, recordingsFlushed, recordTrace } from '../../../src/record/index.js';

const dir = mkdtempSync(join(tmpdir(), 'rt-recorder-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const setup = (name: string) => ({
  target: { namespace: 'default', name },
  policy: { classes: {}, success: undefined, settleSeconds: 0 },
  timeoutSeconds: 60,
});
const noMask = (text: string) => text;

/** One trace with `events` events, each carrying about `size` bytes of text. */
function traceInto(path: string, name: string, events: number, size: number): void {
  const rec = recordTrace(path, setup(name) as never, noMask);
  rec.started(1);
  for (let i = 0; i < events; i++) {
    rec.event({
      type: 'note',
      at: i,
      text: `${name}-${i}-${Math.random()
        .toString(36)
        .repeat(size / 10)}`,
    } as never);
  }
  rec.error(`${name} ended`);
}

test('traces into one path that end one after another make one readable recording', async () => {
  const path = join(dir, 'run.rtrec.gz');
  // Each trace closes the file and the next appends at once, while the last gzip member is
  // still being compressed and written.
  for (let n = 0; n < 8; n++) traceInto(path, `w${n}`, 200, 2_000);
  await recordingsFlushed();
  const recording = parseRecording(gunzipSync(readFileSync(path)).toString('utf8'), path);
  assert.deepEqual(
    recording.traces.map((t) => [t.target.name, t.items.length, t.error]),
    Array.from({ length: 8 }, (_, n) => [`w${n}`, 200, `w${n} ended`]),
  );
});

test('recordingsFlushed waits for a recording closed while it already waits', async () => {
  const path = join(dir, 'late.rtrec.gz');
  traceInto(path, 'first', 50, 2_000);
  const flushed = recordingsFlushed();
  traceInto(path, 'second', 300, 2_000);
  await flushed;
  const recording = parseRecording(gunzipSync(readFileSync(path)).toString('utf8'), path);
  assert.deepEqual(
    recording.traces.map((t) => t.target.name),
    ['first', 'second'],
  );
});
