/**
 * `helm.v3.Release`: the provider runs helm itself and registers no resource per object. Its
 * workloads are found by helm's marks (`app.kubernetes.io/managed-by: Helm`,
 * `meta.helm.sh/release-name`) and observed on a `<name>-release-rollouts` row, in either mode:
 * - the preview names the release (auto-named `<name>-<8 hex>` by the provider) and its live workloads;
 * - the install's Deployment is traced to its verdict;
 * - a broken upgrade shows its cause within seconds, while helm's own wait (run by the provider)
 *   goes on until its timeout and fails the update.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dumpYaml } from '@kubernetes/client-node';
import { withNamespace } from '../helpers/cluster.js';
import { deploymentOf } from '../helpers/deployments.js';
import { linesOf, shown, startStack } from './harness/langhost.js';

/** A chart with one Deployment `<release>-web` running `{{ .Values.image }}`. */
function chartDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rt-release-'));
  mkdirSync(join(dir, 'templates'));
  writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'values.yaml'), 'image: nginx:1.19\n');
  const web = { apiVersion: 'apps/v1', kind: 'Deployment', ...deploymentOf('RELEASE-web', { image: 'IMAGE', replicas: 2 }) };
  writeFileSync(
    join(dir, 'templates/web.yaml'),
    dumpYaml(web).replaceAll('RELEASE', '{{ .Release.Name }}').replaceAll('IMAGE', '{{ .Values.image }}'),
  );
  return dir;
}

test('helm.v3.Release: the preview names the release, its install is traced, a broken upgrade shows its cause before helm gives up', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-helm-release');
  const dir = chartDir();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const stack = await startStack({ defaultAwaitSeconds: 20 });
  t.after(() => stack.stop());
  const program = (image: string) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode: 'gate', timeoutSeconds: 60 });
    new k8s.helm.v3.Release('rel', { chart: dir, namespace, values: { image } });
  };
  const row = 'rel-release-rollouts';

  const preview = await stack.run(program('nginx:1.19'), { dryRun: true });
  assert.deepEqual(linesOf(preview, row), [
    `preview: helm Release ${namespace}/rel-<random> has no workload yet; the update traces those helm installs (observe mode)`,
  ]);

  const install = await stack.run(program('nginx:1.19'));
  assert.equal(install.error, '');
  const installed = linesOf(install, row);
  console.log(installed.join('\n'));
  assert.ok(
    installed.some((l) => /^Deployment rel-[0-9a-f]{8}-web: revision 1 rolled out: 2\/2 pods ready/.test(l)),
    installed.join('\n'),
  );

  const preview2 = await stack.run(program('nginx:1.20'), { dryRun: true });
  assert.match(
    linesOf(preview2, row)[0] ?? '',
    new RegExp(
      `^preview: helm Release ${namespace}/rel-[0-9a-f]{8}: the update traces the workloads helm writes \\(observe mode\\); live: Deployment rel-[0-9a-f]{8}-web \\(revision 1, 2/2 ready`,
    ),
  );

  const broken = await stack.run(program('nginx:1.99-does-not-exist'));
  console.log(linesOf(broken, row).join('\n'));
  assert.match(broken.error, /timed out waiting for the condition/, 'helm waited and failed the update');
  const cause = shown(broken).find((l) => l.urn.endsWith(`::${row}`) && /image "nginx:1\.99-does-not-exist"/.test(l.message));
  assert.ok(cause, 'the trace names the image');
  assert.ok(cause.at < broken.finishedAt - 5000, `shown ${broken.finishedAt - cause.at} ms before the update ended`);
  const verdict = shown(broken).find((l) => l.urn.endsWith(`::${row}`) && l.severity === 2 && !l.ephemeral);
  assert.match(verdict?.message ?? '', /^✖ Deployment \S+\/rel-[0-9a-f]{8}-web: FAILED/);
});
