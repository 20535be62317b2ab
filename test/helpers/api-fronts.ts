/**
 * What stands between kubectl and a cluster in real setups, on 127.0.0.1 in front of the REAL
 * apiserver of the test cluster: `kubectl proxy` (plain HTTP in, the admin credentials added), a
 * front that asks for client certificates (a TLS-terminating gateway that authenticates by them),
 * and an HTTP CONNECT proxy (a corporate proxy: `proxy-url`, `HTTPS_PROXY`). Each counts what went
 * through it, so a test proves its traffic did. None answers anything itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { apiserverOf, pipeAnswer, sendUpstream } from './upstream.js';

/** A running front: its URL, what it saw, and how to stop it. */
export interface ApiFront {
  /** `http://127.0.0.1:port` or `https://127.0.0.1:port`. */
  url: string;
  /** Requests forwarded (method and path), or tunnels opened (`host:port`) for the CONNECT proxy. */
  readonly seen: string[];
  close(): Promise<void>;
}

/** The apiserver of `base` and how to authenticate to it as the admin (its token). */
function upstreamOf(base: KubeConfig) {
  const token = base.getCurrentUser()?.token;
  if (!token) throw new Error('the test kubeconfig has no admin token');
  return { api: apiserverOf(base), token };
}

/** Forwards `req` to the apiserver with the admin token (the caller's own Authorization dropped), streaming the answer. */
function forwarder(base: KubeConfig, seen: string[]) {
  const { api, token } = upstreamOf(base);
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    sendUpstream(api, req, res, (answer) => pipeAnswer(answer, res), { headers: { authorization: `Bearer ${token}` } });
  };
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server | net.Server, sockets: Set<net.Socket>) {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** `kubectl proxy`: plain HTTP on 127.0.0.1, every request forwarded with the admin credentials. */
export async function startKubectlProxy(base: KubeConfig): Promise<ApiFront> {
  const seen: string[] = [];
  const server = http.createServer(forwarder(base, seen));
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: closer(server, new Set()) };
}

/** A CA and a client certificate it signed, and the front's serving certificate (PEM). */
export interface FrontCerts {
  caCert: string;
  clientCert: string;
  clientKey: string;
  serverCert: string;
  serverKey: string;
}

/** Makes a CA, a client certificate for `clientName` and a serving certificate for 127.0.0.1 with openssl. */
export function makeCerts(clientName: string): FrontCerts {
  const dir = mkdtempSync(path.join(tmpdir(), 'rt-certs-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    ssl('req', '-x509', ...ec, '-days', '1', '-subj', '/CN=rollout-trace-test-ca', '-keyout', 'ca.key', '-out', 'ca.crt');
    for (const [name, subj, ext] of [
      ['client', `/CN=${clientName}`, 'extendedKeyUsage=clientAuth'],
      ['server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1'],
    ] as const) {
      ssl('req', '-new', ...ec, '-subj', subj, '-keyout', `${name}.key`, '-out', `${name}.csr`);
      execFileSync('sh', ['-c', `printf '%s\\n' '${ext}' > ${name}.ext`], { cwd: dir });
      ssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '1',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.crt`,
      );
    }
    const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
    return {
      caCert: read('ca.crt'),
      clientCert: read('client.crt'),
      clientKey: read('client.key'),
      serverCert: read('server.crt'),
      serverKey: read('server.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An HTTPS front that accepts only clients presenting a certificate `certs.caCert` signed (the
 * handshake fails otherwise) and forwards their requests with the admin credentials. `seen` gets
 * the client certificate's CN before each request.
 */
export async function startClientCertFront(base: KubeConfig, certs: FrontCerts): Promise<ApiFront> {
  const seen: string[] = [];
  const forward = forwarder(base, []);
  const server = https.createServer(
    { key: certs.serverKey, cert: certs.serverCert, ca: certs.caCert, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      seen.push(`${peer.subject?.CN} ${req.method} ${req.url}`);
      forward(req, res);
    },
  );
  const port = await listen(server);
  return { url: `https://127.0.0.1:${port}`, seen, close: closer(server, new Set()) };
}

/**
 * An HTTP CONNECT proxy on 127.0.0.1. Each tunnel asked for is recorded in `seen` (`host:port`);
 * `route` picks where it really goes (default: as asked), e.g. a host name no resolver knows to the
 * apiserver's address, so only a client that goes through the proxy reaches it.
 */
export async function startConnectProxy(
  route: (host: string, port: number) => { host: string; port: number } = (host, port) => ({ host, port }),
): Promise<ApiFront> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405).end('CONNECT only');
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const [host = '', port = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    seen.push(`${host}:${port}`);
    const to = route(host, Number(port));
    const upstream = net.connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: closer(server, sockets) };
}
