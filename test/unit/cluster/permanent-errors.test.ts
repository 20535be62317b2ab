/**
 * Which failures of a first contact end the trace at once (permanent) and which are waited for
 * (transient), decided by what they are: the error's code (system, TLS, HTTP status), our own
 * RolloutTraceErrors for kubeconfig problems found before any request.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { fatalListOrWatchError, permanentFailureError, permanentKind } from '../../../src/cluster/api-errors.js';
import { envProxyFor, settleConnections } from '../../../src/cluster/connection.js';
import { runExecPlugin } from '../../../src/cluster/exec-plugin.js';
import { loadKubeConfig } from '../../../src/cluster/kubeconfig.js';
import { RolloutTraceError } from '../../../src/errors.js';

function kc(server = 'https://10.0.0.1:6443', user: Record<string, unknown> = { token: 't' }): KubeConfig {
  const k = new KubeConfig();
  k.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: false }],
    users: [{ name: 'u', ...user }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return k;
}

/** As node:https rejects: the system or TLS error itself, with its code. */
const sys = (code: string, message = code) => Object.assign(new Error(message), { code });
/** As undici (client-node's fetch) rejects: a TypeError whose cause has the code. */
const wrapped = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: sys(code) });
const http = (statusCode: number, message = '') => Object.assign(new Error(`HTTP ${statusCode}`), { statusCode, body: message });
const timeout = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

const TABLE: Array<[string, unknown, 'permanent' | 'transient']> = [
  ['no answer in time', timeout(), 'transient'],
  ['connection refused', sys('ECONNREFUSED'), 'transient'],
  ['connection reset', sys('ECONNRESET'), 'transient'],
  ['connect timeout', sys('ETIMEDOUT'), 'transient'],
  ['DNS server failure', sys('EAI_AGAIN'), 'transient'],
  ['no route (network down)', sys('EHOSTUNREACH'), 'transient'],
  ['500', http(500), 'transient'],
  ['503', http(503), 'transient'],
  ['429', http(429), 'transient'],
  ['CONNECT proxy: 502 (the proxy cannot reach the apiserver yet)', new Error('Bad response: 502'), 'transient'],
  ['unknown host', sys('ENOTFOUND'), 'permanent'],
  ['unknown host (undici)', wrapped('ENOTFOUND'), 'permanent'],
  ['certificate not signed by the CA', sys('SELF_SIGNED_CERT_IN_CHAIN'), 'permanent'],
  ['leaf not verifiable', wrapped('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'permanent'],
  ['expired certificate', sys('CERT_HAS_EXPIRED'), 'permanent'],
  ['host name not in the certificate', sys('ERR_TLS_CERT_ALTNAME_INVALID'), 'permanent'],
  ['https:// to a plain-HTTP server', sys('EPROTO', 'write EPROTO ... wrong version number'), 'permanent'],
  ['TLS alert', sys('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'), 'permanent'],
  ['CONNECT proxy: 407 proxy authentication required', new Error('Bad response: 407'), 'permanent'],
  ['CONNECT proxy: 403 refused', new Error('Bad response: 403'), 'permanent'],
  ['400 (http:// to an HTTPS server)', http(400, 'Client sent an HTTP request to an HTTPS server.\n'), 'permanent'],
  ['404', http(404), 'permanent'],
];

describe('first-contact failures: permanent or transient, by what they are', () => {
  for (const [what, err, expected] of TABLE) {
    it(`${what}: ${expected}`, () => {
      const e = permanentFailureError(kc(), err);
      assert.equal(e === undefined ? 'transient' : 'permanent', expected, e?.message);
      if (e) {
        assert.equal(e.code, 'cluster-unreachable');
        assert.ok(!e.message.includes('\n'), `one paragraph: ${e.message}`);
      }
    });
  }

  it('names the setting to correct', () => {
    const host = kc('https://10.0.0.1:6443');
    assert.equal(permanentKind(sys('ERR_TLS_CERT_ALTNAME_INVALID')), 'hostname');
    assert.match(permanentFailureError(host, sys('ERR_TLS_CERT_ALTNAME_INVALID'))!.message, /host name "10\.0\.0\.1".*server address/);
    assert.match(
      permanentFailureError(kc('http://127.0.0.1:6443'), http(400, 'Client sent an HTTP request to an HTTPS server.\n'))!.message,
      /Use https:\/\//,
    );
    assert.match(permanentFailureError(host, sys('EPROTO'))!.message, /addressed as http:\/\//);
    assert.match(permanentFailureError(host, new Error('Bad response: 407'))!.message, /proxy-url, or HTTPS_PROXY and NO_PROXY/);
  });
});

describe('a list or watch failing during the trace', () => {
  it('ends it for refused credentials, a plugin failing now, or a permanent failure; retries the rest', () => {
    const fatal = (err: unknown) => fatalListOrWatchError(kc(), 'watch', 'pods', 'apps', err);
    assert.match(fatal(http(401))?.message ?? '', /pods/);
    assert.match(fatal(http(403))?.message ?? '', /pods/);
    const expired = new RolloutTraceError('kubeconfig', 'The credential plugin "aws" of user "u" exited with code 1.');
    assert.equal(fatal(expired), expired, 'the plugin error itself, as at the first contact');
    assert.ok(fatal(sys('ERR_TLS_CERT_ALTNAME_INVALID')), 'a certificate for another host');
    for (const transient of [sys('ECONNREFUSED'), sys('ECONNRESET'), timeout(), http(503), http(429)]) {
      assert.equal(fatal(transient), undefined, String(transient));
    }
  });
});

describe('kubeconfig problems found before any request', () => {
  const user = (u: Record<string, unknown>) => kc('http://10.1.2.3:8080', u);
  it('plain HTTP to another machine: refused with credentials, allowed without; loopback always', () => {
    assert.throws(
      () => settleConnections(user({ token: 'secret' })),
      (e: RolloutTraceError) => e.code === 'kubeconfig' && !e.message.includes('secret'),
    );
    assert.throws(() => settleConnections(user({ exec: { command: 'aws' } })), /exec/);
    const anonymous = user({});
    settleConnections(anonymous);
    assert.equal(anonymous.getCurrentCluster()!.skipTLSVerify, true, 'client-node makes a plain agent only with skipTLSVerify');
    const local = kc('http://127.0.0.1:8001', { token: 'secret' });
    settleConnections(local);
    assert.equal(local.getCurrentCluster()!.skipTLSVerify, true);
  });

  it('a missing credential plugin and one that exits non-zero are RolloutTraceErrors naming the setting', async () => {
    await assert.rejects(runExecPlugin('u', { command: 'rollout-trace-no-such-plugin' }, undefined), (e: RolloutTraceError) => {
      return e.code === 'kubeconfig' && /users\[\]\.user\.exec\.command/.test(e.message) && /was not found/.test(e.message);
    });
    const dir = mkdtempSync(join(tmpdir(), 'rt-plugin-'));
    const script = join(dir, 'p.sh');
    writeFileSync(script, '#!/bin/sh\necho "token expired, run login" >&2\nexit 3\n', { mode: 0o755 });
    await assert.rejects(
      runExecPlugin('u', { command: script }, undefined),
      /exited with code 3; its last error line: "token expired, run login"/,
    );
  });

  it('a context naming a user that is not defined', () => {
    const text = JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: 'https://x:6443' } }],
      users: [{ name: 'me', user: { token: 't' } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'ghost' } }],
      'current-context': 'x',
    });
    assert.throws(() => loadKubeConfig({ kubeconfig: text }), /refers to user "ghost", which is not defined there; defined users: "me"/);
  });
});

describe('HTTPS_PROXY / NO_PROXY, with Go rules', () => {
  const env = (over: Record<string, string>) => ({ HTTPS_PROXY: 'proxy.corp:3128', ...over });
  it('proxies https servers, adds http:// to a bare proxy, skips loopback and NO_PROXY hosts', () => {
    assert.equal(envProxyFor('https://api.example.com:6443', env({})), 'http://proxy.corp:3128');
    assert.equal(envProxyFor('https://127.0.0.1:6443', env({})), undefined);
    assert.equal(envProxyFor('https://localhost:6443', env({})), undefined);
    assert.equal(envProxyFor('http://api.example.com:8080', env({})), undefined, 'HTTP_PROXY is for http servers');
    assert.equal(envProxyFor('https://api.example.com', env({ NO_PROXY: '*' })), undefined);
    assert.equal(envProxyFor('https://api.example.com', env({ NO_PROXY: 'example.com' })), undefined, 'a domain and its subdomains');
    assert.equal(
      envProxyFor('https://example.com', env({ NO_PROXY: '.example.com' })),
      'http://proxy.corp:3128',
      '.domain: subdomains only',
    );
    assert.equal(envProxyFor('https://a.example.com', env({ NO_PROXY: '.example.com' })), undefined);
    assert.equal(envProxyFor('https://10.2.3.4:6443', env({ NO_PROXY: '10.0.0.0/8' })), undefined);
    assert.equal(envProxyFor('https://10.2.3.4:6443', env({ NO_PROXY: '10.2.3.4:443' })), 'http://proxy.corp:3128', 'another port');
    assert.equal(envProxyFor('https://10.2.3.4:6443', env({ NO_PROXY: '10.2.3.4:6443' })), undefined);
    assert.equal(envProxyFor('https://api.example.com', { https_proxy: 'http://lower:1' }), 'http://lower:1');
  });
});
