/**
 * Minimal ANSI styling for the sinks. A sink decides once whether it may colour (see
 * {@link shouldColor}) and gets a {@link Palette} whose functions are identity when it may not.
 */

/** Functions that wrap text in one ANSI style (or return it unchanged). */
export interface Palette {
  enabled: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** A palette that colours when `enabled`, else returns text unchanged. */
export function palette(enabled: boolean): Palette {
  if (!enabled) {
    const id = (s: string) => s;
    return { enabled, red: id, green: id, yellow: id, cyan: id, dim: id, bold: id };
  }
  return {
    enabled,
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

/**
 * Colour policy shared by every sink: never when `NO_COLOR` is set (non-empty, per no-color.org)
 * or `FORCE_COLOR=0`; always when `FORCE_COLOR` is set to anything else; otherwise only when the
 * stream is a terminal (so CI logs and files stay clean).
 */
export function shouldColor(stream: { isTTY?: boolean } | undefined, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.TERM === 'dumb') return false;
  return stream?.isTTY === true;
}

/** Removes ANSI escape sequences (for width computations and tests). */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
