/**
 * The Automation API runs an inline program twice in one process (sdk: automation/server.js):
 * here through the SDK's own LanguageServer and its gRPC `run`, against the engine double. Both
 * runs are traced, `rolloutOf` works in both, and nothing from the first run (the "already
 * registered" flag, cached namespace lists) leaks into the second.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('Automation API: two runs in one process, both traced', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-automation');
  const stack = await startStack();
  t.after(() => stack.stop());
  const program = (image: string, seen: { outcome?: string; change?: unknown }) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, image, 2, 'web'));
    const trace = lib.rolloutOf(web);
    assert.ok(trace, 'rolloutOf(web) in this run');
    trace.outcome.apply((o) => (seen.outcome = o));
  };
  const first: { outcome?: string } = {};
  const run1 = await stack.run(program('nginx:1.19', first));
  assert.equal(run1.error, '');
  assert.equal(first.outcome, 'succeeded');
  assert.match(linesOf(run1, 'web-rollout')[0] ?? '', /^new Deployment .*\/web: tracing its first rollout$/);

  const second: { outcome?: string } = {};
  const run2 = await stack.run(program('nginx:1.20', second));
  const lines = linesOf(run2, 'web-rollout');
  console.log(lines.join('\n'));
  assert.equal(run2.error, '');
  assert.equal(second.outcome, 'succeeded', 'the second run is traced too');
  assert.match(lines[0] ?? '', /^pod template changed \(.*"nginx:1\.19" → "nginx:1\.20"\): tracing the rollout from revision 1$/);
  assert.ok(
    lines.some((l) => /^revision 2 rolled out: 2\/2 pods ready/.test(l)),
    lines.join('\n'),
  );
  assert.ok(!run2.logs.some((l) => /called more than once/.test(l.message)), 'no registration state left from run 1');
  const live = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
  assert.equal(live.spec?.template.spec?.containers[0]?.image, 'nginx:1.20');
});
