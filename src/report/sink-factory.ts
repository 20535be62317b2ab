/**
 * The one switch from an output format to its sink. The terminal sink's class is passed in, so a
 * caller may load it (and ora, most of the CLI's start-up after client-node) only when it is chosen.
 */
import { JsonSink } from './json-sink.js';
import { PlainSink } from './plain-sink.js';
import type { OutputFormat, Sink, SinkOptions } from './sink.js';

/** The terminal sink's constructor (`TtySink`). */
export type TtySinkClass = new (options: SinkOptions) => Sink;

/**
 * The sink for `format`, built with `options` (as `sinkChoice` resolves them). `TtySink` is needed
 * only for `tty`: a call that chooses `tty` without it throws.
 */
export function sinkFor(format: Exclude<OutputFormat, 'auto'>, options: SinkOptions, TtySink?: TtySinkClass): Sink {
  switch (format) {
    case 'tty':
      if (!TtySink) throw new Error('the terminal sink was chosen but not loaded');
      return new TtySink(options);
    case 'plain':
      return new PlainSink(options);
    case 'json':
      return new JsonSink(options);
  }
}
