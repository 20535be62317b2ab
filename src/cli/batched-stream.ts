/**
 * The CLI's stdout for line sinks (plain, JSON): what the sink writes in one turn of the event loop
 * leaves in ONE write of one joined string. A 2,000-pod rollout prints tens of thousands of JSON
 * lines; a write (and a string conversion) per line measured 3.8 s of the process's 28 s of CPU
 * in bench big2000, and a corked `writev` of the same lines still 1.5 s.
 */
import { Writable } from 'node:stream';

/**
 * A stream that batches into `target`: writes are corked until the next turn, then joined. Errors
 * of `target` (EPIPE) reach the sink as this stream's; `flush` (an empty write's callback) still
 * resolves after everything before it reached `target`.
 */
export function batchedStream(target: NodeJS.WritableStream): NodeJS.WritableStream {
  let corked = false;
  const out = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      target.write(chunk, done);
    },
    writev(chunks, done) {
      target.write(chunks.map((c) => c.chunk as string).join(''), done);
    },
  });
  target.on('error', (err) => out.destroy(err));
  const write = out.write.bind(out) as (chunk: string, callback?: (err?: Error | null) => void) => boolean;
  out.write = ((chunk: string, ...rest: unknown[]) => {
    if (!corked) {
      corked = true;
      out.cork();
      setImmediate(() => {
        corked = false;
        out.uncork();
      });
    }
    const callback = rest.find((r) => typeof r === 'function') as ((err?: Error | null) => void) | undefined;
    return write(chunk, callback);
  }) as typeof out.write;
  return out;
}
