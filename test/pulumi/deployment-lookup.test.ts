/**
 * The integration's own Deployment lookups: traces registered together share one recent list of
 * their namespace (a stack with many auto-named Deployments lists it once), while a fresh lookup
 * (maxAgeMs 0) sees a Deployment created a moment ago; an aborted lookup rejects at once; a
 * refused lookup explains the missing RBAC rule in one paragraph.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRolloutTraceError } from '../../src/errors.js';
import { findWorkloads } from '../../src/pulumi/deployment-lookup.js';
import { userMessage } from '../../src/pulumi/errors.js';
import { planFromInputs } from '../../src/pulumi/plan.js';
import { clients, kubeConfig, withNamespace } from '../helpers/cluster.js';
import { serviceAccountKubeConfig } from '../helpers/rbac.js';

function autoNamed(namespace: string, name: string) {
  return {
    metadata: { name, namespace, annotations: { 'pulumi.com/autonamed': 'true' } },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.19' }] } },
    },
  };
}

test('auto-named lookups share a recent namespace list; maxAgeMs 0 lists afresh', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-lookup');
  const kc = kubeConfig();
  const { apps } = clients(kc);
  const plan = planFromInputs('web', { metadata: { namespace }, spec: { selector: { matchLabels: { app: 'web' } } } });
  await apps.createNamespacedDeployment({ namespace, body: autoNamed(namespace, 'web-aaaaaaaa') });

  const cache = new Map(); // one program run's recent lists (no module-level state)
  const first = await findWorkloads(kc, namespace, plan, { maxAgeMs: 60_000, cache });
  assert.deepEqual(
    first.map((d) => d.metadata?.name),
    ['web-aaaaaaaa'],
  );
  await apps.createNamespacedDeployment({ namespace, body: autoNamed(namespace, 'web-bbbbbbbb') });

  const shared = await findWorkloads(kc, namespace, plan, { maxAgeMs: 60_000, cache });
  assert.deepEqual(
    shared.map((d) => d.metadata?.name),
    ['web-aaaaaaaa'],
    'served from the shared list',
  );
  const fresh = await findWorkloads(kc, namespace, plan, { maxAgeMs: 0, cache });
  assert.deepEqual(fresh.map((d) => d.metadata?.name).sort(), ['web-aaaaaaaa', 'web-bbbbbbbb']);
});

test('an aborted named lookup rejects instead of waiting for the API server', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-lookup-abort');
  const plan = planFromInputs('web', { metadata: { name: 'web', namespace } });
  await assert.rejects(findWorkloads(kubeConfig(), namespace, plan, { signal: AbortSignal.abort(new Error('stop')) }));
});

test('a refused list names the missing RBAC rule in one paragraph', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-lookup-forbidden');
  const kc = await serviceAccountKubeConfig(namespace, 'nobody', []);
  const plan = planFromInputs('web', { metadata: { namespace } });
  const err = await findWorkloads(kc, namespace, plan).then(
    () => assert.fail('the list should be refused'),
    (e: unknown) => e,
  );
  assert.ok(isRolloutTraceError(err) && err.code === 'forbidden', String(err));
  const text = userMessage(err);
  assert.match(text, /User "sa-nobody" of .* may not list deployments in namespace "pulumi-lookup-forbidden/);
  assert.doesNotMatch(text, /Headers|HTTP-Code|\n/);
});
