import assert from 'node:assert/strict';
import { it } from 'node:test';
import { comparableTime } from '../../../src/track/log-follower.js';

it('comparableTime pads the fraction so kubelet timestamps sort as text', () => {
  assert.equal(comparableTime('2026-11-23T08:00:05Z'), '2026-11-23T08:00:05.000000000Z');
  assert.equal(comparableTime('2026-11-23T08:00:05.12Z'), '2026-11-23T08:00:05.120000000Z');
  assert.equal(comparableTime('2026-11-23T08:00:05.123456789Z'), '2026-11-23T08:00:05.123456789Z');
  const a = comparableTime('2026-11-23T08:00:05.1Z')!;
  const b = comparableTime('2026-11-23T08:00:05.12Z')!;
  assert.ok(a < b, 'unpadded, "05.1Z" would sort after "05.12Z"');
  assert.equal(comparableTime('2026-11-23T08:00:05+01:00'), undefined, 'only UTC is compared');
  assert.equal(comparableTime('not a time'), undefined);
});
