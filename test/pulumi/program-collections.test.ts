/**
 * Deployments from the Node SDK's program-side collections: `yaml.ConfigFile` (v1) decodes its
 * YAML through the `kubernetes:yaml:decode` invoke and `helm.v3.Chart` renders through the
 * `kubernetes:helm:template` invoke (k8s-sdk: yaml/yaml.js, helm/v3/helm.js); both then construct
 * the children in the program, so the SDK-side stack transformation sees them. In both modes each
 * child Deployment gets its own trace row with live lines and a verdict; observe mode leaves the
 * provider's built-in await in charge, gate mode replaces it with the gate's `waitFor`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dumpYaml } from '@kubernetes/client-node';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

/** A Deployment manifest; without a namespace when `namespace` is undefined. */
function manifest(namespace: string | undefined, name: string): string {
  const { metadata, spec } = nginxArgs(namespace ?? '', 'nginx:1.19', 1, name);
  return dumpYaml({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: namespace ? metadata : { name }, spec });
}

/** A chart and a YAML file, each holding one Deployment. */
function sources(t: { after(fn: () => void): void }, namespace: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rt-collections-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'chart/templates'), { recursive: true });
  writeFileSync(join(dir, 'chart/Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'chart/values.yaml'), 'image: nginx:1.18\n');
  // No namespace in the template: the release's namespace is filled in, as the provider does.
  const template = manifest(undefined, '{{ .Release.Name }}-web').replace('nginx:1.19', '{{ .Values.image }}');
  writeFileSync(join(dir, 'chart/templates/deployment.yaml'), template);
  writeFileSync(join(dir, 'file.yaml'), manifest(namespace, 'from-file'));
  return dir;
}

for (const mode of ['observe', 'gate'] as const) {
  test(`${mode}: yaml.ConfigFile (v1) and helm.v3.Chart children traced in the program`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-collections-${mode}`);
    const dir = sources(t, namespace);
    const stack = await startStack();
    t.after(() => stack.stop());
    const run = await stack.run(async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode });
      new k8s.yaml.ConfigFile('file', { file: join(dir, 'file.yaml') });
      new k8s.helm.v3.Chart('rel', { path: join(dir, 'chart'), namespace, values: { image: 'nginx:1.19' } });
    });
    assert.equal(run.error, '');
    assert.deepEqual([...new Set(stack.monitor.invokes)].sort(), ['kubernetes:helm:template', 'kubernetes:yaml:decode']);
    assert.deepEqual(
      run.registrations.filter((r) => r.remote),
      [],
      'program-side collections: no remote component',
    );

    for (const child of ['from-file', 'rel-web']) {
      const deployment = run.registrations.find((r) => r.type === 'kubernetes:apps/v1:Deployment' && r.name === `${namespace}/${child}`);
      assert.ok(deployment, `${child} registered by the program: ${run.registrations.map((r) => r.name).join(', ')}`);
      const props = deployment.props as any;
      assert.equal(props.spec.template.spec.containers[0].image, 'nginx:1.19', `${child}: values applied`);
      const gateAnnotation = props.metadata?.annotations?.['pulumi.com/waitFor'];
      assert.equal(gateAnnotation, mode === 'gate' ? 'jsonpath={.metadata.name}' : undefined, `${child}: the gate's annotation`);
      const awaited = run.ops.find((o) => o.op === 'await' && o.name === child);
      assert.equal(awaited?.how, mode === 'gate' ? 'waitFor' : 'deployment', `${child}: the provider's await`);

      const traceName = `${namespace}/${child}-rollout`;
      const lines = linesOf(run, traceName);
      console.log(`${mode} ${child}:\n  ${lines.join('\n  ')}`);
      assert.equal(lines[0], `new Deployment ${namespace}/${child}: tracing its first rollout`);
      assert.ok(
        lines.some((l) => /^(ReplicaSet|pod) /.test(l)),
        `${child}: live ReplicaSet/pod lines`,
      );
      assert.match(lines.at(-1) ?? '', /^revision 1 rolled out: 1\/1 pods ready/, `${child}: the verdict is the last line`);
      assert.equal(stack.monitor.outputsOf(traceName)?.value.outcome, 'succeeded', `${child}: the trace's outcome`);
    }
  });
}
