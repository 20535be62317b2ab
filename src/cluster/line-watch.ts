/**
 * One watch request, with the contract of client-node 2.0.1's `Watch.watch` (same callbacks, the
 * same inactivity abort as a `TimeoutError`, a non-200 answer as an Error with `statusCode`), read
 * with Node's http(s) and the kubeconfig's options (raw-get.ts) instead of client-node's `fetch`: client-node
 * turns the fetch body (a web stream) into a Node stream and splits it with readline, and that
 * pipeline was most of the CPU a 2,000-pod rollout's watch events cost besides our own work
 * (bench big2000's profile). Here the body's chunks are split on newlines and parsed directly.
 */
import { STATUS_CODES } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseWithoutManagedFields } from './managed-fields.js';
import { type Query, sendAuthenticatedGet } from './raw-get.js';
import { deliverLater, deliverNow } from './read-batches.js';

/**
 * Receives one watch event: its type (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) and object, or
 * SKIPPED with `{ metadata: { resourceVersion } }` for a line a {@link LineSkip} passed over.
 */
export type WatchCallback = (type: string, object: never) => void;

/**
 * Whether a watch line can be passed over unparsed; it returns the event's resourceVersion (the
 * watch still resumes after it), or undefined to parse the line.
 */
export type LineSkip = (line: string) => string | undefined;

/**
 * Whether a parsed watch event of a watch whose lines are judged one by one may wait for the next
 * batch (read-batches.ts): false delivers it at once, after everything read before it.
 */
export type LineMayWait = (type: string, object: unknown) => boolean;

/** How a watch's lines are delivered: at once (false), all in batches (true), or as {@link LineMayWait} says. */
export type LineBatching = boolean | LineMayWait;

/** Watches with the kubeconfig's authentication and agent. */
export class LineWatch {
  /** Aborts the request after this long without a byte (as client-node's `requestTimeoutMs`). */
  requestTimeoutMs = 30_000;

  constructor(private readonly kc: KubeConfig) {}

  /**
   * Opens a watch on `path`; resolves with its AbortController once the apiserver answered 200.
   * `done` is called once, after every line before it: with null when the server ended the
   * stream, else with the error (a `TimeoutError` DOMException after `requestTimeoutMs` of silence).
   * `batched`: its lines are handled in batches, or judged one by one (see {@link readLines}).
   */
  async watch(
    path: string,
    query: Query,
    callback: WatchCallback,
    done: (err: unknown) => void,
    skip?: LineSkip,
    batched: LineBatching = false,
  ): Promise<AbortController> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    let finished = false;
    const finish = (err: unknown) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // A request we aborted ends with the abort's reason (the inactivity timeout's, else an AbortError), not a socket error.
      if (err && controller.signal.aborted) err = timedOut ? timeoutError() : controller.signal.reason;
      controller.abort();
      done(err);
    };
    // Called on every chunk: the one timer is refreshed (no new Timeout, no unref, per chunk).
    const resetTimer = () => {
      if (finished) return;
      if (timer) return void timer.refresh();
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(timeoutError());
      }, this.requestTimeoutMs);
      timer.unref();
    };
    try {
      resetTimer();
      const res = await sendAuthenticatedGet(this.kc, path, { ...query, watch: true }, {}, controller.signal);
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        res.resume();
        throw Object.assign(new Error(STATUS_CODES[status] ?? 'Internal Server Error'), { statusCode: status });
      }
      resetTimer();
      readLines(res, resetTimer, callback, skip, batched);
      // The end comes after every line before it (read-batches.ts).
      res.on('error', (err) => deliverNow(() => finish(err)));
      res.on('end', () => deliverNow(() => finish(null)));
      // A connection cut mid-stream closes the body without 'end' (and not always with 'error').
      const cut = () => finish(res.complete ? null : Object.assign(new Error('the watch connection was cut'), { code: 'ECONNRESET' }));
      res.on('close', () => deliverNow(cut));
    } catch (err) {
      finish(err);
    }
    return controller;
  }
}

function timeoutError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/**
 * Splits `body` into lines and hands each parsed event to `callback` (a line that is not JSON is
 * skipped; a line `skip` passes over comes as SKIPPED with its resourceVersion, unparsed).
 * `heard` is told of each chunk at once; its lines are handled in the next batch when `batched` is
 * true, each in the next batch or at once as a {@link LineMayWait} says, else at once; at once is
 * always after the batch before them (read-batches.ts).
 */
export function readLines(
  body: NodeJS.ReadableStream,
  heard: () => void,
  callback: WatchCallback,
  skip?: LineSkip,
  batched: LineBatching = false,
): void {
  let rest = '';
  body.setEncoding('utf8');
  const mayWait = typeof batched === 'function' ? batched : undefined;
  // Lines judged one by one are parsed as they are read; each waits or drains as `mayWait` says.
  const route: WatchCallback = mayWait
    ? (type, object) => {
        const deliver = () => {
          try {
            callback(type, object);
          } catch {}
        };
        if (mayWait(type, object)) deliverLater(deliver);
        else deliverNow(deliver);
      }
    : callback;
  const split = (chunk: string) => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      const line = rest + chunk.slice(start, nl);
      rest = '';
      start = nl + 1;
      if (line.trim() === '') continue;
      const skipped = skip?.(line);
      if (skipped !== undefined) {
        route('SKIPPED', { metadata: { resourceVersion: skipped } } as never);
        continue;
      }
      // As client-node's Watch: a line that is not JSON, or a callback that throws, is skipped.
      try {
        const event = parseWithoutManagedFields(line) as { type?: unknown; object?: unknown };
        route(String(event.type), event.object as never);
      } catch {}
    }
    rest += chunk.slice(start);
  };
  body.on('data', (chunk: string) => {
    heard();
    if (mayWait) split(chunk);
    else if (batched) deliverLater(() => split(chunk));
    else deliverNow(() => split(chunk));
  });
}
