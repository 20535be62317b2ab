/** Go-style durations (`90s`, `5m`, `1m30s`, `1h`, `500ms`) or plain seconds (`90`, `1.5`), and duration flags. */
import { durationProblem } from '../long-timer.js';
import { UsageError } from './usage-error.js';

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/**
 * Parses a duration into seconds, or returns undefined when `text` is not one.
 * Zero is allowed (callers decide whether it makes sense).
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
  return total;
}

/** A duration flag's value in seconds, at most the longest duration a timer can represent (long ones work). */
export function durationInRange(flag: string, text: string, seconds: number): number {
  const problem = durationProblem(seconds);
  if (problem) throw new UsageError(`${flag} "${text}" cannot be used: ${problem}; use a duration such as 90s, 5m, 1m30s or 72h.`);
  return seconds;
}

/** A duration flag that must be more than zero (`--timeout`, `--no-progress-timeout`, `--watch-for`). */
export function positiveDurationFlag(flag: string, text: string): number {
  const seconds = parseDuration(text);
  if (seconds === undefined || seconds <= 0) {
    throw new UsageError(`${flag} "${text}" is not a duration; use seconds or a Go-style duration such as 90s, 5m or 1m30s.`);
  }
  return durationInRange(flag, text, seconds);
}
