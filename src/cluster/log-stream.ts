/**
 * Follows one container instance's log (`kubectl logs -f`), line by line. The stream ends by
 * itself when the instance terminates; `stop()` ends it earlier.
 *
 * Node's `http(s)` (raw-get.ts) rather than client-node's `Log`: aborting `Log`'s stream emits an unhandled
 * 'error' on a Readable the caller cannot reach, which would crash the process.
 */

import type http from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { type Query, sendAuthenticatedGet } from './raw-get.js';

/** Callbacks and limits of {@link followLog}. */
export interface FollowLogOptions {
  /** Each line; with `timestamps`, `time` is the kubelet's RFC3339Nano prefix (removed from `line`). */
  onLine: (line: string, time?: string) => void;
  /** Called once when the stream ends: `error` says why when it did not end cleanly (never after `stop()`). */
  onEnd?: (error?: string) => void;
  /** Lines of history to start with. Default: the whole log of the instance. */
  tailLines?: number;
  /** Ask for timestamped lines (to resume a broken stream without repeating lines). */
  timestamps?: boolean;
  /** Only lines from this second on (RFC3339; the API's `sinceTime` has second precision). */
  sinceTime?: string;
}

/** A running log stream. */
export interface LogStream {
  stop(): void;
}

/** Streams `container`'s log in `pod` from its current instance. Never throws; failures go to `onEnd`. */
export function followLog(kc: KubeConfig, namespace: string, pod: string, container: string, options: FollowLogOptions): LogStream {
  let stopped = false;
  let ended = false;
  let partial = '';
  const request = new AbortController();
  const deliver = (raw: string) => deliverLine(raw, options);
  const end = (error?: string) => {
    if (ended) return;
    ended = true;
    // A partial last line of a broken stream is resent whole on resume; a clean end's is final.
    if (partial !== '' && !stopped && error === undefined) deliver(partial);
    partial = '';
    options.onEnd?.(stopped ? undefined : error);
  };
  const onText = (text: string) => {
    if (stopped) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) deliver(line);
  };
  void open().catch((err: unknown) => end(err instanceof Error ? err.message : String(err)));

  async function open(): Promise<void> {
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`;
    const res = await sendAuthenticatedGet(kc, path, logQuery(container, options), {}, request.signal);
    readLogBody(res, onText, end);
  }

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      request.abort();
      end();
    },
  };
}

/**
 * Hands a log response's text to `onText` and calls `end` once: with nothing at its end, with the
 * error, or with the status and the apiserver's message for an answer other than 200.
 */
function readLogBody(res: http.IncomingMessage, onText: (text: string) => void, end: (error?: string) => void): void {
  res.setEncoding('utf8');
  if (res.statusCode !== 200) {
    let body = '';
    res.on('data', (chunk: string) => (body += chunk));
    res.on('end', () => end(`HTTP ${res.statusCode}${messageOf(body)}`));
    res.on('error', () => end(`HTTP ${res.statusCode}`));
    return;
  }
  res.on('data', onText);
  res.on('end', () => end());
  res.on('error', (err) => end(err.message));
  // A connection cut mid-body: 'aborted' (and 'close' without 'end'), not always 'error'.
  res.on('aborted', () => end('the connection was cut'));
  res.on('close', () => {
    if (!res.complete) end('the connection was cut');
  });
}

/** The followed log's query: its container, from its tail or a time, with timestamps if asked. */
function logQuery(container: string, options: FollowLogOptions): Query {
  return {
    container,
    follow: true,
    tailLines: options.tailLines,
    timestamps: options.timestamps ? true : undefined,
    sinceTime: options.sinceTime,
  };
}

/** One line to `onLine`, without its CR, its timestamp apart when asked for. */
function deliverLine(raw: string, options: FollowLogOptions): void {
  const line = raw.replace(/\r$/, '');
  const m = options.timestamps ? /^(\d{4}-\d\d-\d\dT\S+) (.*)$/s.exec(line) : null;
  if (m) options.onLine(m[2]!, m[1]!);
  else options.onLine(line);
}

function messageOf(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: string };
    return status.message ? `: ${status.message}` : '';
  } catch {
    return body.trim() ? `: ${body.trim().slice(0, 200)}` : '';
  }
}
