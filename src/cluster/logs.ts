/**
 * Log tails and on-demand event lists (one-shot reads, used when a verdict is being explained).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { LogTail } from '../core/index.js';
import { describeFailure, isAbort, isTransient, serverMessage, statusOf } from './api-errors.js';
import { sleep } from './backoff.js';
import { rawGetText } from './raw-get.js';

/** Why a log tail has no lines when its pod was deleted before the read. */
export const POD_GONE_UNREAD = 'the pod was deleted before its log was read';

/** Options of {@link fetchLogTail}. */
export interface LogTailOptions {
  /** The previous (crashed) instance of the container. Default false. */
  previous?: boolean;
  /** Last N lines. Default 20. */
  tailLines?: number;
  /** Give up on one read after this many ms. Default 5000. */
  timeoutMs?: number;
  /**
   * Read again after a failure that can pass (no answer, a refused or cut connection) until this many ms
   * have passed since the first read: an apiserver frozen or unreachable for a while still gives the
   * log once it answers. Default 0 (one read).
   */
  retryForMs?: number;
}

/**
 * The last lines of one container's log (like `kubectl logs --tail`). Never throws: when the log
 * cannot be read (no previous instance, forbidden, container not started) `error` says why and
 * `lines` is empty.
 */
export async function fetchLogTail(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  container: string,
  { previous = false, tailLines = 20, timeoutMs = 5000, retryForMs = 0 }: LogTailOptions = {},
): Promise<LogTail> {
  const tail: LogTail = { pod, container, previous, lines: [] };
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`;
  const until = Date.now() + retryForMs;
  try {
    let text: string | undefined;
    while (text === undefined) {
      text = await rawGetText(kc, path, { container, previous, tailLines }, AbortSignal.timeout(timeoutMs)).catch(async (err: unknown) => {
        if (statusOf(err) !== undefined || !isTransient(err) || Date.now() >= until) throw err;
        if (!isAbort(err)) await sleep(500);
        return undefined;
      });
    }
    tail.lines = text
      .split('\n')
      .filter((line, i, all) => !(i === all.length - 1 && line === ''))
      .slice(-tailLines);
  } catch (err) {
    // The pod is gone (404 `pods "x" not found`): said as such, not as an HTTP error.
    const gone = statusOf(err) === 404 && serverMessage(err) === `pods "${pod}" not found`;
    tail.error = gone ? POD_GONE_UNREAD : describeFailure(err);
  }
  return tail;
}
