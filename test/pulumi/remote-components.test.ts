/**
 * Deployments created by provider-side components (`remote: true`): `helm.v4.Chart`,
 * `yaml.v2.ConfigGroup`, `yaml.v2.ConfigFile` and `kustomize.v2.Directory`. The provider registers
 * their children itself, so the program's stack transformation never sees them; the engine's
 * `registerResourceTransform` callbacks do (engine double: monitor.ts + components.ts). Each child
 * Deployment gets its own trace row with live lines and a verdict. Nothing in the program can wait
 * for these traces, so they are observed even in gate mode: the provider's await keeps the
 * component's children, and `dependsOn: [chart]` waits for their rollouts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dumpYaml, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

function manifest(namespace: string, name: string): string {
  return dumpYaml({ apiVersion: 'apps/v1', kind: 'Deployment', ...nginxArgs(namespace, 'nginx:1.19', 1, name) });
}

/** A chart in `dir`/chart whose one template is a Deployment `<release>-web` with one replica. */
function writeChart(dir: string, namespace: string): string {
  mkdirSync(join(dir, 'chart/templates'), { recursive: true });
  writeFileSync(join(dir, 'chart/Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'chart/values.yaml'), 'image: nginx:1.19\n');
  writeFileSync(
    join(dir, 'chart/templates/deployment.yaml'),
    manifest(namespace, '{{ .Release.Name }}-web').replace('nginx:1.19', '{{ .Values.image }}'),
  );
  return join(dir, 'chart');
}

test('helm.v4, yaml.v2 ConfigGroup/ConfigFile, kustomize.v2: children traced via engine transforms', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-remote');
  const dir = mkdtempSync(join(tmpdir(), 'rt-remote-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const chartPath = writeChart(dir, namespace);
  writeFileSync(join(dir, 'file.yaml'), manifest(namespace, 'from-file'));
  mkdirSync(join(dir, 'kustomize'));
  writeFileSync(join(dir, 'kustomize/kustomization.yaml'), 'resources:\n  - deployment.yaml\n');
  writeFileSync(join(dir, 'kustomize/deployment.yaml'), manifest(namespace, 'from-kustomize'));

  const stack = await startStack();
  t.after(() => stack.stop());
  const seen: { rollouts?: { name: string; outcome: string }[]; at?: number } = {};
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate' });
    const chart = new k8s.helm.v4.Chart('rel', { chart: chartPath, namespace });
    new k8s.core.v1.ConfigMap('after-chart', { metadata: { name: 'after-chart', namespace }, data: { ok: 'yes' } }, { dependsOn: [chart] });
    // The chart's traces, for dependents that wait for their verdicts.
    const rollouts = lib.rolloutsOf(chart);
    rollouts.rollouts.apply((r) => {
      seen.rollouts = r.map(({ name, outcome }) => ({ name, outcome }));
      seen.at = Date.now();
    });
    new k8s.core.v1.ConfigMap(
      'after-verdicts',
      { metadata: { name: 'after-verdicts', namespace }, data: { ok: 'yes' } },
      { dependsOn: rollouts.ready },
    );
    new k8s.yaml.v2.ConfigGroup('group', { yaml: manifest(namespace, 'from-group') });
    new k8s.yaml.v2.ConfigFile('file', { file: join(dir, 'file.yaml') });
    new k8s.kustomize.v2.Directory('kust', { directory: join(dir, 'kustomize') });
  });
  assert.equal(run.error, '');
  const remote = run.registrations.filter((r) => r.remote).map((r) => r.type);
  assert.deepEqual(remote.sort(), [
    'kubernetes:helm.sh/v4:Chart',
    'kubernetes:kustomize/v2:Directory',
    'kubernetes:yaml/v2:ConfigFile',
    'kubernetes:yaml/v2:ConfigGroup',
  ]);
  for (const child of ['rel-web', 'from-group', 'from-file', 'from-kustomize']) {
    const trace = run.registrations.find((r) => r.type === 'rollout-trace:pulumi:RolloutTrace' && r.name.endsWith(`/${child}-rollout`));
    assert.ok(trace, `a trace for ${child}: ${run.registrations.map((r) => r.name).join(', ')}`);
    const lines = linesOf(run, trace.name);
    assert.ok(
      lines.some((l) => /^revision 1 rolled out: 1\/1 pods ready/.test(l)),
      `${child}:\n${lines.join('\n')}`,
    );
    // Nobody can wait for these traces: they are observed, and the provider's own await stays.
    const deployment = run.registrations.find((r) => r.type === 'kubernetes:apps/v1:Deployment' && r.name.endsWith(`/${child}`));
    assert.equal((deployment?.props as any)?.metadata?.annotations?.['pulumi.com/waitFor'], undefined, child);
  }
  // So `dependsOn: [chart]` waits for the chart's rollout, as it does without rollout-trace.
  const awaited = run.ops.find((o) => o.op === 'await' && o.kind === 'Deployment' && o.name === 'rel-web');
  const dependent = run.ops.find((o) => o.op === 'create' && o.kind === 'ConfigMap' && o.name === 'after-chart');
  assert.equal(awaited?.how, 'deployment', "the provider's own Deployment await ran");
  assert.ok(awaited && dependent && dependent.at >= awaited.at, 'the dependent was created after the rollout was awaited');
  // rolloutsOf(chart): the chart's one trace, with its verdict; its dependent waited for it.
  assert.deepEqual(seen.rollouts, [{ name: `rel:${namespace}/rel-web-rollout`, outcome: 'succeeded' }]);
  const afterVerdicts = run.ops.find((o) => o.op === 'create' && o.kind === 'ConfigMap' && o.name === 'after-verdicts');
  assert.ok(afterVerdicts && seen.at !== undefined && afterVerdicts.at >= seen.at, 'created once the verdicts were in');
});

test('helm.v4: a child scaled from outside while the chart is unchanged: nothing written, judged live, the run ends promptly', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-remote-scaled');
  const dir = mkdtempSync(join(tmpdir(), 'rt-remote-scaled-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const chartPath = writeChart(dir, namespace);
  const stack = await startStack();
  t.after(() => stack.stop());
  const program =
    (seen: { rollouts?: { name: string; outcome: string }[] }, image = 'nginx:1.19') =>
    async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode: 'observe', timeoutSeconds: 60 });
      const chart = new k8s.helm.v4.Chart('rel', { chart: chartPath, namespace, values: { image } });
      lib.rolloutsOf(chart).rollouts.apply((r) => (seen.rollouts = r.map(({ name, outcome }) => ({ name, outcome }))));
    };
  assert.equal((await stack.run(program({}))).error, '');
  // `kubectl scale`: the live replicas differ from the chart's, which the engine sees unchanged.
  await clients().apps.patchNamespacedDeploymentScale(
    { name: 'rel-web', namespace, body: { spec: { replicas: 2 } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  await waitUntil(
    async () => {
      const d = await clients().apps.readNamespacedDeployment({ name: 'rel-web', namespace });
      return (d.status?.readyReplicas ?? 0) >= 2 && (d.status?.observedGeneration ?? 0) >= 2;
    },
    { what: 'rel-web scaled to 2 ready replicas', timeoutMs: 60_000 },
  );

  const seen: { rollouts?: { name: string; outcome: string }[] } = {};
  const run = await stack.run(program(seen));
  const row = `rel:${namespace}/rel-web-rollout`;
  const lines = linesOf(run, row);
  console.log(lines.join('\n'));
  assert.equal(run.error, '');
  assert.deepEqual(
    run.ops.filter((o) => o.op === 'create' || o.op === 'update'),
    [],
    'a same step: nothing written',
  );
  // Judged on its live state once the chart's step ended, not held until the trace's 60 s timeout.
  assert.ok(run.finishedAt - run.startedAt < 25_000, `the run took ${run.finishedAt - run.startedAt} ms:\n${lines.join('\n')}`);
  assert.deepEqual(seen.rollouts, [{ name: row, outcome: 'unchanged' }]);
  assert.deepEqual(lines, [`no change to Deployment ${namespace}/rel-web: revision 1, 2/2 ready`]);

  // A write is still seen and followed: a new image rolls out.
  const updated: { rollouts?: { name: string; outcome: string }[] } = {};
  const run3 = await stack.run(program(updated, 'nginx:1.20'));
  const lines3 = linesOf(run3, row);
  console.log(lines3.join('\n'));
  assert.equal(run3.error, '');
  assert.deepEqual(updated.rollouts, [{ name: row, outcome: 'succeeded' }]);
  assert.match(lines3[0] ?? '', /^pod template changed \(.*nginx:1\.20.*\): tracing the rollout from revision 1$/);
  assert.ok(
    lines3.some((l) => /^revision 2 rolled out: 1\/1 pods ready/.test(l)),
    lines3.join('\n'),
  );
});
