/**
 * Two Deployments with the same Pulumi name under different parents are two resources (two URNs):
 * both are traced and both gated. The trace state is keyed by name and parent, not by name alone
 * (the second one was silently untraced and ungated).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { startStack } from './harness/langhost.js';

test('traceDeployments: same-named Deployments under different parents are both traced and gated', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-same-name');
  const stack = await startStack();
  t.after(() => stack.stop());
  const outcomes: Record<string, string> = {};
  const run = await stack.run(async (pulumi) => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    for (const color of ['blue', 'green']) {
      const app = new pulumi.ComponentResource(`test:index:${color}`, color, {});
      const labels = { app: color };
      const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 1, `web-${color}`, labels), { parent: app });
      lib.rolloutOf(web)?.outcome.apply((o) => (outcomes[color] = o));
    }
  });
  assert.equal(run.error, '');
  const traces = run.registrations.filter((r) => r.type === 'rollout-trace:pulumi:RolloutTrace').map((r) => r.urn);
  assert.equal(traces.length, 2, traces.join('\n'));
  assert.deepEqual(outcomes, { blue: 'succeeded', green: 'succeeded' });
  for (const color of ['blue', 'green']) {
    const live = await clients().apps.readNamespacedDeployment({ name: `web-${color}`, namespace });
    assert.equal(live.metadata?.annotations?.['pulumi.com/waitFor'], 'jsonpath={.metadata.name}', `web-${color} is gated`);
  }
});
