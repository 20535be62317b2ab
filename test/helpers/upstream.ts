/**
 * What every forwarding helper in front of the test cluster's REAL apiserver shares (the holding
 * and freezing proxies, the fronts of api-fronts.ts): the apiserver's address and CA, sending one
 * request on to it (TLS verified), and streaming its answer back as kube-apiserver sends it.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** The apiserver a kubeconfig reaches: its URL and the CA its certificate is verified against. */
export interface Apiserver {
  target: URL;
  ca: Buffer | undefined;
}

/** The apiserver of `base`'s current cluster. */
export function apiserverOf(base: KubeConfig): Apiserver {
  const cluster = base.getCurrentCluster()!;
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64') : cluster.caFile ? readFileSync(cluster.caFile) : undefined;
  return { target: new URL(cluster.server), ca };
}

/** How {@link sendUpstream} sends and fails. */
export interface SendOptions {
  /** Headers set over the client's (its `host` is always the apiserver's). */
  headers?: http.OutgoingHttpHeaders;
  /** A failure of the upstream request (default: `res` is destroyed). */
  onError?: () => void;
}

/**
 * Sends `req` (method, path, headers, body) on to `api`, calling `answered` with its answer; `res`
 * closing ends the upstream request. Returns that request.
 */
export function sendUpstream(
  api: Apiserver,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  answered: (answer: http.IncomingMessage) => void,
  options: SendOptions = {},
): http.ClientRequest {
  const { target, ca } = api;
  const headers = { ...req.headers, host: target.host, ...options.headers };
  const upstream = https.request(
    { host: target.hostname, port: target.port || 443, method: req.method, path: req.url, headers, ca },
    answered,
  );
  upstream.on('error', options.onError ?? (() => res.destroy()));
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
  return upstream;
}

/**
 * Streams `answer` to `res`: its status and headers flushed at once, as kube-apiserver flushes a
 * watch's before its first event (Node would hold them until the first byte of the body), then
 * its body.
 */
export function pipeAnswer(answer: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(answer.statusCode ?? 502, answer.headers);
  res.flushHeaders();
  answer.pipe(res);
}
