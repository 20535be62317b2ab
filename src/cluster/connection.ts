/**
 * How a kubeconfig's cluster is reached, settled once at load as kubectl (client-go) does: a plain
 * `http://` server (`kubectl proxy`), the cluster's `proxy-url`, else `HTTPS_PROXY`/`HTTP_PROXY`
 * minus `NO_PROXY` from the environment. client-node 2.x refuses a plain-HTTP server unless
 * `insecure-skip-tls-verify` is set and never reads the proxy variables; its agents (plain, HTTP
 * CONNECT, SOCKS) do the rest once the cluster entry says so.
 */
import { isIP } from 'node:net';
import type { Cluster, KubeConfig, User } from '@kubernetes/client-node';
import { RolloutTraceError } from '../errors.js';
import { credentialSetting } from './credentials.js';

/** The environment variables read (the upper-case spelling wins, as in Go). */
export type ProxyEnv = Record<string, string | undefined>;

/**
 * Settles how each of `kc`'s clusters is reached (see the module comment).
 *
 * @throws RolloutTraceError `kubeconfig` when the current context's server is plain HTTP on another
 *   machine and its user has credentials: they would cross the network in clear text.
 */
export function settleConnections(kc: KubeConfig, env: ProxyEnv = process.env): void {
  const current = kc.getCurrentCluster();
  if (current && isPlainHttp(current.server) && !isLoopback(hostOf(current.server)) && sendsCredentials(kc.getCurrentUser())) {
    throw new RolloutTraceError(
      'kubeconfig',
      `The server "${current.server}" of cluster "${current.name}" is plain HTTP on another machine, and user ` +
        `"${kc.getCurrentUser()?.name}" would send ${credentialSetting(kc.getCurrentUser())} over it in clear text. ` +
        'rollout-trace talks plain HTTP only to a loopback address (kubectl proxy) or without credentials: use the ' +
        "cluster's https:// address, or run kubectl proxy on this machine and point the server at http://127.0.0.1:8001.",
    );
  }
  kc.clusters = kc.clusters.map((c) => {
    // client-node makes a plain agent for http:// only with skipTLSVerify (which TLS would not use anyway).
    const plain = isPlainHttp(c.server) ? { skipTLSVerify: true } : {};
    const proxyUrl = c.proxyUrl ? undefined : envProxyFor(c.server, env);
    return plain.skipTLSVerify || proxyUrl ? ({ ...c, ...plain, ...(proxyUrl ? { proxyUrl } : {}) } as Cluster) : c;
  });
}

/**
 * The proxy for `server` from the environment, with Go's rules (golang.org/x/net/http/httpproxy):
 * `HTTPS_PROXY` for https, `HTTP_PROXY` for http (a proxy without a scheme is http://); never for
 * localhost or a loopback address; not for a host `NO_PROXY` lists (`*`; a domain and its
 * subdomains, `.domain` for subdomains only; an IP address or CIDR range; each with an optional port).
 */
export function envProxyFor(server: string, env: ProxyEnv = process.env): string | undefined {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return undefined;
  }
  const pick = (a: string) => env[a.toUpperCase()] || env[a.toLowerCase()] || undefined;
  const proxy = url.protocol === 'https:' ? pick('https_proxy') : url.protocol === 'http:' ? pick('http_proxy') : undefined;
  if (!proxy) return undefined;
  const host = hostOf(server);
  if (host === 'localhost' || isLoopback(host)) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (noProxyMatches(pick('no_proxy') ?? '', host, port)) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

function noProxyMatches(noProxy: string, host: string, port: string): boolean {
  for (const raw of noProxy.split(',')) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/') && isIP(host) && inCidr(host, entry)) return true;
    const withPort = /^(.*[^:\]]):(\d+)$/.exec(entry);
    if (withPort && !isIP(entry)) {
      if (withPort[2] !== port) continue;
      entry = withPort[1]!;
    }
    entry = entry.replace(/^\[(.*)\]$/, '$1');
    if (isIP(entry)) {
      if (entry === host) return true;
      continue;
    }
    if (entry.startsWith('*.')) entry = entry.slice(1);
    if (entry.startsWith('.')) {
      if (host.endsWith(entry)) return true;
    } else if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (!base || isIP(base) !== 4 || isIP(ip) !== 4 || !(bits >= 0 && bits <= 32)) return false;
  const n = (a: string) => a.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const mask = bits === 0 ? 0 : 2 ** 32 - 2 ** (32 - bits);
  return (n(ip) & mask) >>> 0 === (n(base) & mask) >>> 0;
}

/** True for `localhost`, 127.0.0.0/8 and ::1. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

function isPlainHttp(server: string): boolean {
  return /^http:\/\//i.test(server);
}

function hostOf(server: string): string {
  try {
    return new URL(server).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  } catch {
    return '';
  }
}

/** True when requests of `user` carry a secret (a client certificate never crosses plain HTTP). */
function sendsCredentials(user: User | null): boolean {
  return !!(user && (user.token || user.username || user.exec || user.authProvider));
}
