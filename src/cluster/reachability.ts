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
import { resendUnanswered, serverOrigin } from './unanswered.js';

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
  /** Called when a probe answered after others went unanswered or failed (older requests were sent again). */
  onRecovered?: () => void;
}

/**
 * A probe unanswered for this long (ms) gets a fresh one beside it, on a connection of its own: a
 * probe sent into a silent connection must not hide that the apiserver answers again.
 */
export const HEDGE_MS = 1500;

/** One probe in flight. */
interface Probe {
  sentAt: number;
  patience: number;
  stop: AbortController;
  done: Promise<{ probe: Probe; err?: unknown; ok: boolean }>;
}

/**
 * Checks that the cluster answers and that `namespace` exists, retrying (with back-off) while the
 * apiserver is unreachable, frozen or overloaded. A 403 on reading the namespace is accepted:
 * namespace-scoped credentials (a Role, no ClusterRole) may not read Namespace objects yet can
 * still track. A probe that gets no answer for {@link HEDGE_MS} gets a fresh one beside it; when
 * one answers after others went unanswered, every older request to the apiserver still waiting for
 * its answer is sent again (unanswered.ts) and `onRecovered` is called.
 *
 * @throws RolloutTraceError `cluster-unreachable` (a permanent network or certificate failure, or
 *   `timeoutSeconds` passed), `namespace-not-found` or `forbidden` (401).
 */
export async function checkReachable(kc: KubeConfig, namespace: string, opts: ReachOptions = {}): Promise<void> {
  const { timeoutSeconds, signal, attemptMs = 4000, noticeAfterMs = 3000 } = opts;
  const started = Date.now();
  const deadline = timeoutSeconds === undefined ? Number.POSITIVE_INFINITY : started + timeoutSeconds * 1000;
  const backoff = new Backoff({ initialMs: 250, maxMs: 2000 });
  const inFlight = new Set<Probe>();
  let lastErr: unknown = new Error('no answer');
  let noticed: string | undefined;
  let unanswered = 0;
  let outage = false;
  const send = () => {
    // A slow apiserver (or a starved client) must not be aborted for ever: each probe that got no
    // answer gives the next one twice as long, up to 30 s.
    const patience = Math.max(1, Math.min(attemptMs * 2 ** unanswered, MAX_ATTEMPT_MS, deadline - Date.now()));
    const stop = new AbortController();
    const attempt = AbortSignal.any([AbortSignal.timeout(patience), stop.signal, ...(signal ? [signal] : [])]);
    const probe = { sentAt: Date.now(), patience, stop } as Probe;
    probe.done = rawGet(kc, `/api/v1/namespaces/${encodeURIComponent(namespace)}`, {}, attempt).then(
      () => ({ probe, ok: true }),
      (err: unknown) => ({ probe, err, ok: statusOf(err) === 403 }),
    );
    if (inFlight.size > 0) outage = true;
    inFlight.add(probe);
  };
  try {
    while (Date.now() < deadline && !signal?.aborted) {
      const newest = [...inFlight].at(-1);
      if (!newest || Date.now() - newest.sentAt >= HEDGE_MS) send();
      const hedge = Math.max(1, [...inFlight].at(-1)!.sentAt + HEDGE_MS - Date.now());
      const settled = await Promise.race([...[...inFlight].map((p) => p.done), sleep(Math.min(hedge, deadline - Date.now()), signal)]);
      if (signal?.aborted) return;
      if (!settled) continue;
      inFlight.delete(settled.probe);
      if (settled.ok) {
        for (const p of inFlight) p.stop.abort();
        if (outage || unanswered > 0) {
          resendUnanswered(serverOrigin(kc.getCurrentCluster()?.server ?? ''), settled.probe.sentAt);
          opts.onRecovered?.();
        }
        return;
      }
      const err = settled.err;
      // A kubeconfig that cannot give credentials (a credential plugin missing or failing).
      if (isRolloutTraceError(err)) throw err;
      const status = statusOf(err);
      if (status === 401) throw forbiddenError(kc, 'get', 'namespaces', namespace, err);
      if (status === 404) throw await namespaceNotFound(kc, namespace, err);
      const permanent = permanentFailureError(kc, err);
      if (permanent) throw permanent;
      lastErr = err;
      if (isAbort(err)) unanswered++;
      else outage = true;
      opts.onFailure?.(err);
      const reason = retryReason(err, settled.probe.patience);
      if (Date.now() - started >= noticeAfterMs && reason !== noticed) {
        noticed = reason;
        opts.onWaiting?.(reason, err);
      }
      // Refused, reset, 5xx: the next probe after a back-off (a silent one is hedged above).
      if (!isAbort(err) && inFlight.size === 0) await sleep(Math.min(backoff.next(), Math.max(0, deadline - Date.now())), signal);
    }
  } finally {
    for (const p of inFlight) p.stop.abort();
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
