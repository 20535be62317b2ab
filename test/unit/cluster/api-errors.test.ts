import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import {
  describeFailure,
  forbiddenError,
  isTransient,
  permanentFailureError,
  permanentKind,
  retryReason,
  statusOf,
  unreachableError,
} from '../../../src/cluster/api-errors.js';

function kc(): KubeConfig {
  const k = new KubeConfig();
  k.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://10.0.0.1:6443' }],
    users: [{ name: 'ci-bot', token: 'secret-token-value' }],
    contexts: [{ name: 'prod', cluster: 'c', user: 'ci-bot' }],
    currentContext: 'prod',
  });
  return k;
}

describe('cluster refusal messages', () => {
  it('403 names verb, resource, namespace, user, context and the RBAC rule — never the token', () => {
    const body = { kind: 'Status', message: 'pods is forbidden: User "ci-bot" cannot watch resource "pods"' };
    const err = forbiddenError(kc(), 'watch', 'pods', 'shop', { code: 403, body });
    assert.equal(err.code, 'forbidden');
    for (const f of [
      'User "ci-bot"',
      'https://10.0.0.1:6443',
      'context "prod"',
      'may not watch pods in namespace "shop"',
      body.message,
      'resources: ["pods"]',
      'apiGroups: [""]',
    ]) {
      assert.ok(err.message.includes(f), `lacks ${f}: ${err.message}`);
    }
    assert.ok(!err.message.includes('secret-token-value'));
    const apps = forbiddenError(kc(), 'list', 'replicasets', 'shop', { statusCode: 403 });
    assert.ok(apps.message.includes('apiGroups: ["apps"]'), apps.message);
  });

  it('401 says the credentials were rejected', () => {
    const err = forbiddenError(kc(), 'list', 'deployments', 'shop', { code: 401 });
    assert.equal(err.code, 'forbidden');
    assert.match(err.message, /rejected the credentials of user "ci-bot" \(401 Unauthorized\)/);
  });

  it('unreachable names server, context and the cause', () => {
    const cause = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const err = unreachableError(kc(), 10, cause);
    assert.equal(err.code, 'cluster-unreachable');
    assert.match(err.message, /https:\/\/10\.0\.0\.1:6443 \(context "prod"\) within 10s: fetch failed \(ECONNREFUSED\)/);
  });
});

/** Errors shaped as client-node 2.x (undici fetch) really produces them. */
const fetchFailed = (code: string, message = code) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(message), { code }) });
const timeout = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');
const api = (code: number, message?: string) =>
  Object.assign(new Error(`HTTP-Code: ${code}`), { code, body: message ? JSON.stringify({ kind: 'Status', message }) : '' });

describe('first-contact failures: wait or give up', () => {
  it('an abort is not an HTTP status (DOMException code 23 was printed as "HTTP 23")', () => {
    const err = timeout();
    assert.equal(err.code, 23);
    assert.equal(statusOf(err), undefined);
    assert.doesNotMatch(describeFailure(err), /HTTP/);
    assert.equal(retryReason(err, 4000), 'no answer within 4 s');
    assert.doesNotMatch(unreachableError(kc(), 10, err).message, /HTTP 23/);
  });

  it('waits for what can go away: no answer, refused, reset, 5xx, 429, 408, DNS hiccups', () => {
    for (const err of [
      timeout(),
      fetchFailed('ECONNREFUSED'),
      fetchFailed('ECONNRESET'),
      fetchFailed('EAI_AGAIN'),
      api(503),
      api(500),
      api(429),
      api(408),
    ]) {
      assert.equal(permanentFailureError(kc(), err), undefined, describeFailure(err));
      assert.equal(isTransient(err), true, describeFailure(err));
    }
    assert.equal(retryReason(fetchFailed('ECONNREFUSED'), 4000), 'connection refused (ECONNREFUSED)');
    assert.equal(retryReason(api(503, 'overloaded'), 4000), 'HTTP 503: overloaded');
  });

  it('an unknown host name fails at once, naming the host', () => {
    const k = new KubeConfig();
    k.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://api.nowhere.invalid:6443' }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const err = fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND api.nowhere.invalid');
    assert.equal(permanentKind(err), 'dns');
    const e = permanentFailureError(k, err);
    assert.equal(e?.code, 'cluster-unreachable');
    assert.match(e?.message ?? '', /host name "api\.nowhere\.invalid" .* does not resolve \(ENOTFOUND/);
    // node:https (raw-get.ts) rejects with the system error itself, not wrapped: same message.
    const direct = Object.assign(new Error('getaddrinfo ENOTFOUND api.nowhere.invalid'), { code: 'ENOTFOUND' });
    assert.equal(permanentFailureError(k, direct)?.message, e?.message);
  });

  it('a certificate that does not verify is a certificate problem naming the server and the kubeconfig CA', () => {
    const pem = execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/dev/null', '-days', '1', '-subj', '/CN=cluster-ca-one'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    ).toString();
    const k = new KubeConfig();
    k.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://10.0.0.1:6443', caData: Buffer.from(pem).toString('base64') }],
      users: [{ name: 'u', token: 'secret-token-value' }],
      contexts: [{ name: 'prod', cluster: 'c', user: 'u' }],
      currentContext: 'prod',
    });
    for (const code of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED']) {
      const e = permanentFailureError(k, fetchFailed(code, 'self-signed certificate'));
      assert.equal(e?.code, 'cluster-unreachable', code);
      for (const f of [
        'Certificate problem',
        'https://10.0.0.1:6443',
        'context "prod"',
        code,
        'CN=cluster-ca-one',
        'certificate-authority-data',
      ]) {
        assert.ok(e?.message.includes(f), `${code}: lacks ${f}: ${e?.message}`);
      }
      assert.ok(!e?.message.includes('secret-token-value'));
    }
    const file = new KubeConfig();
    file.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://10.0.0.1:6443', caFile: '/etc/k/ca.crt' }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    assert.match(
      permanentFailureError(file, fetchFailed('SELF_SIGNED_CERT_IN_CHAIN'))?.message ?? '',
      /the CA in the file "\/etc\/k\/ca\.crt"/,
    );
  });

  it('other 4xx answers and unusable addresses fail at once', () => {
    assert.match(
      permanentFailureError(kc(), api(400, 'bad request'))?.message ?? '',
      /Cannot use the Kubernetes API server .*HTTP 400: bad request/,
    );
    assert.equal(permanentKind(Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') })), 'address');
    assert.equal(permanentKind(fetchFailed('ERR_SSL_WRONG_VERSION_NUMBER')), 'tls');
  });
});
