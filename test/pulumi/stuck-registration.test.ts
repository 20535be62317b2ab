/**
 * The engine runs every registration, components included, on its step workers (`--parallel`);
 * the SDK sends all `pulumi.log` calls in order on one chain, each waiting for its resource's URN.
 * Here the only worker is held by web's create (the provider's await of a pod Ready after 15 s) when a second
 * Deployment is declared: its trace component's registration queues behind it. web's live lines
 * (its log lines, one a second) must keep reaching the engine during that await: a queued trace
 * logs only once it is registered, so it never freezes the chain.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitUntil, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('a trace whose registration is queued behind a busy worker does not freeze the live lines of the others', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-stuck');
  const stack = await startStack({ parallelism: 1 });
  t.after(() => stack.stop());
  const { monitor } = stack;
  let declaredLate = 0;
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ logs: { follow: true } });
    const web = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
    // Running at once, printing a line a second, Ready only after 15 s: the provider's await holds the worker.
    web.spec.template.metadata.annotations = { 'sim.rollout-trace.dev/nginx': 'tick=1' };
    web.spec.template.spec.containers[0]!.readinessProbe = { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 15, periodSeconds: 1 };
    new k8s.apps.v1.Deployment('web', web);
    await waitUntil(() => monitor.ops.some((o) => o.op === 'create' && o.name === 'web'), { what: "web's create", timeoutMs: 60_000 });
    declaredLate = Date.now();
    new k8s.apps.v1.Deployment('late', nginxArgs(namespace, 'nginx:1.19', 1, 'late', { app: 'late' }));
  });
  assert.equal(run.error, '');
  const webAwaitEnd = run.ops.find((o) => o.op === 'await' && o.name === 'web')?.at ?? 0;
  const lateFirst = run.logs.find((l) => l.urn.endsWith('::late-rollout'))?.at ?? 0;
  assert.ok(lateFirst >= webAwaitEnd, "the late trace was registered (its first line) only after web's step freed the worker");
  const ticks = run.logs.filter((l) => l.urn.endsWith('::web-rollout') && /\| tick \d+$/.test(l.message));
  const during = ticks.filter((l) => l.at > declaredLate && l.at < webAwaitEnd);
  console.log(`${during.length} of web's ${ticks.length} tick lines reached the engine while late's registration was queued`);
  assert.ok(during.length >= 3, linesOf(run, 'web-rollout').join('\n'));
  assert.ok(linesOf(run, 'late-rollout').some((l) => /rolled out/.test(l)));
});
