/**
 * Many resources under the engine's parallelism: the step executor runs a bounded number of steps
 * at once (`--parallel`, by default 4 x CPUs), and a Deployment's create step holds its worker for
 * the provider's whole await. So a Deployment can be registered (and its trace started) long
 * before the engine sends its create. Here the engine double has one worker, held by a Deployment
 * whose pod takes longer to start than the trace's not-found grace for a new object; the others
 * (named, auto-named, gated, and a dozen ConfigMaps) queue behind it. No trace may declare its
 * Deployment "not found" (baseline.ts `locate` looks for a new object until it exists), and every
 * trace ends with the right verdict.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitTarget } from '../../src/pulumi/decisions.js';
import { waitUntil, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, shown, startStack } from './harness/langhost.js';
import type { Monitor } from './harness/monitor.js';

/** How long a new Deployment may be missing before its trace says "not found". */
const GRACE_SECONDS = waitTarget('create', undefined, undefined, 'Deployment').notFoundGraceSeconds ?? 0;
/** The first Deployment's pod starts this late: its create step holds the only worker that long. */
const HOLD_SECONDS = GRACE_SECONDS + 15;

test('a Deployment whose create is queued behind a long step is followed once it exists, never "not found"', async (t) => {
  assert.ok(GRACE_SECONDS > 0, 'a new object has a not-found grace');
  const namespace = await withNamespace(t, 'pulumi-parallelism');
  let monitor: Monitor | undefined;
  // The slow Deployment takes the worker first; the others queue for it (FIFO) behind it.
  const slowCreated = () => monitor?.ops.some((o) => o.op === 'create' && o.name === 'slow');
  const stack = await startStack({
    parallelism: 1,
    beforeStep: async (type, name) => {
      if (type === 'kubernetes:apps/v1:Deployment' && name !== 'slow')
        await waitUntil(slowCreated, { what: 'the slow create on the worker', timeoutMs: 120_000 });
    },
  });
  monitor = stack.monitor;
  t.after(() => stack.stop());

  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments();
    const slow = nginxArgs(namespace, 'nginx:1.19', 1, 'slow');
    slow.spec.template.metadata.annotations = { 'sim.rollout-trace.dev/nginx': `slow-start;seconds=${HOLD_SECONDS}` };
    new k8s.apps.v1.Deployment('slow', slow);
    new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 1, 'web'));
    new k8s.apps.v1.Deployment('api', nginxArgs(namespace, 'nginx:1.19', 1));
    lib.gatedDeployment('gated', nginxArgs(namespace, 'nginx:1.19', 1, 'gated'));
    for (let i = 0; i < 12; i++) new k8s.core.v1.ConfigMap(`config-${i}`, { metadata: { namespace }, data: { i: String(i) } });
  });
  for (const name of ['slow', 'web', 'api', 'gated']) console.log(`${name}-rollout:\n  ${linesOf(run, `${name}-rollout`).join('\n  ')}`);
  assert.equal(run.error, '');

  // The scenario: web's create reached the provider after the trace's not-found grace.
  const registered = run.registrations.find((r) => r.type === 'kubernetes:apps/v1:Deployment' && r.name === 'web');
  const created = run.ops.find((o) => o.op === 'create' && o.name === 'web');
  assert.ok(registered && created, 'web registered and created');
  const queuedSeconds = (created.at - registered.at) / 1000;
  console.log(`web: create sent ${queuedSeconds.toFixed(1)} s after its registration (grace ${GRACE_SECONDS} s)`);
  assert.ok(queuedSeconds > GRACE_SECONDS, `web's create waited only ${queuedSeconds} s`);
  assert.equal(run.ops.filter((o) => o.op === 'create' && o.kind === 'ConfigMap').length, 12);

  const notFound = shown(run).filter((l) => /not found/i.test(l.message));
  assert.deepEqual(notFound, [], 'no trace declared its Deployment not found');
  for (const name of ['slow', 'web', 'api', 'gated']) {
    const lines = linesOf(run, `${name}-rollout`);
    assert.match(lines.at(-1) ?? '', /^revision 1 rolled out: 1\/1 pods ready/, `${name}: the verdict`);
    assert.equal(stack.monitor.outputsOf(`${name}-rollout`)?.value.outcome, 'succeeded', `${name}: the outcome`);
  }
  assert.ok(linesOf(run, 'api-rollout').some((l) => new RegExp(`tracing Deployment ${namespace}/api-[a-z0-9]{8}$`).test(l)));
});
