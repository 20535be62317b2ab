/**
 * The first line of `text` (trimmed), cut to `max` characters with `…`: how a diagnosis quotes a
 * cluster- or classifier-supplied message in one line. `undefined` or empty text stays `undefined`.
 */
export function firstLine(text: string, max?: number): string;
export function firstLine(text: string | undefined, max?: number): string | undefined;
export function firstLine(text: string | undefined, max = 160): string | undefined {
  if (!text) return undefined;
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
