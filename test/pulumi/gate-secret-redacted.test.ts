/**
 * Secret inputs (`pulumi.secret`) are masked in everything the trace sends to the engine: its
 * live lines, the gate's error (Diagnostics, Pulumi Cloud) and the log tails in it. Here the
 * container prints its secret token as it crashes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { startStack } from './harness/langhost.js';

const TOKEN = 's3cr3t-token-42';

test('gate: secret input values are masked in the live lines, the error and its log tails', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-secret');
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async (pulumi) => {
    const lib = await import('../../src/pulumi/index.js');
    const args = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
    args.spec.template.metadata.annotations = {
      'sim.rollout-trace.dev/nginx': `crash;not-ready;exitCode=1;after=1;logs=using token ${TOKEN};message=login failed for ${TOKEN}`,
    };
    const container = {
      ...args.spec.template.spec.containers[0]!,
      env: [{ name: 'TOKEN', value: pulumi.secret(TOKEN) }],
      readinessProbe: { httpGet: { path: '/ready', port: 80 }, periodSeconds: 1 },
    };
    args.spec.template.spec.containers = [container];
    lib.gatedDeployment('web', args as never);
  });
  const shown = run.logs.filter((l) => l.severity > 0);
  const error = shown.find((l) => l.severity === 3 && l.urn.endsWith('::web-rollout'));
  console.log(shown.map((l) => l.message).join('\n'));
  assert.notEqual(run.error, '');
  assert.match(error?.message ?? '', /login failed for \*\*\*/, 'the crash message, masked');
  assert.ok(!JSON.stringify(shown).includes(TOKEN), 'no line holds the secret');
  assert.ok(!run.error.includes(TOKEN));
});
