/**
 * The CLI's sink, loaded for the chosen output only: `-o plain` and `-o json` never load ora
 * (the terminal sink's spinner), which is most of the CLI's start-up after client-node.
 */
import { type Sink, type SinkOptions, sinkChoice } from '../report/sink.js';
import { sinkFor } from '../report/sink-factory.js';

/** What {@link openSink} takes: the sink options, and how a line sink's stream is batched. */
export interface OpenSinkOptions extends SinkOptions {
  /** Wraps the stream of a line sink (plain, JSON); the terminal sink writes frames itself. */
  batched?: (stream: NodeJS.WritableStream) => NodeJS.WritableStream;
}

/** The sink for `options.output` (report's `sinkFor`) and whether it is the terminal (TTY) sink. */
export async function openSink({ batched, ...options }: OpenSinkOptions): Promise<{ sink: Sink; tty: boolean }> {
  const { format, options: chosen } = sinkChoice(options);
  if (format === 'tty') {
    const { TtySink } = await import('../report/tty-sink.js');
    return { sink: sinkFor(format, chosen, TtySink), tty: true };
  }
  const target = chosen.stream;
  const stream = batched && target ? Object.assign(batched(target), { isTTY: target.isTTY }) : target;
  return { sink: sinkFor(format, { ...chosen, ...(stream ? { stream } : {}) }), tty: false };
}
