import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LogTail } from '../../../src/core/types.js';
import { withoutRepeatedTail } from '../../../src/track/log-tails.js';

const tail = (previous: boolean, lines: string[], error?: string): LogTail => ({
  pod: 'web-1',
  container: 'app',
  previous,
  lines,
  ...(error !== undefined ? { error } : {}),
});

test('log tails: a current tail repeating the previous instance (CrashLoopBackOff) is dropped; different ones are kept', () => {
  const crashed = tail(true, ['starting', 'fatal: boom']);
  assert.deepEqual(withoutRepeatedTail([crashed, tail(false, ['starting', 'fatal: boom'])]), [crashed]);
  const running = tail(false, ['starting', 'serving']);
  assert.deepEqual(withoutRepeatedTail([crashed, running]), [crashed, running]);
  const unavailable = tail(false, [], 'container not running');
  assert.deepEqual(withoutRepeatedTail([crashed, unavailable]), [crashed, unavailable]);
  assert.deepEqual(withoutRepeatedTail([tail(false, ['only current'])]), [tail(false, ['only current'])]);
  assert.deepEqual(withoutRepeatedTail([tail(true, []), tail(false, [])]), [tail(true, []), tail(false, [])]);
});

test("log tails: a restarted instance that has printed the crashed one's lines so far is a repeat, even with the tail windows a line apart", () => {
  const crashed = tail(true, ['b', 'c', 'long line', 'fatal: boom']);
  // The new instance runs: the same output, no crash line yet; its last 4 lines start one earlier.
  assert.deepEqual(withoutRepeatedTail([crashed, tail(false, ['a', 'b', 'c', 'long line'])]), [crashed]);
  assert.deepEqual(withoutRepeatedTail([crashed, tail(false, ['b', 'c'])]), [crashed]);
  // Periodic output still aligns.
  const ticks = tail(true, ['tick', 'tick', 'fatal']);
  assert.deepEqual(withoutRepeatedTail([ticks, tail(false, ['tick', 'tick', 'tick'])]), [ticks]);
  // Something the crashed instance did not print: kept.
  const different = tail(false, ['a', 'b', 'c', 'retrying with the replica']);
  assert.deepEqual(withoutRepeatedTail([crashed, different]), [crashed, different]);
  // Only lines before the crashed tail's window: nothing proves a repeat, kept.
  const early = tail(false, ['a']);
  assert.deepEqual(withoutRepeatedTail([crashed, early]), [crashed, early]);
  // One matching line after others: too little to call the rest old output, kept.
  const mostlyNew = tail(false, ['x', 'y', 'b']);
  assert.deepEqual(withoutRepeatedTail([crashed, mostlyNew]), [crashed, mostlyNew]);
});
