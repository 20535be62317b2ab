/**
 * The TTY sink on any terminal: 0, 1 and 5 columns, a resize, few rows, and a terminal that goes
 * away (EPIPE). A 0-column terminal once made the redraw loop forever (ora divides by the width),
 * so that case runs in a child process with a deadline: a hang fails the test instead of hanging it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stripAnsi } from '../../../src/report/colors.js';
import { createSink } from '../../../src/report/index.js';
import { failedRollout, successfulRollout } from './fixtures.js';
import { FakeTty, screen, steppingClock } from './tty-stream.js';

/** Display width of a screen line (the tree's glyphs are one cell each). */
const width = (line: string) => [...stripAnsi(line)].length;

async function render(stream: FakeTty, events = failedRollout()) {
  const sink = createSink({ output: 'tty', stream, env: {}, now: steppingClock() });
  const frames: string[][] = [];
  for (const e of events.slice(0, -1)) {
    sink.write(e);
    frames.push(screen(stream.output));
  }
  sink.write(events.at(-1)!);
  await sink.close();
  return frames;
}

test('tty size - 0 columns: the sink treats it as 80, ends, and writes a bounded amount (child process, 20 s deadline)', () => {
  const child = fileURLToPath(new URL('./tty-zero-child.ts', import.meta.url));
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 20_000, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.error, undefined, `the sink did not finish within 20 s on a 0-column terminal (${run.error?.message})`);
  assert.equal(run.status, 0, run.stderr);
  const { bytes, lines } = JSON.parse(run.stdout) as { bytes: number; lines: string[] };
  assert.ok(bytes < 200_000, `bounded output: ${bytes} bytes`);
  assert.ok(
    lines.some((l) => l.includes('FAILED')),
    lines.join('\n'),
  );
  assert.ok(Date.now() - started < 20_000);
});

for (const columns of [1, 5]) {
  test(`tty size - ${columns} column(s): every live frame fits the width, nothing wraps`, async () => {
    const stream = new FakeTty(columns, 24);
    const frames = await render(stream);
    for (const frame of frames)
      for (const line of frame) assert.ok(width(line) <= columns, `${JSON.stringify(line)} is wider than ${columns}`);
    assert.ok(stream.output.length < 100_000, `bounded output: ${stream.output.length}`);
    assert.ok(
      screen(stream.output).some((l) => l.includes('FAILED')),
      'the verdict block is printed whole (the terminal wraps it)',
    );
  });
}

test('tty size - a live frame never has more lines than the screen (rows - 1), the last one says how many are hidden', async () => {
  const stream = new FakeTty(120, 4);
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  for (const e of successfulRollout().slice(0, 10)) sink.write(e);
  const live = screen(stream.output);
  assert.equal(live.length, 3, live.join('\n'));
  assert.match(live[2]!, /… \d+ more lines$/);
  await sink.close();
});

test('tty size - a resize re-fits the frame at once', async () => {
  const stream = new FakeTty(120, 24);
  const sink = createSink({ output: 'tty', stream, env: { NO_COLOR: '1' }, now: steppingClock() });
  for (const e of successfulRollout().slice(0, 10)) sink.write(e);
  assert.ok(
    screen(stream.output).some((l) => width(l) > 30),
    'wide lines at 120 columns',
  );
  stream.output = '';
  stream.resize(30, 24);
  const after = screen(stream.output.slice(stream.output.lastIndexOf('\u001b[?2026h')));
  assert.ok(after.length > 0, 'redrawn on resize');
  for (const line of after) assert.ok(width(line) <= 30, `${JSON.stringify(line)} after resizing to 30 columns`);
  await sink.close();
});

test('tty size - EPIPE: drawing stops, no error escapes, close() resolves, later events are ignored', async () => {
  const stream = new FakeTty(80, 24);
  const sink = createSink({ output: 'tty', stream, env: {}, now: steppingClock() });
  const events = failedRollout();
  for (const e of events.slice(0, 5)) sink.write(e);
  let writes = 0;
  const write = stream.write.bind(stream);
  stream.write = ((...args: Parameters<typeof write>) => {
    writes++;
    return write(...args);
  }) as typeof stream.write;
  stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  for (const e of events.slice(5)) sink.write(e);
  await new Promise((r) => setTimeout(r, 300)); // ora's own timer would draw within 80 ms
  stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })); // a late one is handled too
  await sink.close();
  assert.equal(writes, 0, 'nothing written after the terminal went away');
});
