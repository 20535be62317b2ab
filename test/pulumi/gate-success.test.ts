/**
 * Gate mode through the stack transformation (`traceDeployments({ mode: 'gate' })`), successful
 * first rollout: the Deployment gets `pulumi.com/waitFor` on its name (the provider returns once it is written), and a
 * resource depending on `rolloutOf(deployment).ready` is created only after the verdict.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

test('gate: dependents wait for a successful rollout', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-gate-ok');
  let outcome: string | undefined;
  let failure: unknown = 'unset';
  let readyWhenDependentCreated: number | undefined;
  const run = await runProgram({
    // What the cluster looked like when the engine got to the dependent ConfigMap.
    onResource: async (type) => {
      if (type !== 'kubernetes:core/v1:ConfigMap') return;
      const d = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
      readyWhenDependentCreated = d.status?.readyReplicas ?? 0;
    },
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode: 'gate' });
      const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 3, 'web'));
      const trace = lib.rolloutOf(web)!;
      trace.outcome.apply((o) => (outcome = o));
      trace.failure.apply((f) => (failure = f));
      new k8s.core.v1.ConfigMap('after', { metadata: { namespace }, data: { a: 'b' } }, { dependsOn: [trace.ready] });
    },
  });
  assert.deepEqual(run.errors, []);
  assert.equal(outcome, 'succeeded');
  assert.equal(failure, undefined, 'no failure output for a success');
  assert.deepEqual(run.provider.awaits, [], 'waitFor: the provider stand-in ran no Deployment await');
  const live = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
  assert.equal(live.metadata?.annotations?.['pulumi.com/waitFor'], 'jsonpath={.metadata.name}');
  assert.equal(live.metadata?.annotations?.['pulumi.com/skipAwait'], undefined);
  const verdict = visible(run).find((l) => /^revision 1 rolled out: 3\/3 pods ready/.test(l.message));
  assert.ok(
    verdict,
    visible(run)
      .map((l) => l.message)
      .join('\n'),
  );
  // The provider returned once the object was written, yet the dependent came only after all 3 were ready.
  assert.equal(readyWhenDependentCreated, 3);
});
