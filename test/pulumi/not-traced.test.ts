/**
 * What is not a rollout is not traced and gets no annotation: `Deployment.get(...)` (a read) and
 * a Deployment with the `import` option. A provider with `renderYamlToDirectory` never touches the
 * cluster: its Deployment's trace says so in one line and waits for nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { applyReady, nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('get and import are not traced; renderYamlToDirectory says why in one line', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-not-traced');
  await applyReady(namespace, 'existing', 'nginx:1.19', 1);
  await applyReady(namespace, 'adopted', 'nginx:1.19', 1);
  const out = mkdtempSync(join(tmpdir(), 'rt-render-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const stack = await startStack();
  t.after(() => stack.stop());
  let got: unknown;
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    const existing = k8s.apps.v1.Deployment.get('existing', `${namespace}/existing`);
    existing.metadata.name.apply((n) => (got = n));
    assert.equal(lib.rolloutOf(existing), undefined);
    const adopted = new k8s.apps.v1.Deployment('adopted', nginxArgs(namespace, 'nginx:1.19', 1, 'adopted'), {
      import: `${namespace}/adopted`,
    });
    assert.equal(lib.rolloutOf(adopted), undefined);
    const render = new k8s.Provider('render', { renderYamlToDirectory: out });
    new k8s.apps.v1.Deployment('rendered', nginxArgs(namespace, 'nginx:1.19', 1, 'rendered'), { provider: render });
  });
  assert.equal(run.error, '');
  assert.equal(got, 'existing');
  const traces = run.registrations.filter((r) => r.type === 'rollout-trace:pulumi:RolloutTrace').map((r) => r.name);
  assert.deepEqual(traces, ['rendered-rollout']);
  const imported = run.registrations.find((r) => r.name === 'adopted');
  assert.equal(imported?.importId, `${namespace}/adopted`);
  assert.equal((imported?.props as any)?.metadata?.annotations, undefined, 'no annotation added to the import');
  assert.deepEqual(linesOf(run, 'rendered-rollout'), [
    `not traced: the kubernetes provider renders YAML to ${out} (renderYamlToDirectory) and never touches the cluster: no rollout to trace`,
  ]);
  assert.equal(readdirSync(join(out, '1-manifests')).length, 1);
});
