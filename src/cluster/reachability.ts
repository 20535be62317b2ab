/**
 * First contact: the apiserver must answer, and the namespace must exist. An apiserver that is
 * down, frozen, overloaded (5xx, 429) or restarting is waited for; what cannot go away by waiting
 * (an unknown host name, a certificate the kubeconfig's CA does not verify or that is not for the
 * host name, a server that does not speak TLS, a proxy's refusal, rejected credentials, a credential
 * plugin that is missing or fails, a missing namespace) fails at once.
 */
import type { KubeConfig, V1NamespaceList } from '@kubernetes/client-node';
import { isRolloutTraceError, RolloutTraceError } from '../errors.js';
import { forbiddenError, isAbort, permanentFailureError, retryReason, statusOf, unreachableError } from './api-errors.js';
import { Backoff, sleep } from './backoff.js';
import { describeTarget } from './kubeconfig.js';
import { rawGet } from './raw-get.js';

/** The longest wait for one answer (ms). */
const MAX_ATTEMPT_MS = 30_000;

/** Options of {@link checkReachable}. */
export interface ReachOptions {
  /** Give up with `cluster-unreachable` after this many seconds. Default: never (until `signal` aborts). */
  timeoutSeconds?: number;
  /** Aborting it ends the wait quietly (the promise resolves). */
  signal?: AbortSignal;
  /** Wait for the first answer (ms), doubled after each attempt without one (up to 30 s). Default 4000. */
  attemptMs?: number;
  /** First retry notice once the apiserver has failed to answer for this long (ms). Default 3000. */
  noticeAfterMs?: number;
  /** Called with why the apiserver cannot be used yet (`HTTP 503: ...`, `no answer within 4 s`): once after `noticeAfterMs`, then when the reason changes. */
  onWaiting?: (reason: string, err: unknown) => void;
  /** Called with every failure that is retried. */
  onFailure?: (err: unknown) => void;
}

/**
 * Checks that the cluster answers and that `namespace` exists, retrying (with back-off) while the
 * apiserver is unreachable, frozen or overloaded. A 403 on reading the namespace is accepted:
 * namespace-scoped credentials (a Role, no ClusterRole) may not read Namespace objects yet can
 * still track.
 *
 * @throws RolloutTraceError `cluster-unreachable` (a permanent network or certificate failure, or
 *   `timeoutSeconds` passed), `namespace-not-found` or `forbidden` (401).
 */
export async function checkReachable(kc: KubeConfig, namespace: string, opts: ReachOptions = {}): Promise<void> {
  const { timeoutSeconds, signal, attemptMs = 4000, noticeAfterMs = 3000 } = opts;
  const started = Date.now();
  const deadline = timeoutSeconds === undefined ? Number.POSITIVE_INFINITY : started + timeoutSeconds * 1000;
  const backoff = new Backoff({ initialMs: 250, maxMs: 2000 });
  let lastErr: unknown = new Error('no answer');
  let noticed: string | undefined;
  let unanswered = 0;
  while (Date.now() < deadline && !signal?.aborted) {
    // A slow apiserver (or a starved client) must not be aborted for ever: each attempt that got
    // no answer gives the next one twice as long, up to 30 s.
    const patience = Math.min(attemptMs * 2 ** unanswered, MAX_ATTEMPT_MS);
    const wait = Math.max(1, Math.min(patience, deadline - Date.now()));
    const attempt = AbortSignal.any([AbortSignal.timeout(wait), ...(signal ? [signal] : [])]);
    try {
      await rawGet(kc, `/api/v1/namespaces/${encodeURIComponent(namespace)}`, {}, attempt);
      return;
    } catch (err) {
      if (signal?.aborted) return;
      // A kubeconfig that cannot give credentials (a credential plugin missing or failing).
      if (isRolloutTraceError(err)) throw err;
      const status = statusOf(err);
      if (status === 403) return;
      if (status === 401) throw forbiddenError(kc, 'get', 'namespaces', namespace, err);
      if (status === 404) throw await namespaceNotFound(kc, namespace, err);
      const permanent = permanentFailureError(kc, err);
      if (permanent) throw permanent;
      lastErr = err;
      if (isAbort(err)) unanswered++;
      opts.onFailure?.(err);
      const reason = retryReason(err, wait);
      if (Date.now() - started >= noticeAfterMs && reason !== noticed) {
        noticed = reason;
        opts.onWaiting?.(reason, err);
      }
    }
    await sleep(Math.min(backoff.next(), Math.max(0, deadline - Date.now())), signal);
  }
  if (signal?.aborted) return;
  throw unreachableError(kc, timeoutSeconds, lastErr);
}

async function namespaceNotFound(kc: KubeConfig, namespace: string, cause: unknown) {
  const names = await rawGet<V1NamespaceList>(kc, '/api/v1/namespaces', { limit: 20 }, AbortSignal.timeout(10_000))
    .then((l) => (l.items ?? []).map((n) => n.metadata?.name ?? '').filter(Boolean))
    .catch(() => undefined);
  return new RolloutTraceError(
    'namespace-not-found',
    `Namespace "${namespace}" does not exist in ${describeTarget(kc)}. ` +
      (names ? `Existing namespaces: ${names.map((n) => `"${n}"`).join(', ')}.` : 'Pass the namespace the Deployment lives in.'),
    { cause },
  );
}
