/** The sink contract and the options shared by every sink. */
import type { RolloutEvent } from '../core/index.js';

/** Consumes the {@link RolloutEvent} stream and renders it somewhere. */
export interface Sink {
  /** Renders one event. Never throws for a well-formed event. */
  write(e: RolloutEvent): void;
  /** Stops timers/spinners, prints anything still pending, and resolves once flushed. */
  close(): Promise<void>;
}

/** Output formats. `auto`: `tty` on an interactive terminal outside CI, else `plain`. */
export type OutputFormat = 'auto' | 'tty' | 'plain' | 'json';

/** Timer functions, injectable so tests drive the "still waiting" line with a fake clock. */
export interface SinkTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Options of {@link createSink} and of each sink class. */
export interface SinkOptions {
  output?: OutputFormat;
  /** Where to write. Default `process.stdout`. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Environment consulted for CI, NO_COLOR, FORCE_COLOR, GITHUB_ACTIONS, GITLAB_CI. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Clock (ms since epoch). Default `Date.now`. */
  now?: () => number;
  /** Plain sink: print `still waiting: ...` after this long without a line. Default 30 s; 0 disables. */
  stillWaitingMs?: number;
  /** Default: the global timers (unref'd so they never keep the process alive). */
  timers?: SinkTimers;
  /** Append Pulumi's await messages to failure summaries. Default false. */
  pulumiMessages?: boolean;
}

/** The global timers, unref'd. */
export const realTimers: SinkTimers = {
  setInterval(fn, ms) {
    const handle = setInterval(fn, ms);
    handle.unref();
    return handle;
  },
  clearInterval(handle) {
    clearInterval(handle as NodeJS.Timeout);
  },
};

/**
 * Resolves once everything written so far to `stream` is handed to the OS, or at once when the
 * stream failed or was destroyed (nothing more can be handed over).
 */
export function flush(stream: NodeJS.WritableStream): Promise<void> {
  if ((stream as { destroyed?: boolean }).destroyed === true) return Promise.resolve();
  return new Promise((resolve) => {
    // An empty write's callback runs after the queued writes before it (with an error if it failed).
    if (!stream.write('', () => resolve())) stream.once('drain', () => resolve());
  });
}

/**
 * Resolves `auto` like ora does: a TTY stream, `TERM` not `dumb`, and no `CI` variable (any value)
 * means `tty`; anything else means `plain`.
 */
export function resolveOutput(
  output: OutputFormat,
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): Exclude<OutputFormat, 'auto'> {
  if (output !== 'auto') return output;
  const interactive = stream.isTTY === true && env.TERM !== 'dumb' && !('CI' in env);
  return interactive ? 'tty' : 'plain';
}

/**
 * The output format `options` ask for (`auto` resolved) and the options with their stream and env
 * defaults (stdout, `process.env`) filled in: what every sink constructor takes.
 */
export function sinkChoice(options: SinkOptions): { format: Exclude<OutputFormat, 'auto'>; options: SinkOptions } {
  const stream = options.stream ?? process.stdout;
  const env = options.env ?? process.env;
  return { format: resolveOutput(options.output ?? 'auto', stream as { isTTY?: boolean }, env), options: { ...options, stream, env } };
}

/**
 * Watches `stream` for a write error (EPIPE: the reader left; EIO: the terminal is gone) and calls
 * `onBroken` once: the sink stops writing, the error never crashes the process, and tracking goes
 * on to its verdict and exit code. Returns the removal of the listener.
 */
export function onBrokenStream(stream: NodeJS.WritableStream, onBroken: (err: Error) => void): () => void {
  let broken = false;
  const listener = (err: Error) => {
    if (broken) return;
    broken = true;
    onBroken(err);
  };
  stream.on('error', listener);
  return () => stream.off('error', listener);
}
