/**
 * Preview (`pulumi preview`): rollout-trace reports what each Deployment's planned change does
 * (new rollout, scale only, create; an unchanged one without a permanent line) from the live state,
 * read-only, and says nothing else.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { applyReady, nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

test('preview reports new rollout / scale only / create, writes nothing', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-preview');
  const { apps } = clients();
  await applyReady(namespace, 'web', 'nginx:1.19', 2);
  await applyReady(namespace, 'api', 'nginx:1.19', 2);
  await applyReady(namespace, 'same', 'nginx:1.19', 1);
  const before = await apps.listNamespacedDeployment({ namespace });

  const run = await runProgram({
    preview: true,
    program: async () => {
      // Imported inside the program: the SDK must first see the Engine double's address.
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments();
      new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.20', 2, 'web'));
      new k8s.apps.v1.Deployment('api', nginxArgs(namespace, 'nginx:1.19', 5, 'api'));
      new k8s.apps.v1.Deployment('worker', nginxArgs(namespace, 'nginx:1.19', 1));
      new k8s.apps.v1.Deployment('same', nginxArgs(namespace, 'nginx:1.19', 1, 'same'));
    },
  });

  const shown = visible(run);
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt, title: 'Previewing update (dev):' }));
  assert.deepEqual(run.errors, []);
  // Only the preview reports, each on its own trace row: permanent for the three the update
  // changes, ephemeral (no permanent line) for the unchanged one.
  assert.equal(shown.length, 4, shown.map((l) => l.message).join('\n'));
  assert.ok(shown.every((l) => l.severity === 1));
  const permanent = shown.filter((l) => !l.ephemeral).map((l) => l.urn.split('::').pop());
  assert.deepEqual(permanent.sort(), ['api-rollout', 'web-rollout', 'worker-rollout']);
  const on = (name: string) => shown.find((l) => l.urn.endsWith(`::${name}-rollout`))?.message ?? '';
  assert.match(
    on('web'),
    /pod template of .*\/web changes \(.*image: "nginx:1\.19" → "nginx:1\.20"\): the update starts a new rollout \(live: revision 1, 2\/2 ready\)/,
  );
  assert.match(on('api'), /scales 2 → 5 replicas, pod template unchanged: no new rollout/);
  assert.match(on('worker'), /does not exist yet: the update creates it \(revision 1, 1 replica\)/);
  assert.match(on('same'), /the pod template of .*\/same is unchanged: no new rollout/);

  // No cluster writes: same objects, same resourceVersions, nothing created.
  assert.equal(run.provider.writes, 0);
  const after = await apps.listNamespacedDeployment({ namespace });
  assert.deepEqual(
    after.items.map((d) => [d.metadata?.name, d.metadata?.generation]),
    before.items.map((d) => [d.metadata?.name, d.metadata?.generation]),
  );
});
