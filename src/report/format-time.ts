/** Small time formatters shared by the sinks (pure; the caller supplies every instant). */

export { formatDuration, formatWindow } from '../core/index.js';

/** `HH:MM:SS` in UTC: short enough to prefix every CI line, unambiguous across runners' zones. */
export function formatClock(at: number): string {
  return new Date(at).toISOString().slice(11, 19);
}
