/**
 * The CLI's sink, loaded for the chosen output only: `-o plain` and `-o json` never load ora
 * (the terminal sink's spinner), which is most of the CLI's start-up after client-node.
 */
import { JsonSink } from '../report/json-sink.js';
import { PlainSink } from '../report/plain-sink.js';
import { type Sink, type SinkOptions, sinkChoice } from '../report/sink.js';

/** What {@link openSink} takes: the sink options, and how a line sink's stream is batched. */
export interface OpenSinkOptions extends SinkOptions {
  /** Wraps the stream of a line sink (plain, JSON); the terminal sink writes frames itself. */
  batched?: (stream: NodeJS.WritableStream) => NodeJS.WritableStream;
}

/** The sink for `options.output` and whether it is the terminal (TTY) sink. */
export async function openSink({ batched, ...options }: OpenSinkOptions): Promise<{ sink: Sink; tty: boolean }> {
  const { format, options: chosen } = sinkChoice(options);
  const target = chosen.stream;
  const resolved =
    format !== 'tty' && batched && target ? { ...chosen, stream: Object.assign(batched(target), { isTTY: target.isTTY }) } : chosen;
  switch (format) {
    case 'tty': {
      const { TtySink } = await import('../report/tty-sink.js');
      return { sink: new TtySink(resolved), tty: true };
    }
    case 'plain':
      return { sink: new PlainSink(resolved), tty: false };
    case 'json':
      return { sink: new JsonSink(resolved), tty: false };
  }
}
