/**
 * Faithful to the provider's configuration:
 * - the provider's `cluster` argument and the `kubernetes:cluster` stack config pick the cluster
 *   the trace watches (the kubeconfig's context points at an unreachable one);
 * - `skipUpdateUnreachable`: the provider skips the update of an unreachable cluster, and the gate
 *   does not fail the update;
 * - a provider the trace did not see being created (created before traceDeployments(), or rebuilt
 *   from a resource reference): one warning line names what the trace falls back to;
 * - secret inputs make the trace's `summary` and `failure` outputs secret.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kubeConfig, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';
import { renderTranscript } from './harness/transcript.js';

/** A kubeconfig whose context uses an unreachable cluster; the real one is defined as `good`. */
function twoClusters(): string {
  const kc = kubeConfig();
  const real = kc.getCurrentCluster()!;
  const ctx = kc.getContextObject(kc.getCurrentContext())!;
  kc.clusters = [
    { ...real, name: 'good' },
    { ...real, name: 'broken', server: 'https://127.0.0.1:9' },
  ];
  kc.contexts = kc.contexts.map((c) => (c.name === ctx.name ? { ...c, cluster: 'broken' } : c));
  return kc.exportConfig();
}

test('the provider cluster argument and kubernetes:cluster pick the watched cluster', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-cluster');
  const content = twoClusters();
  const stack = await startStack({ config: { 'kubernetes:kubeconfig': content, 'kubernetes:cluster': 'good' } });
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    const p = new k8s.Provider('explicit', { kubeconfig: content, cluster: 'good' });
    new k8s.apps.v1.Deployment('a', nginxArgs(namespace, 'nginx:1.19', 1, 'a'), { provider: p });
    new k8s.apps.v1.Deployment('b', nginxArgs(namespace, 'nginx:1.19', 1, 'b'));
  });
  assert.equal(run.error, '', run.logs.map((l) => l.message).join('\n'));
  for (const name of ['a', 'b'])
    assert.ok(
      linesOf(run, `${name}-rollout`).some((l) => /^revision 1 rolled out: 1\/1/.test(l)),
      name,
    );
});

for (const how of ['the provider argument', 'PULUMI_K8S_SKIP_UPDATE_UNREACHABLE'] as const)
  test(`skipUpdateUnreachable (${how}): the skipped update is not failed by the gate`, async (t) => {
    const namespace = await withNamespace(t, 'pulumi-unreachable');
    const stack = await startStack();
    t.after(() => stack.stop());
    const byEnv = how === 'PULUMI_K8S_SKIP_UPDATE_UNREACHABLE';
    const good = kubeConfig().exportConfig();
    const program = (kubeconfig: string, image: string) => async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode: 'gate' });
      const p = new k8s.Provider('p', byEnv ? { kubeconfig } : { kubeconfig, skipUpdateUnreachable: true });
      new k8s.apps.v1.Deployment('web', nginxArgs(namespace, image, 1, 'web'), { provider: p });
    };
    assert.equal((await stack.run(program(good, 'nginx:1.19'))).error, '');
    const broken = kubeConfig();
    broken.clusters = broken.clusters.map((c) => ({ ...c, server: 'https://127.0.0.1:9' }));
    if (byEnv) process.env.PULUMI_K8S_SKIP_UPDATE_UNREACHABLE = 'true';
    t.after(() => delete process.env.PULUMI_K8S_SKIP_UPDATE_UNREACHABLE);
    const run = await stack.run(program(broken.exportConfig(), 'nginx:1.20'));
    console.log(linesOf(run, 'web-rollout').join('\n'));
    assert.equal(run.error, '');
    assert.deepEqual(
      run.ops.map((o) => o.op),
      ['skip-update'],
    );
    assert.match(
      linesOf(run, 'web-rollout').join('\n'),
      /^not traced: the cluster cannot be read \(.*\) and the provider skips updates of an unreachable cluster \(skipUpdateUnreachable\)$/,
    );
  });

test('a provider the trace did not see: one warning line names the fallback; secrets stay secret', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-rebuilt');
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async (pulumi) => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    const early = new k8s.Provider('early', {});
    lib.traceDeployments();
    new k8s.apps.v1.Deployment('one', nginxArgs(namespace, 'nginx:1.19', 1, 'one'), { provider: early });
    const args = nginxArgs(namespace, 'nginx:1.19', 1, 'two');
    const container = { ...args.spec.template.spec.containers[0]!, env: [{ name: 'TOKEN', value: pulumi.secret('hunter2') }] };
    new k8s.apps.v1.Deployment(
      'two',
      { ...args, spec: { ...args.spec, template: { ...args.spec.template, spec: { containers: [container] } } } },
      { provider: early },
    );
  });
  assert.equal(run.error, '');
  const warnings = run.logs.filter((l) => l.severity === 2 && /kubeconfig is unknown/.test(l.message));
  assert.equal(warnings.length, 1, warnings.map((w) => w.message).join('\n'));
  assert.match(warnings[0]!.message, /tracing its Deployments with \$KUBECONFIG \(.+\)/);
  for (const name of ['one', 'two'])
    assert.ok(
      linesOf(run, `${name}-rollout`).some((l) => /rolled out/.test(l)),
      `${name}: no "rolled out" line\n${renderTranscript(run.logs, { startedAt: run.startedAt })}`,
    );
  assert.equal(stack.monitor.outputsOf('two-rollout')?.secret, true, 'secret inputs: secret outputs');
  assert.equal(stack.monitor.outputsOf('one-rollout')?.secret, false, 'plain inputs: plain outputs');
  // The SDK's own debug lines (severity 0) are not ours; what users see must not hold it.
  assert.doesNotMatch(JSON.stringify(run.logs.filter((l) => l.severity > 0)), /hunter2/);
});

test('gate: a provider whose settings cannot be read is refused, never guessed', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-refused');
  const stack = await startStack();
  t.after(() => stack.stop());
  let outcome: string | undefined;
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    const early = new k8s.Provider('early', {});
    lib.traceDeployments({ mode: 'gate' });
    const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 1, 'web'), { provider: early });
    lib.rolloutOf(web)!.outcome.apply((o) => (outcome = o));
  });
  const errors = run.logs.filter((l) => l.severity === 3 && l.urn.endsWith('::web-rollout'));
  assert.equal(errors.length, 1, run.logs.map((l) => l.message).join('\n'));
  assert.match(
    errors[0]!.message,
    /^rollout-trace cannot trace this Deployment: its kubernetes provider was created before traceDeployments\(\)/,
  );
  assert.match(errors[0]!.message, /a gate does not guess \(the fallback would be \$KUBECONFIG/);
  assert.ok(!errors[0]!.message.includes('\n'), 'one paragraph');
  assert.notEqual(run.error, '');
  assert.equal(outcome, 'failed');
  assert.ok(!linesOf(run, 'web-rollout').some((l) => /rolled out/.test(l)), 'never judged');
});
