/**
 * The CLI's sink, loaded for the chosen output only: `-o plain` and `-o json` never load ora
 * (the terminal sink's spinner), which is most of the CLI's start-up after client-node.
 */
import { JsonSink } from '../report/json-sink.js';
import { PlainSink } from '../report/plain-sink.js';
import { resolveOutput, type Sink, type SinkOptions } from '../report/sink.js';

/** The sink for `options.output` and whether it is the terminal (TTY) sink. */
export async function openSink(options: SinkOptions): Promise<{ sink: Sink; tty: boolean }> {
  const stream = options.stream ?? process.stdout;
  const env = options.env ?? process.env;
  const resolved = { ...options, stream, env };
  switch (resolveOutput(options.output ?? 'auto', stream as { isTTY?: boolean }, env)) {
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
