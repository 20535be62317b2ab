/**
 * Preview with unknown values: the namespace and a label come from a resource created in the same
 * update, so they are unknown during preview. The gate's annotation changes only
 * `metadata.annotations`: `metadata.name` stays known in what the engine receives (the provider's
 * dry run and replace check need it), the trace reports that it will trace during the update,
 * nothing is written and nothing fails. Then `pulumi up --skip-preview` (one run, not a dry run)
 * traces the same program.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { linesOf, startStack } from './harness/langhost.js';
import { UNKNOWN } from './harness/wire.js';

test('preview with unknowns touches only annotations; --skip-preview traces', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-unknowns');
  const stack = await startStack();
  t.after(() => stack.stop());
  const program = async (pulumi: typeof import('@pulumi/pulumi')) => {
    const lib = await import('../../src/pulumi/index.js');
    // A resource whose output is known only after its create (unknown in preview).
    class Computed extends pulumi.CustomResource {
      declare readonly computed: import('@pulumi/pulumi').Output<string>;
      constructor(name: string, computeFrom: string) {
        super('test:index:Computed', name, { computeFrom, computed: undefined });
      }
    }
    const computed = new Computed('ns', namespace).computed;
    lib.gatedDeployment('web', {
      metadata: { name: 'web', namespace: computed, labels: { team: computed.apply((n: string) => n.slice(0, 10)) } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.19' }] } },
      },
    });
  };
  const preview = await stack.run(program, { dryRun: true });
  assert.equal(preview.error, '');
  const sent = preview.registrations.find((r) => r.type === 'kubernetes:apps/v1:Deployment');
  const metadata = (sent?.props as any)?.metadata;
  console.log(JSON.stringify(metadata));
  assert.equal(metadata.name, 'web', 'metadata.name stays known');
  assert.equal(metadata.namespace, UNKNOWN);
  assert.equal(metadata.annotations['pulumi.com/waitFor'], 'jsonpath={.metadata.name}');
  assert.deepEqual(linesOf(preview, 'web-rollout'), [
    'preview: the Deployment depends on values known only during the update; it will be traced then',
  ]);
  assert.equal(preview.ops.length, 0, 'preview writes nothing');

  const up = await stack.run(program);
  assert.equal(up.error, '');
  const lines = linesOf(up, 'web-rollout');
  assert.ok(
    lines.some((l) => /^revision 1 rolled out: 1\/1 pods ready/.test(l)),
    lines.join('\n'),
  );
  const live = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
  assert.equal(live.metadata?.labels?.team, namespace.slice(0, 10));
});
