/**
 * `rollout-trace replay FILE`: reads a recording (record/format.ts), replays each trace through the
 * reducer under the recorded policy or the given policy flags (record/replay.ts), and renders the
 * events with the sink `-o` picks, at once or at `--speed N` times the recorded pace. No cluster.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import type { RolloutEvent } from '../core/index.js';
import { kindRefusal } from '../core/index.js';
import { parseRecording, type Recording, RecordingError } from '../record/index.js';
import { type ReplayedTrace, replayPolicy, replayTrace } from '../track/index.js';
import { EXIT, type ExitCode, exitCodeOf } from './exit-codes.js';
import type { CliIo } from './io.js';
import type { ReplayOptions } from './replay-args.js';
import { runOutputs } from './run-outputs.js';
import { openSink } from './sink.js';
import { UsageError } from './usage-error.js';

/** The largest recording replayed, decompressed (a 2,000-pod rollout is well under it). */
const MAX_RECORDING_BYTES = 512 * 1024 * 1024;

/** Replays `options.file` and resolves with the exit code its verdicts give. */
export async function replayCommand(options: ReplayOptions, io: CliIo): Promise<ExitCode> {
  const recording = readRecording(options.file);
  for (const t of recording.traces) {
    const refused = kindRefusal(t.target.kind, t.target.name, {
      policy: options.policy,
      pulumiMessages: options.pulumiMessages,
    });
    if (refused) throw new UsageError(refused);
  }
  const outputs = runOutputs(options, io.env);
  const replayed = recording.traces.map((t) => replayed1(t, options, recording));
  const { sink } = await openSink({ output: options.output, stream: io.stdout, env: io.env, pulumiMessages: options.pulumiMessages });
  let last: number | undefined;
  for (const e of inTimeOrder(replayed)) {
    if (options.speed !== undefined && last !== undefined && e.at > last) await sleep((e.at - last) / options.speed);
    last = e.at;
    sink.write(e);
    outputs.add(e);
  }
  await sink.close();
  const verdicts = replayed.flatMap((r) => (r.verdict ? [r.verdict] : []));
  outputs.finish(verdicts, `rollout-trace replay ${options.file}`, io);
  const unfinished = recording.traces.findIndex((_, i) => !replayed[i]!.verdict);
  if (unfinished >= 0) {
    const { target, error } = recording.traces[unfinished]!;
    const which = `${target.kind} ${target.namespace}/${target.name}`;
    io.stderr.write(
      error !== undefined
        ? `rollout-trace: the recorded trace of ${which} ended without a verdict: ${error}\n`
        : `rollout-trace: the recording of ${which} ends before its verdict (it was cut short).\n`,
    );
    return error !== undefined ? EXIT.cluster : EXIT.usage;
  }
  return exitCodeOf(
    replayed.map((r) => r.verdict!),
    false,
  );
}

/** One trace replayed; a recording the reducer cannot take (hand-edited, hostile) is a usage error, never a crash. */
function replayed1(t: Recording['traces'][number], options: ReplayOptions, recording: Recording): ReplayedTrace {
  const policy = replayPolicy(t.policy, options.policy);
  try {
    return replayTrace(t, policy, t.startedAt ?? recording.header.startedAt);
  } catch {
    throw new UsageError(
      `${JSON.stringify(options.file)} cannot be replayed: the trace of ${t.target.name} holds observations that are not Kubernetes objects as the API server sends them.`,
    );
  }
}

/** Every trace's events, merged by time (each trace's own order kept). */
function inTimeOrder(replayed: ReplayedTrace[]): RolloutEvent[] {
  return replayed
    .flatMap((r, trace) => r.events.map((e, i) => ({ e, trace, i })))
    .sort((a, b) => a.e.at - b.e.at || a.trace - b.trace || a.i - b.i)
    .map((x) => x.e);
}

/** Reads and parses a recording (gzip-compressed, or plain JSON lines); a bad one is a usage error naming it. */
function readRecording(file: string): Recording {
  const what = JSON.stringify(file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read the recording ${what}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}.`);
  }
  try {
    const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
    const text = (gzipped ? gunzipSync(bytes, { maxOutputLength: MAX_RECORDING_BYTES }) : bytes).toString('utf8');
    return parseRecording(text, what);
  } catch (err) {
    if (err instanceof RecordingError) throw new UsageError(err.message.endsWith('.') ? err.message : `${err.message}.`);
    const why =
      (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
        ? `larger than ${MAX_RECORDING_BYTES / 2 ** 20} MB once decompressed`
        : 'truncated or corrupt';
    throw new UsageError(`${what} cannot be replayed: its compressed data is ${why}.`);
  }
}
