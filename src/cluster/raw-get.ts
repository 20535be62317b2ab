/**
 * One GET against the apiserver that returns the JSON as parsed, untyped: lists and reads of the
 * watched kinds. client-node's generated clients deserialise every object into model classes
 * (walking the type map field by field, dates into `Date`s), which measured 0.7-1.2 s of CPU for a
 * 45,000-Event list; the core reads plain JSON already (what a watch delivers).
 *
 * Requests go through Node's `http`/`https` with what client-node's `KubeConfig.applyToHTTPSOptions`
 * gives (TLS material, authentication headers including exec and token-file credentials, its
 * agent: plain, or client-node's HTTP(S)/SOCKS proxy agent), as for log streams. Not undici (what
 * client-node's own fetch path uses): evaluating the bundled undici was ~70 ms of a 0.45 s start-up
 * (docs/performance.md, "Fast start and exit"). The agent keeps no idle sockets, so every request
 * has its own connection, as with the per-request undici Agent before.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { credentialRejected } from './credentials.js';
import { parseWithoutManagedFields } from './managed-fields.js';
import { awaitAnswer } from './unanswered.js';

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

/** A GET ready to send: its URL and request options with the kubeconfig's TLS, credentials and agent. */
export interface AuthenticatedGet {
  url: URL;
  options: https.RequestOptions;
}

/**
 * The URL of a GET of `path` with `query` on the kubeconfig's current cluster, and its request
 * options with the kubeconfig's authentication applied. Shared by {@link rawGetText} and LineWatch.
 */
export async function authenticatedGet(kc: KubeConfig, path: string, query: Query): Promise<AuthenticatedGet> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('the kubeconfig has no current cluster');
  const url = new URL(cluster.server.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  const options: https.RequestOptions = { method: 'GET', headers: {} };
  await kc.applyToHTTPSOptions(options);
  // client-node applies a cluster's TLS settings only for a context with a user.
  if (!kc.getCurrentUser()) {
    if (cluster.skipTLSVerify) options.rejectUnauthorized = false;
    if (cluster.tlsServerName) options.servername = cluster.tlsServerName;
    if (cluster.caFile || cluster.caData)
      options.ca = cluster.caFile ? readFileSync(cluster.caFile) : Buffer.from(cluster.caData!, 'base64');
  }
  if (url.protocol === 'https:') (options as tls.ConnectionOptions).secureContext = secureContextOf(kc, options);
  return { url, options };
}

/** The TLS material of a request's options (what a secure context is built from). */
type TlsMaterial = Pick<https.RequestOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase'>;
const contexts = new WeakMap<KubeConfig, { material: TlsMaterial; context: tls.SecureContext }>();

/**
 * One secure context per kubeconfig, built again only when its TLS material changes (an exec
 * plugin's rotated client certificate). Without it every connection parses the CA and key again
 * (~1.5 ms of CPU each; a trace opens about ten at start).
 */
function secureContextOf(kc: KubeConfig, options: https.RequestOptions): tls.SecureContext {
  const material: TlsMaterial = { ca: options.ca, cert: options.cert, key: options.key, pfx: options.pfx, passphrase: options.passphrase };
  const cached = contexts.get(kc);
  const same = (k: keyof TlsMaterial) => {
    const [a, b] = [cached?.material[k], material[k]];
    return a === b || (Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b));
  };
  if (cached && same('ca') && same('cert') && same('key') && same('pfx') && same('passphrase')) return cached.context;
  const context = tls.createSecureContext(material);
  contexts.set(kc, { material, context });
  return context;
}

/**
 * Sends `get` (with `headers` added); resolves with the response once its status line and headers
 * arrived, rejects with the network error. Aborting `signal` destroys the request (and its
 * response's body) with the signal's reason. Until it is answered the request is kept in
 * unanswered.ts: after an outage it is sent again on a fresh connection, and the silent one dropped.
 */
export function sendGet(
  get: AuthenticatedGet,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const client = get.url.protocol === 'http:' ? http : https;
    let req: http.ClientRequest | undefined;
    const onAbort = () => req?.destroy(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const awaited = awaitAnswer(get.url.origin, () => {
      if (signal?.aborted) return;
      const silent = req;
      awaited.resent();
      send();
      silent?.destroy();
    });
    const send = () => {
      const sent = client.request(get.url, { ...get.options, headers: { ...get.options.headers, ...headers } }, (res) => {
        if (sent !== req) return void res.destroy();
        awaited.settled();
        resolve(res);
      });
      req = sent;
      sent.on('close', () => {
        if (sent !== req) return;
        awaited.settled();
        signal?.removeEventListener('abort', onAbort);
      });
      sent.on('error', (err) => {
        if (sent !== req) return;
        awaited.settled();
        reject(signal?.aborted ? signal.reason : err);
      });
      // As client-node's dispatcher: TCP keep-alive probes after 30 s idle (load balancers' idle timeouts).
      sent.on('socket', (socket) => socket.setKeepAlive(true, 30_000));
      sent.end();
    };
    send();
  });
}

/**
 * Sends a GET of `path` with the kubeconfig's authentication (see {@link sendGet}). A 401 to a
 * credential that can be obtained again (an exec plugin, a token file) obtains it again and sends
 * the request once more at once, as kubectl does when a token expired or was revoked.
 */
export async function sendAuthenticatedGet(
  kc: KubeConfig,
  path: string,
  query: Query,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  const get = await authenticatedGet(kc, path, query);
  const res = await sendGet(get, headers, signal);
  if (res.statusCode !== 401 || !credentialRejected(get.options)) return res;
  res.resume();
  return sendGet(await authenticatedGet(kc, path, query), headers, signal);
}

/**
 * GETs `path` (e.g. `/api/v1/namespaces/ns/pods`) with `query`; resolves with the parsed body, its
 * objects without managedFields (see managed-fields.ts).
 */
export async function rawGet<T>(kc: KubeConfig, path: string, query: Query, signal?: AbortSignal): Promise<T> {
  return parseWithoutManagedFields(await rawGetText(kc, path, query, signal, 'application/json')) as T;
}

/** GETs `path` and resolves with the body as text (a pod's log); a non-2xx answer throws {@link HttpStatusError}. */
export async function rawGetText(
  kc: KubeConfig,
  path: string,
  query: Query,
  signal: AbortSignal | undefined,
  accept = '*/*',
): Promise<string> {
  const res = await sendAuthenticatedGet(kc, path, query, { Accept: accept }, signal);
  const text = await bodyText(res, signal);
  const status = res.statusCode ?? 0;
  if (status >= 200 && status <= 299) return text;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not a Status object: keep the text
  }
  throw new HttpStatusError(status, body, path);
}

/** The whole body as text; rejects when the connection breaks before its end (with the abort's reason after an abort). */
function bodyText(res: http.IncomingMessage, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (err: unknown) => reject(signal?.aborted ? signal.reason : err);
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
    });
    res.on('end', () => resolve(text));
    res.on('error', fail);
    res.on('close', () => {
      if (!res.complete) fail(Object.assign(new Error('the connection was cut before the end of the answer'), { code: 'ECONNRESET' }));
    });
  });
}
