/**
 * A fault endpoint for first-contact tests: an HTTPS server on 127.0.0.1 with a fresh self-signed
 * certificate that answers every request with one fixed HTTP error (503, 429...). It never answers
 * successfully, so it cannot stand in for an API server: it is what a client meets behind an
 * overloaded load balancer, or at an address whose certificate belongs to another cluster.
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { servingCert } from '../../local-cluster/kubelet/cert.js';

/** A running fault endpoint. */
export interface FaultEndpoint {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  /** Its self-signed certificate (PEM): trust it to get past TLS to the HTTP error. */
  certPem: string;
  /** Requests answered so far. */
  requests: number;
  /** The status answered from now on. */
  status: number;
  close(): Promise<void>;
}

/** Starts an endpoint answering `status` (with a Kubernetes Status body and, for 429/503, Retry-After: 1). */
export async function startFaultEndpoint(status: number): Promise<FaultEndpoint> {
  // The simulated kubelet's self-signed certificate for 127.0.0.1: valid for the address, signed by no cluster CA.
  const { key, cert: certPem } = servingCert();
  const endpoint = { url: '', certPem, requests: 0, status, close: async () => undefined } as FaultEndpoint;
  const server = https.createServer({ key, cert: certPem }, (_req, res) => {
    endpoint.requests++;
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: `fault endpoint answers ${endpoint.status}`,
      code: endpoint.status,
    });
    res.writeHead(endpoint.status, {
      'content-type': 'application/json',
      connection: 'close',
      ...(endpoint.status === 429 || endpoint.status === 503 ? { 'retry-after': '1' } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return endpoint;
}

/** A copy of `base` whose current cluster has another server and, optionally, another CA or user token. */
export function kubeConfigWith(base: KubeConfig, o: { server?: string; caPem?: string; token?: string }): KubeConfig {
  const current = base.getCurrentCluster()!;
  const user = base.getCurrentUser()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: base.clusters.map((c) =>
      c.name === current.name
        ? {
            ...c,
            ...(o.server ? { server: o.server } : {}),
            ...(o.caPem ? { caData: Buffer.from(o.caPem).toString('base64'), caFile: undefined } : {}),
          }
        : c,
    ),
    users: base.users.map((u) => (u.name === user.name && o.token ? { ...u, token: o.token } : u)),
    contexts: base.contexts,
    currentContext: base.getCurrentContext(),
  });
  return kc;
}
