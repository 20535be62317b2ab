/**
 * JSON lines: one object per event (the last one per Deployment is its `verdict`). Schema:
 * docs/json-schema.md. Every line carries `schemaVersion` and an ISO `time` next to `at`.
 */
import type { RolloutEvent } from '../core/index.js';
import { flush, type Sink, type SinkOptions } from './sink.js';

/** Version of the JSON lines schema; bumped only on incompatible changes. */
export const JSON_SCHEMA_VERSION = 1;

/** The shape of one JSON line. */
export type JsonLine = { schemaVersion: typeof JSON_SCHEMA_VERSION; time: string } & RolloutEvent;

/** Serialises one event as a JSON line (without the newline). */
export function toJsonLine(e: RolloutEvent): string {
  const line = { schemaVersion: JSON_SCHEMA_VERSION, time: new Date(e.at).toISOString(), ...e };
  return JSON.stringify(line);
}

/** Writes each event as one JSON object per line. */
export class JsonSink implements Sink {
  private readonly stream: NodeJS.WritableStream;
  private closed = false;

  constructor(options: SinkOptions = {}) {
    this.stream = options.stream ?? process.stdout;
  }

  write(e: RolloutEvent): void {
    if (this.closed) return;
    this.stream.write(`${toJsonLine(e)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await flush(this.stream);
  }
}
