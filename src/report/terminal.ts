/**
 * What the TTY sink needs to draw safely on any terminal: a size that is never 0 (a pseudo-terminal
 * can report 0 columns, and a spinner dividing by it loops forever), frames cut to fit the screen,
 * and a stream for ora that stops writing once the terminal is gone.
 */
import * as readline from 'node:readline';

/** Used when the terminal reports no usable width (0, undefined): a common default. */
export const DEFAULT_COLUMNS = 80;
/** Used when the terminal reports no usable height. */
export const DEFAULT_ROWS = 24;
/** Widths beyond this are treated as this (a frame never needs more). */
const MAX_COLUMNS = 1000;
const MAX_ROWS = 500;

/** A terminal's size in cells; always at least 1 column and 2 rows. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The size of `stream`, with 0, negative, fractional or missing values replaced by the defaults. */
export function terminalSize(stream: { columns?: number; rows?: number }): TerminalSize {
  return {
    columns: usable(stream.columns, 1, MAX_COLUMNS) ?? DEFAULT_COLUMNS,
    rows: usable(stream.rows, 2, MAX_ROWS) ?? DEFAULT_ROWS,
  };
}

function usable(n: number | undefined, min: number, max: number): number | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n) || Math.floor(n) < min) return undefined;
  return Math.min(Math.floor(n), max);
}

const SGR = /^\u001b\[[0-9;]*m/;

/** Display cells of one code point: 0 for combining marks, 2 for East Asian wide and emoji, else 1. */
function cells(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/**
 * `line` cut to at most `width` display cells (SGR colours kept, reset when cut, `…` marking the
 * cut); tabs become a space so widths are known.
 */
export function fitLine(line: string, width: number): string {
  const tokens: Array<{ text: string; cells: number }> = [];
  let used = 0;
  let styled = false;
  for (let i = 0; i < line.length; ) {
    const sgr = SGR.exec(line.slice(i, i + 32));
    if (sgr) {
      tokens.push({ text: sgr[0], cells: 0 });
      styled = sgr[0] !== '\u001b[0m' && sgr[0] !== '\u001b[m';
      i += sgr[0].length;
      continue;
    }
    const cp = line.codePointAt(i)!;
    const w = cells(cp);
    if (used + w > width) {
      // Room for the ellipsis: drop printed characters until it fits.
      while (used + 1 > width && tokens.length > 0) used -= tokens.pop()!.cells;
      return `${tokens.map((t) => t.text).join('')}…${styled ? '\u001b[0m' : ''}`;
    }
    tokens.push({ text: cp === 9 ? ' ' : String.fromCodePoint(cp), cells: w });
    used += w;
    i += cp > 0xffff ? 2 : 1;
  }
  return tokens.map((t) => t.text).join('');
}

/**
 * A live frame that fits the screen: every line at most `columns - 2` cells wide (the spinner and
 * indentation included, so nothing wraps and the redraw knows exactly how many lines it drew), and
 * at most `rows - 1` lines, the last saying how many were left out.
 */
export function fitFrame(text: string, size: TerminalSize): string {
  const width = Math.max(1, size.columns - 2);
  const maxLines = Math.max(1, size.rows - 1);
  let lines = text.split('\n');
  if (lines.length > maxLines) {
    const hidden = lines.length - maxLines + 1;
    lines = [...lines.slice(0, maxLines - 1), `… ${hidden} more line${hidden === 1 ? '' : 's'}`];
  }
  return lines.map((l) => fitLine(l, width)).join('\n');
}

/**
 * The stream ora draws on: forwards to the real one while it works, reports a usable size, and
 * drops every write once the real stream failed (`broken`), so a spinner never writes into a closed
 * terminal and never loops on a 0-column one.
 */
export class LiveStream {
  readonly isTTY = true;
  broken = false;

  constructor(private readonly real: NodeJS.WritableStream & { columns?: number; rows?: number }) {}

  get columns(): number {
    return terminalSize(this.real).columns;
  }

  get rows(): number {
    return terminalSize(this.real).rows;
  }

  write(
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((err?: Error | null) => void),
    cb?: (err?: Error | null) => void,
  ): boolean {
    if (this.broken) return true;
    return this.real.write(chunk as string, encoding as BufferEncoding, cb);
  }

  cursorTo(x: number, y?: number): boolean {
    return readline.cursorTo(this as unknown as NodeJS.WritableStream, x, y as number);
  }

  moveCursor(dx: number, dy: number): boolean {
    return readline.moveCursor(this as unknown as NodeJS.WritableStream, dx, dy);
  }

  clearLine(dir: -1 | 0 | 1): boolean {
    return readline.clearLine(this as unknown as NodeJS.WritableStream, dir);
  }

  once(event: string, listener: (...args: unknown[]) => void): this {
    this.real.once(event, listener);
    return this;
  }

  removeListener(event: string, listener: (...args: unknown[]) => void): this {
    this.real.removeListener(event, listener);
    return this;
  }
}
