/**
 * The CLI's sink, loaded for the chosen output only: `-o plain` and `-o json` never load ora
 * (the terminal sink's spinner), which is most of the CLI's start-up after client-node.
 */
import { JsonSink } from '../report/json-sink.js';
import { PlainSink } from '../report/plain-sink.js';
import { type Sink, type SinkOptions, sinkChoice } from '../report/sink.js';

/** The sink for `options.output` and whether it is the terminal (TTY) sink. */
export async function openSink(options: SinkOptions): Promise<{ sink: Sink; tty: boolean }> {
  const { format, options: resolved } = sinkChoice(options);
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
