/**
 * Writing a recording (I/O): one gzip-compressed JSON-lines file per path, shared by every trace
 * recorded into it (the CLI's targets), closed once the last of them ended. The file is opened at
 * once, so a path that cannot be written is refused before anything is traced.
 */
import { createWriteStream, openSync } from 'node:fs';
import { createGzip, type Gzip } from 'node:zlib';
import type { Observation, RolloutEvent, Verdict } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';
import { packageVersion } from '../version.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordedTrace, scrubObservation } from './format.js';

/** What a tracker records of one trace. */
export interface TraceRecorder {
  /** When the trace's state began (its `startedAt`: durations count from it). */
  started(at: number): void;
  /** An observation the reducer was fed (after the verdict, with `--watch`). */
  observation(obs: Observation): void;
  /** Observations the reducer was fed as one step (core `reduceBatch`); one of them is an `observation`. */
  batch(observations: readonly Observation[]): void;
  event(e: RolloutEvent): void;
  /** The tracker watches on after its verdict (`--watch`): what it sees next is recorded after this mark. */
  watching(): void;
  /** The published verdict (with its log tails) and when the core reached it; ends the trace unless it watches on. */
  verdict(v: Verdict, at: number): void;
  /** The watch after the verdict ended; ends the trace. */
  end(): void;
  /** The trace ended with an error (no verdict); ends the trace. */
  error(message: string): void;
}

const open = new Map<string, RecordingFile>();
/** Paths recorded into by this process, and how many traces each holds: a later trace appends. */
const tracesIn = new Map<string, number>();
/** Recordings closed and still being written out. */
const flushing = new Set<Promise<void>>();
/** Per path, when the last file opened on it is on disk: a later one appends only after it. */
const lastWritten = new Map<string, Promise<void>>();

/** The recording at `path` (opened, or created and truncated): one per path in the process. */
function recordingAt(path: string): RecordingFile {
  let file = open.get(path);
  if (!file) {
    file = new RecordingFile(path);
    open.set(path, file);
  }
  return file;
}

/**
 * Starts recording one trace into `path`; `mask` redacts text as the trace does. Throws a
 * 'bad-input' error naming the path when it cannot be written.
 */
export function recordTrace(path: string, setup: Omit<RecordedTrace, 'trace'>, mask: (text: string) => string): TraceRecorder {
  return recordingAt(path).trace(setup, mask);
}

class RecordingFile {
  private readonly gzip: Gzip;
  private readonly written: Promise<void>;
  private traces: number;
  private running = 0;

  constructor(private readonly path: string) {
    // A path this process recorded into before (a Pulumi run's traces end at different times)
    // is appended to: one more gzip member, its traces numbered on.
    const earlier = tracesIn.get(path);
    this.traces = earlier ?? 0;
    let fd: number;
    try {
      fd = openSync(path, earlier === undefined ? 'w' : 'a');
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'its directory does not exist' : (err as Error).message;
      throw new RolloutTraceError(
        'bad-input',
        `cannot write the recording to ${JSON.stringify(path)}: ${why}. Give a file path in a writable directory.`,
      );
    }
    this.gzip = createGzip();
    const out = createWriteStream('', { fd, autoClose: true });
    this.written = new Promise((resolve) => {
      out.on('close', resolve);
      out.on('error', () => resolve());
    });
    // The gzip member before this one may still be compressing: this one's bytes follow its last
    // (buffered meanwhile), or the two would interleave into a file no one can read.
    const before = lastWritten.get(path);
    if (before) void before.then(() => this.gzip.pipe(out));
    else this.gzip.pipe(out);
    lastWritten.set(path, this.written);
    if (earlier === undefined)
      this.write({ format: RECORDING_FORMAT, version: RECORDING_VERSION, tool: packageVersion(), startedAt: Date.now() });
  }

  trace(setup: Omit<RecordedTrace, 'trace'>, mask: (text: string) => string): TraceRecorder {
    const t = this.traces++;
    tracesIn.set(this.path, this.traces);
    this.running++;
    this.write({ trace: t, ...setup });
    let ended = false;
    let watching = false;
    const end = (line?: object) => {
      if (ended) return;
      ended = true;
      if (line) this.write(line);
      if (--this.running === 0) this.close();
    };
    return {
      started: (at) => this.write({ t, started: at }),
      observation: (obs) => !ended && this.write({ t, o: scrubObservation(obs, mask) }),
      batch: (observations) => {
        if (ended) return;
        if (observations.length === 1) this.write({ t, o: scrubObservation(observations[0]!, mask) });
        else this.write({ t, b: observations.map((obs) => scrubObservation(obs, mask)) });
      },
      event: (e) => !ended && this.write({ t, e }),
      watching: () => {
        watching = true;
        if (!ended) this.write({ t, watch: true });
      },
      verdict: (v, at) => (watching ? !ended && this.write({ t, v, at }) : end({ t, v, at })),
      end: () => end(),
      error: (message) => end({ t, error: message }),
    };
  }

  private write(line: object): void {
    this.gzip.write(`${JSON.stringify(line)}\n`);
  }

  private close(): void {
    open.delete(this.path);
    flushing.add(this.written);
    void this.written.then(() => flushing.delete(this.written));
    this.gzip.end();
  }
}

/**
 * Settles once every closed recording reached the disk, those closed while it waits included
 * (the CLI waits before it exits).
 */
export async function recordingsFlushed(): Promise<void> {
  while (flushing.size > 0) await Promise.all([...flushing]);
}
