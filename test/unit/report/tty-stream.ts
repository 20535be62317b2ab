/** A PassThrough that behaves like a terminal for ora (isTTY + cursor methods), recording output. */

import * as readline from 'node:readline';
import { PassThrough } from 'node:stream';

export class FakeTty extends PassThrough {
  readonly isTTY = true;
  output = '';

  /** `columns`/`rows` as a pseudo-terminal reports them (0 or undefined included). */
  constructor(
    public columns: number | undefined = 120,
    public rows: number | undefined = undefined,
  ) {
    super();
    this.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
  }

  cursorTo(x: number, y?: number): boolean {
    return readline.cursorTo(this, x, y as number);
  }

  moveCursor(dx: number, dy: number): boolean {
    return readline.moveCursor(this, dx, dy);
  }

  clearLine(dir: -1 | 0 | 1): boolean {
    return readline.clearLine(this, dir);
  }

  /** The terminal window changed size (SIGWINCH): Node updates the fields and emits 'resize'. */
  resize(columns: number, rows?: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/**
 * Interprets the output as a terminal would (cursor up, erase line, carriage return) and returns
 * the visible screen lines: what a user sees at the end.
 */
export function screen(output: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  // eslint-disable-next-line no-control-regex
  const tokens = output.match(/\u001b\[[0-9;?]*[A-Za-z]|\r|\n|[^\u001b\r\n]+/g) ?? [];
  for (const t of tokens) {
    if (t === '\n') {
      row++;
      col = 0;
      lines[row] ??= '';
    } else if (t === '\r') {
      col = 0;
    } else if (t.startsWith('\u001b[')) {
      const m = /^\u001b\[([0-9;?]*)([A-Za-z])$/.exec(t)!;
      const n = Number(m[1] || '1');
      if (m[2] === 'A') row = Math.max(0, row - n);
      else if (m[2] === 'B') row += n;
      else if (m[2] === 'G') col = n - 1;
      else if (m[2] === 'K') lines[row] = m[1] === '2' ? '' : (lines[row] ?? '').slice(0, col);
      lines[row] ??= '';
    } else {
      const cur = lines[row] ?? '';
      lines[row] = cur.slice(0, col).padEnd(col) + t + cur.slice(col + t.length);
      col += t.length;
    }
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A clock that moves one second at each reading: every event is past the TTY sink's minimum
 * render interval, so each write redraws at once (tests read the screen right after writing).
 */
export function steppingClock(): () => number {
  let t = 0;
  return () => (t += 1000);
}
