/**
 * The recording format (pure): what `--record FILE` writes and `rollout-trace replay` reads, one
 * JSON object per line (gzip-compressed on disk, docs/recording.md):
 *
 *   {"format":"rollout-trace-recording","version":1,"tool":"0.1.0","startedAt":<ms>}
 *   {"trace":0,"target":{...},"policy":{...},"timeoutSeconds":600}        one per traced workload
 *   {"t":0,"started":<ms>}                                                when its state began
 *   {"t":0,"o":<observation>}                                             what the reducer was fed
 *   {"t":0,"b":[<observation>,...]}                                       observations it was fed as one step (version 2)
 *   {"t":0,"e":<event>}                                                   the tracker's own events (log lines, warnings)
 *   {"t":0,"watch":true}                                                  --watch: what follows is seen after the verdict
 *   {"t":0,"v":<verdict>,"at":<ms>}  or  {"t":0,"error":"..."}           how the trace ended
 *
 * Observations are stored as the reducer received them, scrubbed first ({@link scrubObservation}).
 */
import { KIND_BY_OMISSION, type Observation, type Policy, type RolloutEvent, type TrackTarget, type Verdict } from '../core/index.js';

/** The `format` of a recording's first line. */
export const RECORDING_FORMAT = 'rollout-trace-recording';
/** The version this build writes, and the newest it reads (version 1 has no `b` lines). */
export const RECORDING_VERSION = 2;

/** The first line. */
export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  version: number;
  /** The rollout-trace version that wrote it. */
  tool: string;
  startedAt: number;
}

/** One traced workload, as it was set up. */
export interface RecordedTrace {
  trace: number;
  target: TrackTarget;
  /** The resolved policy (custom classifiers are functions and are not recorded). */
  policy: Pick<Policy, 'classes' | 'success' | 'settleSeconds'>;
  timeoutSeconds: number;
  noProgressTimeoutSeconds?: number;
}

/** What one trace saw, in order, and how it ended. */
export type RecordedItem =
  | { kind: 'observation'; obs: Observation }
  /** Observations that came together, applied as one step (core `reduceBatch`). */
  | { kind: 'batch'; observations: Observation[] }
  | { kind: 'event'; event: RolloutEvent }
  /** The tracker watches on after its verdict (`--watch`) from here. */
  | { kind: 'watch' };

/** A recording read back. */
export interface Recording {
  header: RecordingHeader;
  traces: (RecordedTrace & { startedAt?: number; items: RecordedItem[]; verdict?: { verdict: Verdict; at: number }; error?: string })[];
}

/** A recording that cannot be read: its message is one sentence naming what is wrong. */
export class RecordingError extends Error {}

/** Annotations that repeat a whole object (its env values included): never recorded. */
const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

/**
 * An observation as it is recorded: managed fields and copies of the applied object dropped,
 * container `env` values blanked (a literal value may be a secret; `valueFrom` is kept: it names
 * where a value comes from), and every other string passed through `mask` (the trace's redaction).
 */
export function scrubObservation(obs: Observation, mask: (text: string) => string): Observation {
  if (!('object' in obs)) return obs;
  return { ...obs, object: scrubValue(obs.object, mask, '') } as Observation;
}

function scrubValue(value: unknown, mask: (text: string) => string, key: string): unknown {
  if (typeof value === 'string') return mask(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, mask, key));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'managedFields') continue;
    if (key === 'annotations' && DROPPED_ANNOTATIONS.includes(k)) continue;
    if (key === 'env' && k === 'value') {
      out[k] = '';
      continue;
    }
    out[k] = scrubValue(v, mask, k === 'env' || key === 'env' ? 'env' : k);
  }
  return out;
}

/** One JSON line; `what` names the file in errors. */
function parseLine(line: string, n: number, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new RecordingError(`${what} is not a rollout-trace recording: line ${n} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RecordingError(`${what} is not a rollout-trace recording: line ${n} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

function readHeader(first: Record<string, unknown> | undefined, what: string): RecordingHeader {
  if (!first || first.format !== RECORDING_FORMAT) {
    throw new RecordingError(`${what} is not a rollout-trace recording: its first line does not say "format": "${RECORDING_FORMAT}"`);
  }
  const version = first.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new RecordingError(
      `${what} has no valid recording version (found ${JSON.stringify(version)}; this rollout-trace reads version ${RECORDING_VERSION})`,
    );
  }
  if (version > RECORDING_VERSION) {
    throw new RecordingError(
      `${what} is a version ${version} recording, newer than this rollout-trace reads (version ${RECORDING_VERSION}): replay it with the rollout-trace that wrote it (${String(first.tool)}) or newer`,
    );
  }
  if (typeof first.startedAt !== 'number' || !Number.isFinite(first.startedAt)) {
    throw new RecordingError(`${what} is not a rollout-trace recording: its first line has no startedAt time`);
  }
  return { format: RECORDING_FORMAT, version, tool: String(first.tool ?? 'unknown'), startedAt: first.startedAt };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const timed = (v: unknown): boolean => isObject(v) && typeof v.type === 'string' && typeof v.at === 'number' && Number.isFinite(v.at);

/** `o` as an observation, checked; `bad` makes the error naming its line. */
function observationIn(o: unknown, bad: (why: string) => RecordingError): Observation {
  if (!timed(o)) throw bad('holds an observation without a type and a time');
  const obs = o as Record<string, unknown>;
  if ('object' in obs && (typeof obs.kind !== 'string' || !isObject(obs.object) || !isObject(obs.object.metadata))) {
    throw bad('holds an observation whose object has no kind or metadata');
  }
  return o as Observation;
}

/** Reads a recording's text (already decompressed). Throws a {@link RecordingError} naming the first bad line. */
export function parseRecording(text: string, what: string): Recording {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = readHeader(lines.length > 0 ? parseLine(lines[0]!, 1, what) : undefined, what);
  const traces: Recording['traces'] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = parseLine(lines[i]!, i + 1, what);
    const bad = (why: string) => new RecordingError(`${what} is corrupt: line ${i + 1} ${why}`);
    if ('trace' in line) {
      if (line.trace !== traces.length || !isObject(line.target) || typeof line.target.name !== 'string' || !isObject(line.policy)) {
        throw bad('does not describe the next traced workload');
      }
      const timeoutSeconds = typeof line.timeoutSeconds === 'number' ? line.timeoutSeconds : 600;
      // Earlier versions named a Deployment by omitting its kind: the target read here always has one.
      const target = { ...line.target, kind: typeof line.target.kind === 'string' ? line.target.kind : KIND_BY_OMISSION };
      traces.push({ ...(line as unknown as RecordedTrace), target: target as unknown as TrackTarget, timeoutSeconds, items: [] });
      continue;
    }
    const t = typeof line.t === 'number' ? traces[line.t] : undefined;
    if (!t) throw bad('names no traced workload declared before it');
    if ('o' in line) {
      t.items.push({ kind: 'observation', obs: observationIn(line.o, bad) });
    } else if ('b' in line) {
      if (!Array.isArray(line.b) || line.b.length < 2) throw bad('holds a batch that is not a list of two observations or more');
      t.items.push({ kind: 'batch', observations: line.b.map((o) => observationIn(o, bad)) });
    } else if ('e' in line) {
      if (!timed(line.e)) throw bad('holds an event without a type and a time');
      t.items.push({ kind: 'event', event: line.e as RolloutEvent });
    } else if ('v' in line) {
      if (!isObject(line.v) || typeof line.v.outcome !== 'string' || typeof line.at !== 'number')
        throw bad('holds a verdict without an outcome');
      t.verdict = { verdict: line.v as unknown as Verdict, at: line.at };
    } else if ('watch' in line) {
      t.items.push({ kind: 'watch' });
    } else if ('started' in line) {
      if (typeof line.started !== 'number' || !Number.isFinite(line.started)) throw bad('holds a start time that is not a number');
      t.startedAt = line.started;
    } else if ('error' in line) {
      t.error = String(line.error);
    } else throw bad('is none of the known lines (trace, started, o, b, e, watch, v, error)');
  }
  if (traces.length === 0) throw new RecordingError(`${what} holds no traced workload: it was cut short before the trace started`);
  return { header, traces };
}
