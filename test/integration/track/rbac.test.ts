/**
 * RBAC-limited credentials: a ServiceAccount token kubeconfig whose Role lacks a permission gets
 * a `forbidden` error naming the verb, resource and namespace; a sufficient Role tracks fine.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeConfig, type V1PolicyRule } from '@kubernetes/client-node';
import { RolloutTraceError } from '../../../src/errors.js';
import { trackRollout } from '../../../src/track/index.js';
import { clients, createDeployment, kubeConfig, namespaceFor, waitUntil } from './helpers.js';

const READ = ['get', 'list', 'watch'];

/** Creates a ServiceAccount bound to a Role with `rules` and returns a token kubeconfig for it. */
async function serviceAccountKubeConfig(ns: string, name: string, rules: V1PolicyRule[]): Promise<KubeConfig> {
  const { core, rbac } = clients();
  await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name } } });
  await rbac.createNamespacedRole({ namespace: ns, body: { metadata: { name }, rules } });
  await rbac.createNamespacedRoleBinding({
    namespace: ns,
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: ns }],
    },
  });
  // Kubernetes 1.20 creates the token Secret for a ServiceAccount by itself.
  const token = await waitUntil(
    async () => {
      const sa = await core.readNamespacedServiceAccount({ name, namespace: ns });
      const secretName = sa.secrets?.[0]?.name;
      if (!secretName) return undefined;
      const secret = await core.readNamespacedSecret({ name: secretName, namespace: ns });
      return secret.data?.token ? Buffer.from(secret.data.token, 'base64').toString('utf8') : undefined;
    },
    { what: `token of ServiceAccount ${ns}/${name}`, timeoutMs: 20_000 },
  );
  const admin = kubeConfig().getCurrentCluster()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'test', server: admin.server, caData: admin.caData, caFile: admin.caFile, skipTLSVerify: admin.skipTLSVerify }],
    users: [{ name: `sa-${name}`, token }],
    contexts: [{ name: `sa-${name}`, cluster: 'test', user: `sa-${name}`, namespace: ns }],
    currentContext: `sa-${name}`,
  });
  return kc;
}

describe('RBAC-limited credentials', { concurrency: true }, () => {
  it('a Role without events list/watch: forbidden naming verb, resource and namespace', async (t) => {
    const ns = await namespaceFor(t, 'rbac-deny');
    await createDeployment(ns, 'web');
    const kc = await serviceAccountKubeConfig(ns, 'no-events', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: READ },
    ]);
    const err = await trackRollout({ name: 'web', kubeconfig: kc }).verdict.then(
      (v) => assert.fail(`expected forbidden, got verdict ${v.outcome}`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof RolloutTraceError, String(err));
    t.diagnostic(err.message);
    assert.equal(err.code, 'forbidden');
    assert.match(err.message, /may not list events in namespace/);
    assert.ok(err.message.includes(`"${ns}"`));
    assert.ok(err.message.includes('system:serviceaccount') || err.message.includes('sa-no-events'), 'names who was refused');
    assert.match(err.message, /resources: \["events"\], verbs: \["get", "list", "watch"\]/);
  });

  it('a Role that may list but not watch pods: forbidden naming watch pods', async (t) => {
    const ns = await namespaceFor(t, 'rbac-nowatch');
    await createDeployment(ns, 'web');
    const kc = await serviceAccountKubeConfig(ns, 'no-pod-watch', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['events'], verbs: READ },
    ]);
    await assert.rejects(trackRollout({ name: 'web', kubeconfig: kc }).verdict, (err: unknown) => {
      assert.ok(err instanceof RolloutTraceError);
      t.diagnostic(err.message);
      assert.equal(err.code, 'forbidden');
      assert.match(err.message, /may not watch pods in namespace/);
      return true;
    });
  });

  it('a sufficient Role tracks the rollout (namespace from the token kubeconfig context)', async (t) => {
    const ns = await namespaceFor(t, 'rbac-ok');
    await createDeployment(ns, 'web', { replicas: 2 });
    const kc = await serviceAccountKubeConfig(ns, 'tracker', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods', 'events'], verbs: READ },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    ]);
    const tracking = trackRollout({ name: 'web', kubeconfig: kc });
    const warnings: string[] = [];
    tracking.subscribe((e) => {
      if (e.type === 'k8s-event' && e.event.reason === 'NodesNotReadable') warnings.push(e.event.message);
    });
    const v = await tracking.verdict;
    t.diagnostic(`${v.summary}; ${warnings.join(' | ')}`);
    assert.equal(v.outcome, 'succeeded');
    assert.equal(v.deployment.namespace, ns);
    // A namespaced Role cannot read Nodes: one warning line, no crash, no failure.
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /may not list and watch nodes \(HTTP 403\), so pods on a NotReady node are not diagnosed/);
  });
});
