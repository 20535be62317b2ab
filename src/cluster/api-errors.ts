/**
 * Turns API failures into a classification (retry or give up) and the user-facing
 * {@link RolloutTraceError}s for refusals.
 */
import { X509Certificate } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { formatWindow } from '../core/index.js';
import { isRolloutTraceError, RolloutTraceError } from '../errors.js';
import { credentialSetting, hasRenewableCredential } from './credentials.js';
import { describeTarget } from './kubeconfig.js';

/**
 * HTTP status of a client-node failure (ApiException.code or Watch's statusCode), if any. An
 * abort's DOMException also has a numeric `code` (23 for a timeout): that is not an HTTP status.
 */
export function statusOf(err: unknown): number | undefined {
  if (err instanceof DOMException || isAbort(err)) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown } | undefined;
  const status = typeof e?.statusCode === 'number' ? e.statusCode : e?.code;
  return typeof status === 'number' && status >= 100 && status <= 599 ? status : undefined;
}

/** True for an aborted or timed-out request (`AbortError` / `TimeoutError`). */
export function isAbort(err: unknown): boolean {
  const name = (err as { name?: unknown } | undefined)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

/** The system or TLS error code behind a failed request (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`...), if any. */
export function networkCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | undefined;
  for (const c of [e?.cause?.code, e?.cause?.errors?.[0]?.code, e?.code]) if (typeof c === 'string') return c;
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
      return body.trim().replace(/\s+/g, ' ').slice(0, 300) || undefined;
    }
  }
  return undefined;
}

/** A short description of any failure, for retry logs and wrapped messages. */
export function describeFailure(err: unknown): string {
  if (isAbort(err)) return 'no answer (the request timed out)';
  const status = statusOf(err);
  const msg = serverMessage(err);
  if (status !== undefined) return `HTTP ${status}${msg ? `: ${msg}` : ''}`;
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`.split('\n')[0];
}

/** True for failures worth retrying: network errors (except permanent ones), timeouts, 408, 429, 5xx. */
export function isTransient(err: unknown): boolean {
  const status = statusOf(err);
  if (status === undefined) return permanentKind(err) === undefined;
  return status === 408 || status === 429 || status >= 500;
}

/** Why a retried first contact failed, for the `waiting for the API server` line. */
export function retryReason(err: unknown, attemptMs: number): string {
  if (isAbort(err)) return `no answer within ${Math.round(attemptMs / 100) / 10} s`;
  const code = networkCode(err);
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)';
  if (code === 'ECONNRESET') return 'connection reset (ECONNRESET)';
  return describeFailure(err);
}

/** The RBAC resources rollout-trace reads, with their API groups. */
const GROUP_OF: Record<string, string> = {
  deployments: 'apps',
  replicasets: 'apps',
  statefulsets: 'apps',
  daemonsets: 'apps',
  jobs: 'batch',
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
        `when trying to ${verb} ${resource} in namespace "${namespace}"; they came from ${credentialSetting(kc.getCurrentUser())}. ` +
        (hasRenewableCredential(kc.getCurrentUser())
          ? 'A fresh credential was obtained and refused too: check that it is for this cluster and that this identity may log in.'
          : 'Refresh the token or certificate in the kubeconfig.'),
      { cause: err },
    );
  }
  const group = GROUP_OF[resource] ?? '';
  return new RolloutTraceError(
    'forbidden',
    `User "${user}" of ${describeTarget(kc)} may not ${verb} ${resource} in namespace "${namespace}" ` +
      `(403 Forbidden${msg ? `: ${msg}` : ''}). rollout-trace needs get, list and watch on deployments and ` +
      `replicasets (group apps), pods and events (core group), the kind it traces (statefulsets and daemonsets: group ` +
      `apps; jobs: group batch) and, when its pods use claims, persistentvolumeclaims (core group), plus get on ` +
      `pods/log; grant it with a Role rule like ` +
      `{apiGroups: ["${group}"], resources: ["${resource}"], verbs: ["get", "list", "watch"]} bound to that user in "${namespace}".`,
    { cause: err },
  );
}

/**
 * The error when the first contact with the cluster fails: after waiting `seconds` (a timeout), or
 * at once (`seconds` undefined) for an answer that waiting cannot change.
 */
export function unreachableError(kc: KubeConfig, seconds: number | undefined, err: unknown): RolloutTraceError {
  const within = seconds !== undefined ? ` within ${formatWindow(seconds * 1000)}` : '';
  const verb = statusOf(err) !== undefined && seconds === undefined ? 'Cannot use' : 'Cannot reach';
  return new RolloutTraceError(
    'cluster-unreachable',
    `${verb} the Kubernetes API server ${describeTarget(kc)}${within}: ${describeFailure(err)}. ` +
      'Check that the cluster is running and that the kubeconfig and context point at it.',
    { cause: err },
  );
}

/** TLS verification failures: the server's certificate does not verify against the trusted CA. */
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
]);

/** Kinds of failure that waiting cannot fix; see {@link permanentKind}. */
export type PermanentKind = 'dns' | 'certificate' | 'hostname' | 'tls' | 'address' | 'proxy';

/**
 * Why a failure cannot go away by waiting, or undefined when it might: decided by the error's
 * code; only the CONNECT proxy's refusal (client-node's proxy agent, hpagent) has none.
 */
export function permanentKind(err: unknown): PermanentKind | undefined {
  if (isAbort(err) || statusOf(err) !== undefined) return undefined;
  const code = networkCode(err);
  if (code === 'ENOTFOUND') return 'dns';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'hostname';
  if (code !== undefined && CERT_CODES.has(code)) return 'certificate';
  // EPROTO: the server does not speak TLS (a plain-HTTP server addressed as https://, a wrong port).
  if (code === 'EPROTO' || code?.startsWith('ERR_SSL_') || code?.startsWith('ERR_OSSL_')) return 'tls';
  if (code === undefined && /^Bad response: (403|407)$/.test((err as { message?: string })?.message ?? '')) return 'proxy';
  if (code === 'ERR_INVALID_URL' || /^bad port$/.test((err as { cause?: { message?: string } })?.cause?.message ?? '')) return 'address';
  return undefined;
}

/**
 * The error for a first-contact failure that waiting cannot fix (unknown host, certificate, TLS or
 * an unusable address), or for an unexpected 4xx; undefined when the failure is worth retrying.
 */
export function permanentFailureError(kc: KubeConfig, err: unknown): RolloutTraceError | undefined {
  const status = statusOf(err);
  if (status === 400 && /^http:/i.test(kc.getCurrentCluster()?.server ?? '') && /HTTPS server/.test(serverMessage(err) ?? '')) {
    return new RolloutTraceError(
      'cluster-unreachable',
      `The Kubernetes API server ${describeTarget(kc)} speaks HTTPS, but the kubeconfig's server address says http:// ` +
        `(HTTP 400: ${serverMessage(err)}). Use https:// in the cluster's server.`,
      { cause: err },
    );
  }
  if (status !== undefined) {
    return isTransient(err) ? undefined : unreachableError(kc, undefined, err);
  }
  const kind = permanentKind(err);
  if (kind === undefined) return undefined;
  const target = describeTarget(kc);
  const code = networkCode(err) ?? '';
  const detail = `${code}${causeMessage(err) ? `: ${causeMessage(err)}` : ''}`;
  let message: string;
  if (kind === 'dns') {
    const host = hostOf(kc);
    message =
      `The host name "${host}" of the Kubernetes API server ${target} does not resolve (${detail}). ` +
      'Waiting will not help: check the server address in the kubeconfig (kubectl config view --minify) and your DNS or VPN.';
  } else if (kind === 'certificate') {
    message =
      `Certificate problem: the Kubernetes API server ${target} presented a certificate that does not verify ` +
      `against the kubeconfig's certificate authority (${detail}). The kubeconfig trusts ${describeCa(kc)}. ` +
      "The context's server address and certificate-authority must belong to the same cluster: fetch the " +
      'kubeconfig again (the cluster may have been re-created or its CA rotated), or check that nothing intercepts TLS.';
  } else if (kind === 'hostname') {
    const cluster = kc.getCurrentCluster();
    const name = cluster?.tlsServerName ?? hostOf(kc);
    message =
      `Certificate problem: the host name "${name}" is not one the certificate of the Kubernetes API server ${target} was issued for (${detail}). ` +
      `The name checked is ${cluster?.tlsServerName ? "the cluster's tls-server-name" : "the host of the cluster's server address"}: set server to ` +
      'a name or address the certificate lists, or tls-server-name to one of its names (openssl s_client -connect host:port shows them).';
  } else if (kind === 'proxy') {
    message =
      `The proxy ${kc.getCurrentCluster()?.proxyUrl ?? ''} refused to connect to the Kubernetes API server ${target} (${describeFailure(err)}). ` +
      "Waiting will not help: check the cluster's proxy-url, or HTTPS_PROXY and NO_PROXY, and the proxy's credentials and rules.";
  } else {
    message =
      `Cannot talk to the Kubernetes API server ${target}: ${kind === 'tls' ? 'the TLS handshake failed' : 'the address cannot be used'} ` +
      `(${detail || describeFailure(err)}). Waiting will not help: check the server URL (https://host:port) in the kubeconfig` +
      `${kind === 'tls' ? '; a plain-HTTP server such as kubectl proxy is addressed as http://' : ''}.`;
  }
  return new RolloutTraceError('cluster-unreachable', message, { cause: err });
}

/** The message of the system or TLS error: the cause's (undici wraps it), else the error's own when it has a code (node:https). */
function causeMessage(err: unknown): string | undefined {
  const e = err as { cause?: { message?: unknown }; code?: unknown; message?: unknown } | undefined;
  const m = e?.cause?.message ?? (typeof e?.code === 'string' ? e.message : undefined);
  return typeof m === 'string' && m !== '' ? m.split('\n')[0] : undefined;
}

function hostOf(kc: KubeConfig): string {
  try {
    return new URL(kc.getCurrentCluster()?.server ?? '').hostname;
  } catch {
    return kc.getCurrentCluster()?.server ?? '(no server)';
  }
}

/** Which CA the kubeconfig trusts, for certificate errors (never key material). */
export function describeCa(kc: KubeConfig): string {
  const cluster = kc.getCurrentCluster();
  if (cluster?.skipTLSVerify) return 'any certificate (insecure-skip-tls-verify)';
  if (cluster?.caFile) return `the CA in the file "${cluster.caFile}" (certificate-authority)`;
  if (cluster?.caData) {
    try {
      const cert = new X509Certificate(Buffer.from(cluster.caData, 'base64'));
      return `the CA "${cert.subject.replace(/\n/g, ', ')}" of certificate-authority-data (SHA-256 ${cert.fingerprint256.slice(0, 23)}...)`;
    } catch {
      return 'the CA in certificate-authority-data (unreadable as a PEM certificate)';
    }
  }
  return "the system's trusted CAs (the cluster entry sets no certificate-authority)";
}

/** The warning when RBAC refuses to list and watch Nodes (`err`: the watcher's forbidden error). */
export function nodesRefusedWarning(kc: KubeConfig, err: RolloutTraceError): string {
  const user = kc.getCurrentUser()?.name ?? '(none)';
  const status = statusOf(err.cause) ?? 403;
  return (
    `user "${user}" may not list and watch nodes (HTTP ${status}), so pods on a NotReady node are not diagnosed ` +
    '(they just wait for the timeout); grant it with a ClusterRole rule {apiGroups: [""], resources: ["nodes"], verbs: ["list", "watch"]}'
  );
}

/**
 * The error that ends a trace after a list or watch of `resource` failed with `err`, or undefined
 * when it is worth retrying: refused credentials or permissions (401, 403), a credential plugin
 * that now fails (a login that expired during the trace), or any other failure that waiting
 * cannot mend ({@link permanentKind}).
 */
export function fatalListOrWatchError(
  kc: KubeConfig,
  verb: 'list' | 'watch',
  resource: string,
  namespace: string,
  err: unknown,
): RolloutTraceError | undefined {
  const status = statusOf(err);
  if (status === 401 || status === 403) return forbiddenError(kc, verb, resource, namespace, err);
  return isRolloutTraceError(err) ? err : permanentFailureError(kc, err);
}
