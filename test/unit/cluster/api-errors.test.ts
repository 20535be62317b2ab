import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { forbiddenError, unreachableError } from '../../../src/cluster/api-errors.js';

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
    assert.match(err.message, /https:\/\/10\.0\.0\.1:6443 \(context "prod"\) within 10 s: fetch failed \(ECONNREFUSED\)/);
  });
});
