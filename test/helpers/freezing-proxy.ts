/**
 * A freezing proxy: an HTTPS server on 127.0.0.1 (its own self-signed certificate) that forwards
 * every request to the REAL apiserver of the test cluster (TLS verified against the cluster CA)
 * until it freezes. Frozen, it forwards nothing: answers under way stop where they are, and a
 * request that comes gets no answer, its connection open and silent. What froze stays silent after
 * the thaw, as a connection a frozen apiserver, a NAT or a load balancer dropped; only requests
 * sent after the thaw are answered. It can freeze when a request it is told of arrives (the first
 * watch, the first log read), so a freeze hits the very request a case is about.
 */
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { servingCert } from '../../local-cluster/kubelet/cert.js';
import { kubeConfigWith } from './fault-endpoint.js';
import { apiserverOf, sendUpstream } from './upstream.js';

/** A running freezing proxy. */
export interface FreezingProxy {
  /** A copy of the base kubeconfig whose server is the proxy. */
  kc: KubeConfig;
  /** Every request so far (method and path with query). */
  readonly seen: string[];
  /** When the current or last freeze began and ended (epoch ms). */
  readonly frozenAt?: number;
  readonly thawedAt?: number;
  /** Freezes now. */
  freeze(): void;
  /** Freezes when a request `pick` chooses arrives (that request is the first to go unanswered); resolves then. */
  freezeOn(pick: (method: string, url: URL) => boolean): Promise<void>;
  /** Requests that come from now on are forwarded again; what froze stays silent. */
  thaw(): void;
  close(): Promise<void>;
}

/** Starts a freezing proxy to `base`'s apiserver (not frozen). */
export async function startFreezingProxy(base: KubeConfig): Promise<FreezingProxy> {
  const api = apiserverOf(base);
  /** Answers under way: a freeze cuts their upstream and leaves the client waiting. */
  const open = new Set<http.ClientRequest>();
  let frozen = false;
  let trigger: { pick: (method: string, url: URL) => boolean; fired: () => void } | undefined;
  const seen: string[] = [];
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const upstream = sendUpstream(
      api,
      req,
      res,
      (answer) => {
        if (frozen) return void upstream.destroy();
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.on('data', (chunk: Buffer) => {
          if (!frozen) res.write(chunk);
        });
        answer.on('end', () => {
          if (!frozen) res.end();
        });
      },
      { onError: () => (frozen ? undefined : res.destroy()) },
    );
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
  };
  const freeze = () => {
    frozen = true;
    proxy.frozenAt = Date.now();
    proxy.thawedAt = undefined;
    // The apiserver's side goes; the client's stays open, silent for good.
    for (const upstream of open) upstream.destroy();
  };
  const { key, cert } = servingCert();
  const server = https.createServer({ key, cert }, (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!frozen && trigger?.pick(req.method ?? 'GET', new URL(req.url ?? '/', 'https://proxy'))) {
      freeze();
      trigger.fired();
      trigger = undefined;
    }
    if (frozen) return void req.resume();
    forward(req, res);
  });
  // A silent request waits as long as the client does.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxy: { -readonly [K in keyof FreezingProxy]: FreezingProxy[K] } = {
    kc: kubeConfigWith(base, { server: url, caPem: cert }),
    seen,
    freeze,
    freezeOn: (pick) => new Promise<void>((fired) => (trigger = { pick, fired })),
    thaw() {
      frozen = false;
      proxy.thawedAt = Date.now();
    },
    close: () =>
      new Promise<void>((resolve) => {
        frozen = true;
        for (const upstream of open) upstream.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
