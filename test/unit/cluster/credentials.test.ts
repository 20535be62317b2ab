/**
 * The credentials rollout-trace obtains itself (credentials.ts): kubectl's `tokenFile`, and exec
 * plugins run once, kept until they expire, and run again after a 401 to the credential they gave
 * (not to an older one). No network: the request options are built, not sent.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { credentialRejected } from '../../../src/cluster/credentials.js';
import { loadKubeConfig } from '../../../src/cluster/kubeconfig.js';
import { authenticatedGet } from '../../../src/cluster/raw-get.js';

function kubeconfig(dir: string, user: Record<string, unknown>): string {
  const file = join(dir, 'config');
  writeFileSync(
    file,
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: 'https://api.example.com:6443' } }],
      users: [{ name: 'me', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'me' } }],
      'current-context': 'x',
    }),
  );
  return file;
}

/** A plugin that hands out `token-N` on its N-th run, valid for `seconds`. */
function plugin(dir: string, seconds: number): { exec: Record<string, unknown>; runs: () => number } {
  const runs = join(dir, 'runs');
  writeFileSync(runs, '');
  const command = join(dir, 'plugin.sh');
  writeFileSync(
    command,
    `#!/bin/sh\necho x >> '${runs}'\nn=$(wc -l < '${runs}' | tr -d ' ')\n` +
      `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"token-%s","expirationTimestamp":"%s"}}' "$n" "$(date -u -d "+${seconds} seconds" +%Y-%m-%dT%H:%M:%SZ)"\n`,
    { mode: 0o755 },
  );
  return {
    exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh' },
    runs: () => readFileSync(runs, 'utf8').split('\n').filter(Boolean).length,
  };
}

const authorization = async (kc: ReturnType<typeof loadKubeConfig>) => {
  const get = await authenticatedGet(kc, '/api', {});
  return { get, header: (get.options.headers as Record<string, string>).Authorization };
};

describe('credentials obtained by rollout-trace', () => {
  it('tokenFile: relative to the kubeconfig, trimmed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-cred-'));
    writeFileSync(join(dir, 'token'), 'file-token\n');
    const kc = loadKubeConfig({ kubeconfig: kubeconfig(dir, { tokenFile: 'token' }) });
    assert.equal((await authorization(kc)).header, 'Bearer file-token');
  });

  it('exec: the plugin (relative to the kubeconfig) runs once, again after a 401 to its credential, not after one to an older credential', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-cred-'));
    const p = plugin(dir, 3600);
    const kc = loadKubeConfig({ kubeconfig: kubeconfig(dir, { exec: p.exec }) });
    const [a, b] = await Promise.all([authorization(kc), authorization(kc)]);
    assert.equal(a.header, 'Bearer token-1');
    assert.equal(b.header, 'Bearer token-1');
    assert.equal(p.runs(), 1, 'concurrent requests share one run');
    assert.equal(credentialRejected(a.get.options), true);
    const c = await authorization(kc);
    assert.equal(c.header, 'Bearer token-2');
    // A second 401 of a request sent with token-1 must not throw token-2 away.
    credentialRejected(b.get.options);
    assert.equal((await authorization(kc)).header, 'Bearer token-2');
    assert.equal(p.runs(), 2);
  });

  it('exec: a credential about to expire is obtained again before a request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-cred-'));
    const p = plugin(dir, 5);
    const kc = loadKubeConfig({ kubeconfig: kubeconfig(dir, { exec: p.exec }) });
    assert.equal((await authorization(kc)).header, 'Bearer token-1');
    assert.equal((await authorization(kc)).header, 'Bearer token-2');
  });

  it('a plain token is not renewable: a 401 to it is final', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-cred-'));
    const kc = loadKubeConfig({ kubeconfig: kubeconfig(dir, { token: 'static' }) });
    const { get, header } = await authorization(kc);
    assert.equal(header, 'Bearer static');
    assert.equal(credentialRejected(get.options), false);
  });
});
