/**
 * Previews that compare as the kubernetes provider does (pk):
 *
 * - A Deployment and a Job declared with `cpu: 0.5` and `memory: 1024Mi` while the live objects
 *   hold `500m` and `1Gi` (the API server's text for the same values): pk's typed scheme reads them
 *   as one, so no rollout follows and the Job is not replaced (template-diff.ts, quantity.ts).
 * - A Deployment scaled from outside (an HPA, `kubectl scale`) after an update, the program
 *   unchanged: pk diffs against its checkpoint, finds nothing and writes nothing, so the preview
 *   announces no scale (preview-change.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KubernetesObjectApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from '../helpers/cluster.js';
import { waitRolledOut } from '../helpers/deployments.js';
import { jobOf } from '../helpers/workloads.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';
import { same, twoUps } from './harness/two-ups.js';
import { argsOf } from './harness/workload-programs.js';

const declared = { requests: { cpu: 0.5, memory: '1024Mi' } };
const stored = { requests: { cpu: '500m', memory: '1Gi' } };

/** Writes `body` as the provider does (server-side apply, its field manager). */
async function apply(body: object): Promise<void> {
  await KubernetesObjectApi.makeApiClient(clients().kc).patch(
    body as never,
    undefined,
    undefined,
    'pulumi-kubernetes',
    true,
    PatchStrategy.ServerSideApply,
  );
}

test('preview: requests declared as 0.5 and 1024Mi, live as 500m and 1Gi: no rollout, the Job is not replaced', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-preview-spellings');
  const web = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
  web.spec.template.spec.containers[0]!.resources = stored;
  await apply({ apiVersion: 'apps/v1', kind: 'Deployment', ...web });
  await apply({ ...jobOf('migrate', { container: { resources: stored } }), metadata: { name: 'migrate', namespace } });
  await waitRolledOut(namespace, 'web', 90_000);
  const { apps } = clients();
  const live = await apps.readNamespacedDeployment({ name: 'web', namespace });
  assert.deepEqual(live.spec?.template.spec?.containers[0]?.resources?.requests, { cpu: '500m', memory: '1Gi' });

  const run = await runProgram({
    preview: true,
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceWorkloads();
      const planned = nginxArgs(namespace, 'nginx:1.19', 1, 'web');
      planned.spec.template.spec.containers[0]!.resources = declared;
      new k8s.apps.v1.Deployment('web', planned as never);
      new k8s.batch.v1.Job('migrate', argsOf(namespace, jobOf('migrate', { container: { resources: declared as never } })));
    },
  });
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt, title: 'Previewing update (dev):' }));
  assert.deepEqual(run.errors, []);
  const on = (row: string) => visible(run).find((l) => l.urn.endsWith(`::${row}-rollout`))?.message ?? '';
  assert.match(on('web'), /the pod template of .*\/web is unchanged: no new rollout/);
  assert.doesNotMatch(on('migrate-job'), /replaces the Job/);
  assert.match(on('migrate-job'), /the pod template of .*\/migrate is unchanged: no new rollout/);
  assert.equal(run.provider.writes, 0);
});

test('preview: scaled from outside after an update, the program unchanged: no scale is announced', async (t) => {
  const scaled = async (namespace: string) => {
    await clients().apps.patchNamespacedDeploymentScale(
      { name: 'web', namespace, body: { spec: { replicas: 2 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitUntil(
      async () => {
        const d = await clients().apps.readNamespacedDeployment({ name: 'web', namespace });
        return (d.status?.readyReplicas ?? 0) >= 2 && (d.status?.observedGeneration ?? 0) >= 2;
      },
      { what: 'the Deployment scaled to 2 ready replicas', timeoutMs: 60_000 },
    );
  };
  const { up2, lines, live } = await twoUps(t, 'pulumi-preview-scaled', same, same, {
    mode: 'observe',
    between: scaled,
    run: { dryRun: true },
  });
  assert.equal(up2.error, '');
  assert.equal(live?.spec?.replicas, 2, 'the preview wrote nothing');
  assert.deepEqual(lines, [
    `preview: the pod template of ${live?.metadata?.namespace}/web is unchanged: no new rollout (live: revision 1, 2/2 ready)`,
  ]);
});
