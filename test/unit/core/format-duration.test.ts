import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatDuration, formatWindow } from '../../../src/core/format-duration.js';

function check(format: (ms: number) => string, cases: [number, string][]): void {
  for (const [ms, text] of cases) assert.equal(format(ms), text, String(ms));
}

it('formatDuration: ms under a second, one decimal under a minute, then m/s and h/m', () => {
  check(formatDuration, [
    [0, '0ms'],
    [850, '850ms'],
    [1000, '1.0s'],
    [12_345, '12.3s'],
    [65_000, '1m05s'],
    [150_000, '2m30s'],
    [3_720_000, '1h02m'],
    [-5, '0ms'],
    [Number.NaN, '0ms'],
  ]);
});

it('formatWindow: a configured window in whole seconds reads like the flag that set it', () => {
  check(formatWindow, [
    [10_000, '10s'],
    [12_000, '12s'],
    [150_000, '2m30s'],
    [13_500, '13.5s'],
    [500, '500ms'],
  ]);
});
