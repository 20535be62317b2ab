/**
 * First contact: the apiserver must answer within a bound, and the namespace must exist.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { RolloutTraceError } from '../errors.js';
import { forbiddenError, statusOf, unreachableError } from './api-errors.js';
import { Backoff, sleep } from './backoff.js';
import { describeTarget } from './kubeconfig.js';
import { withSignal } from './request-options.js';

/**
 * Checks that the cluster answers within `timeoutSeconds` (retrying connection failures) and
 * that `namespace` exists. A 403 on reading the namespace is accepted: namespace-scoped
 * credentials (a Role, no ClusterRole) may not read Namespace objects yet can still track.
 *
 * @throws RolloutTraceError `cluster-unreachable`, `namespace-not-found` or `forbidden` (401).
 */
export async function checkReachable(
  kc: KubeConfig,
  namespace: string,
  { timeoutSeconds = 10, signal }: { timeoutSeconds?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  const deadline = Date.now() + timeoutSeconds * 1000;
  const backoff = new Backoff({ initialMs: 250, maxMs: 2000 });
  let lastErr: unknown = new Error('no answer');
  while (Date.now() < deadline && !signal?.aborted) {
    const attempt = AbortSignal.any([AbortSignal.timeout(Math.max(1, deadline - Date.now())), ...(signal ? [signal] : [])]);
    try {
      await core.readNamespace({ name: namespace }, withSignal(attempt));
      return;
    } catch (err) {
      const status = statusOf(err);
      if (status === 403) return;
      if (status === 401) throw forbiddenError(kc, 'get', 'namespaces', namespace, err);
      if (status === 404) throw await namespaceNotFound(kc, core, namespace, err);
      lastErr = err;
      if (status !== undefined && status < 500 && status !== 429 && status !== 408) {
        throw unreachableError(kc, timeoutSeconds, err);
      }
    }
    await sleep(Math.min(backoff.next(), Math.max(0, deadline - Date.now())), signal);
  }
  if (signal?.aborted) return;
  throw unreachableError(kc, timeoutSeconds, lastErr);
}

async function namespaceNotFound(kc: KubeConfig, core: CoreV1Api, namespace: string, cause: unknown) {
  const names = await core
    .listNamespace({ limit: 20 }, withSignal(AbortSignal.timeout(3000)))
    .then((l) => l.items.map((n) => n.metadata?.name ?? '').filter(Boolean))
    .catch(() => undefined);
  return new RolloutTraceError(
    'namespace-not-found',
    `Namespace "${namespace}" does not exist in ${describeTarget(kc)}. ` +
      (names ? `Existing namespaces: ${names.map((n) => `"${n}"`).join(', ')}.` : 'Pass the namespace the Deployment lives in.'),
    { cause },
  );
}
