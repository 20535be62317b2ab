/**
 * One GET against the apiserver that returns the JSON as parsed, untyped: lists and reads of the
 * watched kinds. client-node's generated clients deserialise every object into model classes
 * (walking the type map field by field, dates into `Date`s), which measured 0.7-1.2 s of CPU for a
 * 45,000-Event list; the core reads plain JSON already (what a watch delivers). Authentication,
 * TLS and proxies come from the kubeconfig exactly as for client-node's `Watch` (same
 * RequestContext and dispatcher).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { HttpMethod, RequestContext } from '@kubernetes/client-node/dist/gen/http/http.js';
import { fetch } from 'undici';

/** What a failed GET throws: the fields `statusOf` and `serverMessage` read (as client-node's ApiException). */
export class HttpStatusError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    path: string,
  ) {
    const message = (body as { message?: unknown } | undefined)?.message;
    super(`HTTP ${statusCode} for GET ${path}${typeof message === 'string' ? `: ${message}` : ''}`);
    this.name = 'HttpStatusError';
  }
}

/** Query parameters (undefined values are left out). */
export type Query = Record<string, string | number | boolean | undefined>;

/**
 * The URL of a GET of `path` with `query` on the kubeconfig's current cluster, and its request
 * context with the kubeconfig's authentication applied (headers, TLS dispatcher): what client-node's
 * `Watch` does before each request. Shared by {@link rawGetText} and LineWatch.
 */
export async function authenticatedGet(kc: KubeConfig, path: string, query: Query): Promise<{ url: URL; ctx: RequestContext }> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  const ctx = new RequestContext(url.toString(), HttpMethod.GET);
  await kc.applySecurityAuthentication(ctx);
  return { url, ctx };
}

/** GETs `path` (e.g. `/api/v1/namespaces/ns/pods`) with `query`; resolves with the parsed body. */
export async function rawGet<T>(kc: KubeConfig, path: string, query: Query, signal?: AbortSignal): Promise<T> {
  return JSON.parse(await rawGetText(kc, path, query, signal, 'application/json')) as T;
}

/** GETs `path` and resolves with the body as text (a pod's log); a non-2xx answer throws {@link HttpStatusError}. */
export async function rawGetText(
  kc: KubeConfig,
  path: string,
  query: Query,
  signal: AbortSignal | undefined,
  accept = '*/*',
): Promise<string> {
  const { url, ctx } = await authenticatedGet(kc, path, query);
  const response = await fetch(url, {
    method: 'GET',
    headers: { ...ctx.getHeaders(), Accept: accept },
    dispatcher: ctx.getDispatcher(),
    signal,
  });
  const text = await response.text();
  if (response.status >= 200 && response.status <= 299) return text;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not a Status object: keep the text
  }
  throw new HttpStatusError(response.status, body, path);
}
