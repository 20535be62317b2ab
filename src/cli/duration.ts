/** Go-style durations (`90s`, `5m`, `1m30s`, `1h`, `500ms`) or plain seconds (`90`, `1.5`). */

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
