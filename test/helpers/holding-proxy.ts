/**
 * A holding proxy: an HTTPS server on 127.0.0.1 (its own self-signed certificate) that forwards
 * every request, verbatim, to the REAL apiserver of the test cluster (TLS verified against the
 * cluster CA) and streams the answer back, except that requests `hold` picks wait until
 * {@link HoldingProxy.release}. It stands in for an apiserver slow to answer one request (the
 * Event list of a namespace with tens of thousands of Events), never for its answers.
 */
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { servingCert } from '../../local-cluster/kubelet/cert.js';
import { kubeConfigWith } from './fault-endpoint.js';
import { apiserverOf, pipeAnswer, sendUpstream } from './upstream.js';

/** A running holding proxy. */
export interface HoldingProxy {
  /** A copy of the base kubeconfig whose server is the proxy. */
  kc: KubeConfig;
  /** Requests held right now (method and path with query). */
  readonly held: string[];
  /** Every request forwarded or held so far. */
  readonly seen: string[];
  /** When each of {@link seen} came (epoch ms, same order). */
  readonly seenAt: number[];
  /** Forwards the held requests, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `base`'s apiserver that holds the requests `hold` picks (by method and URL). */
export async function startHoldingProxy(base: KubeConfig, hold: (method: string, url: URL) => boolean): Promise<HoldingProxy> {
  const api = apiserverOf(base);
  const waiting: Array<() => void> = [];
  let released = false;
  const held: string[] = [];
  const seen: string[] = [];
  const seenAt: number[] = [];
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    sendUpstream(api, req, res, (answer) => pipeAnswer(answer, res));
  };
  const { key, cert } = servingCert();
  const server = https.createServer({ key, cert }, (req, res) => {
    const label = `${req.method} ${req.url}`;
    seen.push(label);
    seenAt.push(Date.now());
    if (released || !hold(req.method ?? 'GET', new URL(req.url ?? '/', 'https://proxy'))) return forward(req, res);
    held.push(label);
    req.pause();
    waiting.push(() => {
      held.splice(held.indexOf(label), 1);
      req.resume();
      forward(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    kc: kubeConfigWith(base, { server: url, caPem: cert }),
    held,
    seen,
    seenAt,
    release() {
      released = true;
      for (const go of waiting.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        released = true;
        waiting.length = 0;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
