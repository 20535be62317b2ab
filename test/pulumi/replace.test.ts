/**
 * Replacing a named Deployment: a changed `spec.selector` makes the provider delete it, then
 * create a new object (generation 1 again). In both modes the trace follows the new object (new
 * uid) and never stalls. In gate mode the provider's delete wait is kept (the gate uses
 * `pulumi.com/waitFor`, not skipAwait, which would also skip the delete wait for Deployments,
 * pk: metadata/overrides.go), so the create never races the delete. A DaemonSet's selector forces
 * a replacement too (pk provider/pkg/provider/diff.go `forceNew`, L50/L54).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { daemonSetOf } from '../helpers/workloads.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';
import { renderTranscript } from './harness/transcript.js';
import { argsOf } from './harness/workload-programs.js';

function relabelled(namespace: string, app: string) {
  return nginxArgs(namespace, 'nginx:1.19', 2, 'web', { app });
}

for (const mode of ['gate', 'observe'] as const) {
  test(`${mode}: replacing a named Deployment follows the new object`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-replace-${mode}`);
    const stack = await startStack();
    t.after(() => stack.stop());
    const program = (app: string, seen: { outcome?: string }) => async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode });
      const web = new k8s.apps.v1.Deployment('web', relabelled(namespace, app));
      lib.rolloutOf(web)!.outcome.apply((o) => (seen.outcome = o));
    };
    const run1 = await stack.run(program('nginx', {}));
    assert.equal(run1.error, '');
    const before = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });

    const seen: { outcome?: string } = {};
    const run2 = await stack.run(program('nginx-v2', seen));
    const lines = linesOf(run2, 'web-rollout');
    console.log(run2.ops.map((o) => `${o.op} ${o.kind}/${o.name} ${o.uid ?? ''}`).join('\n'));
    console.log(lines.join('\n'));
    assert.equal(run2.error, '');
    assert.equal(seen.outcome, 'succeeded');
    assert.match(lines[0] ?? '', /^selector changed: the provider replaces .*\/web; tracing the new Deployment's first rollout$/);
    assert.ok(
      lines.some((l) => /^revision 1 rolled out: 2\/2 pods ready/.test(l)),
      lines.join('\n'),
    );
    const after = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
    assert.notEqual(after.metadata?.uid, before.metadata?.uid, 'a new object');
    assert.equal(after.metadata?.generation, 1);
    // The provider waited for the delete before creating the new object.
    const ops = run2.ops.map((o) => o.op);
    assert.deepEqual(ops.slice(0, 3), ['delete', 'delete-done', 'create'], ops.join(','));
  });
}

test('observe: a DaemonSet whose selector changed is replaced (pk diff.go forceNew), and the trace follows the new object', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-replace-ds');
  const stack = await startStack();
  t.after(() => stack.stop());
  const program = (app: string, seen: { outcome?: string }) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode: 'observe', timeoutSeconds: 60 });
    const agent = new k8s.apps.v1.DaemonSet('agent', argsOf(namespace, daemonSetOf('agent', { image: 'nginx:1.19', labels: { app } })));
    lib.rolloutOf(agent)!.outcome.apply((o) => (seen.outcome = o));
  };
  assert.equal((await stack.run(program('agent', {}))).error, '');
  const before = await clients().apps.readNamespacedDaemonSet({ name: 'agent', namespace });

  const seen: { outcome?: string } = {};
  const run2 = await stack.run(program('agent-v2', seen));
  const lines = linesOf(run2, 'agent-daemonset-rollout');
  assert.equal(run2.error, '', renderTranscript(run2.logs, { startedAt: run2.startedAt }));
  assert.equal(seen.outcome, 'succeeded', lines.join('\n'));
  assert.match(lines[0] ?? '', /^selector changed: the provider replaces .*\/agent; tracing the new DaemonSet's first rollout$/);
  const after = await clients().apps.readNamespacedDaemonSet({ name: 'agent', namespace });
  assert.notEqual(after.metadata?.uid, before.metadata?.uid, 'a new object');
  const ops = run2.ops.filter((o) => o.kind === 'DaemonSet').map((o) => o.op);
  assert.deepEqual(ops.slice(0, 3), ['delete', 'delete-done', 'create'], ops.join(','));
});
