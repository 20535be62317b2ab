/**
 * JSON lines: one object per event (the last one per Deployment is its `verdict`). Schema:
 * docs/json-schema.md. Every line carries `schemaVersion` and an ISO `time` next to `at`.
 */

import type { RolloutEvent } from '../core/index.js';
import { cleanedEvent } from '../core/index.js';
import { flush, onBrokenStream, type Sink, type SinkOptions } from './sink.js';

/** Version of the JSON lines schema; bumped only on incompatible changes. */
export const JSON_SCHEMA_VERSION = 1;

/** The shape of one JSON line. */
export type JsonLine = { schemaVersion: typeof JSON_SCHEMA_VERSION; time: string } & RolloutEvent;

/**
 * Characters JSON.stringify leaves raw that a terminal or a log viewer may obey (DEL, C1, LS, PS),
 * and `##[`, a GitHub Actions command: one pass over the line finds both.
 */
const UNSAFE = /[\u007f-\u009f\u2028\u2029]|##\[/g;

/** The escape of one {@link UNSAFE} match: `\u009b`, never the raw byte; `#\u0023[` (the same string once parsed). */
const escapeUnsafe = (match: string): string => (match === '##[' ? '#\\u0023[' : `\\u${match.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Serialises one event as a JSON line (without the newline): its cluster text cleaned (see
 * docs/security.md), and only printable characters and escapes (`\u009b`, never the raw byte).
 */
export function toJsonLine(e: RolloutEvent): string {
  const line = { schemaVersion: JSON_SCHEMA_VERSION, time: new Date(e.at).toISOString(), ...cleanedEvent(e) };
  return JSON.stringify(line).replace(UNSAFE, escapeUnsafe);
}

/** Writes each event as one JSON object per line. */
export class JsonSink implements Sink {
  private readonly stream: NodeJS.WritableStream;
  private closed = false;
  /** The stream failed (EPIPE, EIO): nothing more is written. */
  private broken = false;

  constructor(options: SinkOptions = {}) {
    this.stream = options.stream ?? process.stdout;
    onBrokenStream(this.stream, () => (this.broken = true));
  }

  write(e: RolloutEvent): void {
    if (this.closed || this.broken) return;
    this.stream.write(`${toJsonLine(e)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.broken) await flush(this.stream);
  }
}
