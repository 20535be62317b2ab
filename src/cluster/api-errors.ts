/**
 * Turns API failures into a classification (retry or give up) and the user-facing
 * {@link RolloutTraceError}s for refusals.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { RolloutTraceError } from '../errors.js';
import { describeTarget } from './kubeconfig.js';

/** HTTP status of a client-node failure (ApiException.code or Watch's statusCode), if any. */
export function statusOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown } | undefined;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  if (typeof e?.code === 'number') return e.code;
  return undefined;
}

/** The apiserver's Status message carried by a failure, if any. */
export function serverMessage(err: unknown): string | undefined {
  const body = (err as { body?: unknown } | undefined)?.body;
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === 'string') return parsed.message;
    } catch {
      return body.slice(0, 300) || undefined;
    }
  }
  return undefined;
}

/** A short description of any failure, for retry logs and wrapped messages. */
export function describeFailure(err: unknown): string {
  const status = statusOf(err);
  const msg = serverMessage(err);
  if (status !== undefined) return `HTTP ${status}${msg ? `: ${msg}` : ''}`;
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`.split('\n')[0];
}

/** True for failures worth retrying: network errors, 408, 429, 5xx. */
export function isTransient(err: unknown): boolean {
  const status = statusOf(err);
  if (status === undefined) return true;
  return status === 408 || status === 429 || status >= 500;
}

/** The RBAC resources rollout-trace reads, with their API groups. */
const GROUP_OF: Record<string, string> = {
  deployments: 'apps',
  replicasets: 'apps',
  pods: '',
  'pods/log': '',
  events: '',
  persistentvolumeclaims: '',
  namespaces: '',
};

/**
 * The error for a 401/403: names the verb, resource and namespace, the credentials used and the
 * RBAC rule that would allow it.
 */
export function forbiddenError(kc: KubeConfig, verb: string, resource: string, namespace: string, err: unknown): RolloutTraceError {
  const user = kc.getCurrentUser()?.name ?? '(none)';
  const status = statusOf(err);
  const msg = serverMessage(err);
  if (status === 401) {
    return new RolloutTraceError(
      'forbidden',
      `The cluster at ${describeTarget(kc)} rejected the credentials of user "${user}" (401 Unauthorized) ` +
        `when trying to ${verb} ${resource} in namespace "${namespace}". Refresh the token or certificate in the kubeconfig.`,
      { cause: err },
    );
  }
  const group = GROUP_OF[resource] ?? '';
  return new RolloutTraceError(
    'forbidden',
    `User "${user}" of ${describeTarget(kc)} may not ${verb} ${resource} in namespace "${namespace}" ` +
      `(403 Forbidden${msg ? `: ${msg}` : ''}). rollout-trace needs get, list and watch on deployments and ` +
      `replicasets (group apps), pods and events (core group), plus get on pods/log; grant it with a Role rule like ` +
      `{apiGroups: ["${group}"], resources: ["${resource}"], verbs: ["get", "list", "watch"]} bound to that user in "${namespace}".`,
    { cause: err },
  );
}

/** The error when the first contact with the cluster fails. */
export function unreachableError(kc: KubeConfig, seconds: number, err: unknown): RolloutTraceError {
  return new RolloutTraceError(
    'cluster-unreachable',
    `Cannot reach the Kubernetes API server ${describeTarget(kc)} within ${seconds} s: ${describeFailure(err)}. ` +
      'Check that the cluster is running and that the kubeconfig and context point at it.',
    { cause: err },
  );
}
