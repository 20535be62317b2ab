/** Readiness probes of the control-plane components (HTTP(S) GETs with short timeouts). */
import http from 'node:http';
import https from 'node:https';
import { type Component, sleep } from './processes.js';

/** Polls `probe` until it answers true; throws when `c` exits or after `timeoutMs`. */
export async function waitFor(name: string, c: Component, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (c.child.exitCode !== null || c.child.signalCode !== null)
      throw new Error(`${name} exited with ${c.child.exitCode ?? c.child.signalCode}`);
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${name} not ready after ${timeoutMs / 1000}s`);
}

function httpGet(url: string, token?: string): Promise<{ status: number; body: string }> {
  const lib = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.get(
      url,
      { headers: token ? { Authorization: `Bearer ${token}` } : {}, rejectUnauthorized: false, timeout: 2000 },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** True when `url` answers 200 (self-signed certificates accepted). */
export async function httpOk(url: string, token?: string): Promise<boolean> {
  return (await httpGet(url, token)).status === 200;
}

/** True once the token controller gave the `default` ServiceAccount of `default` a token. */
export async function defaultTokenExists(server: string, token: string): Promise<boolean> {
  const res = await httpGet(`${server}/api/v1/namespaces/default/serviceaccounts/default`, token);
  if (res.status !== 200) return false;
  return (JSON.parse(res.body).secrets ?? []).length > 0;
}
