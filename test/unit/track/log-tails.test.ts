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
