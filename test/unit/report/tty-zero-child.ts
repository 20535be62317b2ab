/**
 * Child of tty-size.test.ts: a whole failed rollout rendered on a 0-column, 0-row terminal. Prints
 * `{ bytes, lines }` (output size, final screen) as JSON; a hang is the parent's timeout.
 */
import { createSink } from '../../../src/report/index.js';
import { failedRollout } from './fixtures.js';
import { FakeTty, screen } from './tty-stream.js';

const stream = new FakeTty(0, 0);
const sink = createSink({ output: 'tty', stream, env: {} });
for (const e of failedRollout()) sink.write(e);
await sink.close();
process.stdout.write(JSON.stringify({ bytes: stream.output.length, lines: screen(stream.output) }));
