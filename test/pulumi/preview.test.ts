/**
 * Preview (`pulumi preview`): rollout-trace reports what each Deployment's planned change does
 * (new rollout, scale only, create) from the live state, read-only, and says nothing else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clients, withNamespace } from '../helpers/cluster.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

const labels = { app: 'web' };

function deploymentBody(namespace: string, name: string, image: string, replicas: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
    },
  };
}

test('preview reports new rollout / scale only / create, writes nothing', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-preview');
  const { apps } = clients();
  await apps.createNamespacedDeployment({ namespace, body: deploymentBody(namespace, 'web', 'nginx:1.19', 2) });
  await apps.createNamespacedDeployment({ namespace, body: deploymentBody(namespace, 'api', 'nginx:1.19', 2) });
  const before = await apps.listNamespacedDeployment({ namespace });

  const run = await runProgram({
    preview: true,
    program: async () => {
      // Imported inside the program: the SDK must first see the Engine double's address.
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments();
      const spec = (image: string, replicas: number) => ({
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
      });
      new k8s.apps.v1.Deployment('web', { metadata: { name: 'web', namespace }, spec: spec('nginx:1.20', 2) });
      new k8s.apps.v1.Deployment('api', { metadata: { name: 'api', namespace }, spec: spec('nginx:1.19', 5) });
      new k8s.apps.v1.Deployment('worker', { metadata: { namespace }, spec: spec('nginx:1.19', 1) });
    },
  });

  const shown = visible(run);
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt, title: 'Previewing update (dev):' }));
  assert.deepEqual(run.errors, []);
  // Only the three preview reports, each permanent, each on its own trace row.
  assert.equal(shown.length, 3, shown.map((l) => l.message).join('\n'));
  assert.ok(shown.every((l) => !l.ephemeral && l.severity === 1));
  const on = (name: string) => shown.find((l) => l.urn.endsWith(`::${name}-rollout`))?.message ?? '';
  assert.match(on('web'), /pod template of .*\/web changes \(.*image: "nginx:1\.19" → "nginx:1\.20"\): the update starts a new rollout \(live: revision 1, 0\/2 ready\)/);
  assert.match(on('api'), /scales 2 → 5 replicas, pod template unchanged: no new rollout/);
  assert.match(on('worker'), /does not exist yet: the update creates it \(revision 1, 1 replica\)/);

  // No cluster writes: same objects, same resourceVersions, nothing created.
  assert.equal(run.provider.writes, 0);
  const after = await apps.listNamespacedDeployment({ namespace });
  assert.deepEqual(
    after.items.map((d) => [d.metadata?.name, d.metadata?.generation]),
    before.items.map((d) => [d.metadata?.name, d.metadata?.generation]),
  );
});
