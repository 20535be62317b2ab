/**
 * The documented minimal RBAC Role is enough: a gate given a ServiceAccount-token kubeconfig as
 * *content* (like a provider's `kubeconfig` argument) traces a crash-looping rollout and its
 * failure summary includes the container's log tail (pods/log) and events, with nothing denied.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, waitUntil, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

async function restrictedKubeconfig(namespace: string): Promise<string> {
  const { kc, core, rbac } = clients();
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'deployer' } } });
  // Exactly the Role of docs/security.md (Minimal RBAC).
  await rbac.createNamespacedRole({
    namespace,
    body: {
      metadata: { name: 'rollout-trace' },
      rules: [
        { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['pods', 'events', 'persistentvolumeclaims'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
      ],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: {
      metadata: { name: 'rollout-trace' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'rollout-trace' },
      subjects: [{ kind: 'ServiceAccount', name: 'deployer', namespace }],
    },
  });
  const secretName = await waitUntil(
    async () => (await core.readNamespacedServiceAccount({ name: 'deployer', namespace })).secrets?.[0]?.name,
    { what: 'deployer token' },
  );
  const secret = await core.readNamespacedSecret({ name: secretName, namespace });
  const token = Buffer.from(secret.data!.token!, 'base64').toString();
  const cluster = kc.getCurrentCluster()!;
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: cluster.server, 'certificate-authority-data': secret.data!['ca.crt'] } }],
    users: [{ name: 'deployer', user: { token } }],
    contexts: [{ name: 'deployer', context: { cluster: 'c', user: 'deployer', namespace } }],
    'current-context': 'deployer',
  });
}

test('gate with the minimal Role: crash loop diagnosed with log tail and events', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-rbac');
  const kubeconfig = await restrictedKubeconfig(namespace);

  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const args = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
      (args.spec.template.metadata as Record<string, unknown>).annotations = {
        'sim.rollout-trace.dev/nginx': 'crash;exitCode=3;message=config missing;after=1;logs=starting web|FATAL: config missing',
      };
      // Ready only after 3 s: the container has crashed before it could count as ready.
      Object.assign(args.spec.template.spec.containers[0]!, {
        readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 3 },
      });
      lib.gatedDeployment('web', args, {}, { kubeconfig, policy: { classes: { 'crash-loop': { afterSeconds: 3 } } } });
    },
  });
  const errors = visible(run).filter((l) => l.severity === 3);
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt }));
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.urn, /::web-rollout$/);
  assert.match(errors[0]!.message, /FATAL: config missing/, 'log tail via pods/log');
  assert.match(errors[0]!.message, /exited with code 3/);
  assert.ok(
    !run.logs.some((l) => /forbidden/i.test(l.message)),
    run.logs
      .filter((l) => /forbidden/i.test(l.message))
      .map((l) => l.message)
      .join('\n'),
  );
});
