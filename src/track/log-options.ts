/**
 * Validation of the `logs` option: tails on failure, redaction, and the opt-in live stream.
 */
import { compileLogFilter, type LogFilter } from '../core/index.js';

/** The opt-in live log stream of the new revision's containers. */
export interface LogFollowOptions {
  /** Only these container names (default: every container, init containers included). */
  containers?: string[];
  /** Keep only lines matching this regular expression (matched after redaction). */
  grep?: string | RegExp;
  /** Container instances streamed at once (default 4): each stream is one open request. */
  maxStreams?: number;
  /** Lines per container instance (default 200); a note says when the rest is left out. */
  maxLines?: number;
}

/** The `logs` option of {@link TrackOptions}. */
export interface LogOptions {
  /** Lines of each failing container's log attached to the verdict. Default 20. */
  tailLines?: number;
  /**
   * Stream the new revision's container logs live as `log` events (`true` for the defaults).
   * Default: off.
   */
  follow?: boolean | LogFollowOptions;
  /**
   * Extra patterns (regular expressions) masked as `***` in every printed log line, tails
   * included. Built in: values after credential-like keys (`password=`, `DB_PASSWORD:`,
   * `"api_key": "..."`, `token=`...), `Authorization: Bearer ...` and passwords in URLs.
   */
  redact?: Array<string | RegExp>;
  /**
   * A Job that succeeds: attach the log tails of its succeeded pods to the verdict
   * (`Verdict.logs`; the CLI's `--logs-on-success`). Default: off (logs are read on failure only).
   */
  onSuccess?: boolean;
}

/** Validated `logs` option. */
export type ResolvedLogOptions =
  | false
  | {
      tailLines: number;
      /** Redaction only: for tails, which must stay complete. */
      redact: (line: string) => string;
      /** {@link LogOptions.onSuccess}. */
      onSuccess?: boolean;
      follow?: { containers?: string[]; filter: LogFilter; maxStreams: number; maxLines: number };
    };

/**
 * Validates `logs`; `bad` throws the caller's one-paragraph error.
 */
export function resolveLogOptions(logs: false | LogOptions | undefined, bad: (message: string) => never): ResolvedLogOptions {
  if (logs === false) return false;
  const shape =
    'logs must be false or { tailLines?: <positive integer>, follow?: boolean | { containers?, grep?, maxStreams?, maxLines? }, redact?: [<regular expression>...] }';
  if (logs !== undefined && (logs === null || typeof logs !== 'object' || Array.isArray(logs)))
    bad(`${shape}; got ${JSON.stringify(logs)}.`);
  const o = logs ?? {};
  const tailLines = o.tailLines ?? 20;
  if (!Number.isInteger(tailLines) || tailLines <= 0)
    bad(`logs.tailLines must be a positive integer (default 20); got ${JSON.stringify(o.tailLines)}.`);
  checkPatterns(o.redact, 'logs.redact', bad);
  const redactOnly = compiled(() => compileLogFilter({ redact: o.redact }), 'logs.redact', bad);
  const redact = (line: string) => redactOnly(line) ?? line;
  if (o.onSuccess !== undefined && typeof o.onSuccess !== 'boolean')
    bad(`logs.onSuccess must be true or false (default false); got ${JSON.stringify(o.onSuccess)}.`);
  const base = { tailLines, redact, ...(o.onSuccess === true ? { onSuccess: true } : {}) };
  if (o.follow === undefined || o.follow === false) return base;
  if (o.follow !== true && (o.follow === null || typeof o.follow !== 'object' || Array.isArray(o.follow))) {
    bad(`logs.follow must be true, false or { containers?, grep?, maxStreams?, maxLines? }; got ${JSON.stringify(o.follow)}.`);
  }
  const f: LogFollowOptions = o.follow === true ? {} : o.follow;
  if (f.containers !== undefined && (!Array.isArray(f.containers) || f.containers.some((c) => typeof c !== 'string' || c === ''))) {
    bad(`logs.follow.containers must be a list of container names; got ${JSON.stringify(f.containers)}.`);
  }
  if (f.grep !== undefined && typeof f.grep !== 'string' && !(f.grep instanceof RegExp)) {
    bad(`logs.follow.grep must be a regular expression (a string or RegExp); got ${JSON.stringify(f.grep)}.`);
  }
  const maxStreams = f.maxStreams ?? 4;
  if (!Number.isInteger(maxStreams) || maxStreams <= 0)
    bad(`logs.follow.maxStreams must be a positive integer (default 4); got ${JSON.stringify(f.maxStreams)}.`);
  const maxLines = f.maxLines ?? 200;
  if (!Number.isInteger(maxLines) || maxLines <= 0)
    bad(`logs.follow.maxLines must be a positive integer (default 200); got ${JSON.stringify(f.maxLines)}.`);
  const filter = compiled(() => compileLogFilter({ redact: o.redact, grep: f.grep }), 'logs.follow.grep or logs.redact', bad);
  return { ...base, follow: { ...(f.containers?.length ? { containers: f.containers } : {}), filter, maxStreams, maxLines } };
}

/** Checks that `value` is undefined or a list of regular expressions (strings or RegExp). */
export function checkPatterns(value: unknown, what: string, bad: (message: string) => never): void {
  if (value !== undefined && (!Array.isArray(value) || value.some((p) => typeof p !== 'string' && !(p instanceof RegExp)))) {
    bad(`${what} must be a list of regular expressions (strings or RegExp), e.g. ["hunter\\\\d+"]; got ${JSON.stringify(value)}.`);
  }
}

/** `make()`, or `bad` with its error message prefixed by `what`. */
export function compiled<T>(make: () => T, what: string, bad: (message: string) => never): T {
  try {
    return make();
  } catch (err) {
    return bad(`${what}: ${(err as Error).message}`);
  }
}
