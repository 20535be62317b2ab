/**
 * Gate mode keeps every wait the program already has. Without rollout-trace the provider's await
 * holds a workload's step, and everything that depends on the workload waits for its rollout:
 * `dependsOn: [workload]`, `dependsOn: [component]` (the SDK waits for the component's custom
 * children, sdk runtime/dependsOn.ts), an output read from it (a property dependency), and code
 * run in an `apply` of one of its outputs. The gate's `waitFor` ends the step at the write, so
 * each of these must wait for the gate's verdict instead, and none of them may be written when
 * the gate fails, with the failure reported once.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dumpYaml } from '@kubernetes/client-node';
import { withNamespace } from '../helpers/cluster.js';
import { deploymentNotRolledOut, noJobSucceeded } from '../helpers/rolled-out.js';
import { jobOf } from '../helpers/workloads.js';
import { appLabels, nginxArgs } from './harness/fixtures.js';
import { linesOf, type RunResult, shown, startStack } from './harness/langhost.js';
import { argsOf, type K8s, type Lib } from './harness/workload-programs.js';

type Pulumi = typeof import('@pulumi/pulumi');

/** The dependents a program declares on `workload` (and on `component`, its parent), each in another form. */
function dependentsOf(k8s: K8s, pulumi: Pulumi, namespace: string, prefix: string, workload: any, component?: any): void {
  const cm = (name: string, data: Record<string, any>, opts: Record<string, unknown> = {}) =>
    new k8s.core.v1.ConfigMap(`${prefix}-${name}`, { metadata: { namespace }, data }, opts);
  cm('depends-on-it', { a: 'b' }, { dependsOn: [workload] });
  if (component) cm('depends-on-component', { a: 'b' }, { dependsOn: [component] });
  cm('reads-output', { name: workload.metadata.name });
  workload.metadata.name.apply((name: string) => cm('made-in-apply', { name }));
  pulumi.all([workload.id]).apply(() => cm('made-in-all', { a: 'b' }));
}

/** The permanent errors of a run, by row. */
function errorsOf(run: RunResult): string[] {
  return shown(run)
    .filter((l) => l.severity === 3 && !l.ephemeral)
    .map((l) => (l.urn.split('::').pop() ?? '').replace(/^.*\//, ''));
}

/** A one-template chart whose Deployment runs `image`. */
function chartDir(t: { after(fn: () => void): void }, image: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rt-keeps-waits-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: db\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'values.yaml'), '{}\n');
  const { spec } = nginxArgs('', image, 1, 'db', { app: 'db' });
  writeFileSync(
    join(dir, 'templates/db.yaml'),
    dumpYaml({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: '{{ .Release.Name }}-db' }, spec }),
  );
  return dir;
}

test('gate, a failing rollout: nothing that depends on the workload is written, in any form, and the failure is reported once', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-keeps-waits-fail');
  const dir = chartDir(t, 'nginx:1.99-does-not-exist');
  const stack = await startStack();
  t.after(() => stack.stop());
  const job = jobOf('migrate', { behaviour: { app: 'crash;exitCode=3;after=1;logs=relation "users" does not exist' }, backoffLimit: 0 });
  const run = await stack.run(async () => {
    const lib: Lib = await import('../../src/pulumi/index.js');
    const k8s: K8s = await import('@pulumi/kubernetes');
    const pulumi: Pulumi = await import('@pulumi/pulumi');
    lib.traceWorkloads({ mode: 'gate', timeoutSeconds: 90 });
    class App extends pulumi.ComponentResource {
      readonly web: InstanceType<K8s['apps']['v1']['Deployment']>;
      constructor(name: string) {
        super('test:index:App', name);
        this.web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'web'), { parent: this });
        this.registerOutputs({});
      }
    }
    const app = new App('app');
    dependentsOf(k8s, pulumi, namespace, 'web', app.web, app);
    const chart = new k8s.helm.v3.Chart('rel', { path: dir, namespace });
    new k8s.core.v1.ConfigMap('rel-depends-on-chart', { metadata: { namespace }, data: { a: 'b' } }, { dependsOn: chart.ready });
    const migrate = new k8s.batch.v1.Job('migrate', argsOf(namespace, job));
    dependentsOf(k8s, pulumi, namespace, 'migrate', migrate);
  });
  console.log(
    ['web-rollout', 'rel-db-rollout', 'migrate-job-rollout'].flatMap((row) => linesOf(run, row).map((l) => `${row}: ${l}`)).join('\n'),
  );
  assert.notEqual(run.error, '');
  // A helm.v3.Chart's children are named `<namespace>/<name>`.
  const registered = new Set(run.registrations.map((r) => r.name.replace(/^.*\//, '')));
  for (const name of ['web', 'rel-db', 'migrate']) assert.ok(registered.has(name), `${name} was written`);
  const written = [...registered].filter((n) => /depends-on|reads-output|made-in/.test(n));
  assert.deepEqual(written, [], 'no dependent of a failed gate is written');
  // Each failed gate once, on its own row; nothing reported against a dependent.
  assert.deepEqual(errorsOf(run).sort(), ['migrate-job-rollout', 'rel-db-rollout', 'web-rollout']);
});

test('gate, rollouts that succeed: each dependent is written only once its workload rolled out', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-keeps-waits-ok');
  const dir = chartDir(t, 'nginx:1.19');
  const job = jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=3;logs=migrated' } });
  const jobImage = job.spec?.template.spec?.containers[0]?.image ?? '';
  // What each dependent waits for, checked on the live cluster when the engine runs its step.
  const waitsFor: Record<string, () => Promise<string>> = {
    web: () => deploymentNotRolledOut(namespace, 'web'),
    rel: () => deploymentNotRolledOut(namespace, 'rel-db'),
    migrate: () => noJobSucceeded(namespace, jobImage),
  };
  const early: string[] = [];
  const stepped: string[] = [];
  const stack = await startStack({
    beforeStep: async (_type, name) => {
      if (!/depends-on|reads-output|made-in/.test(name)) return;
      stepped.push(name);
      const why = await waitsFor[name.split('-')[0]!]!();
      if (why) early.push(`${name}: ${why}`);
    },
  });
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib: Lib = await import('../../src/pulumi/index.js');
    const k8s: K8s = await import('@pulumi/kubernetes');
    const pulumi: Pulumi = await import('@pulumi/pulumi');
    lib.traceWorkloads({ mode: 'gate', timeoutSeconds: 90 });
    const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 2, 'web', appLabels, 'slow-start;seconds=3'));
    dependentsOf(k8s, pulumi, namespace, 'web', web);
    const chart = new k8s.helm.v3.Chart('rel', { path: dir, namespace });
    new k8s.core.v1.ConfigMap('rel-depends-on-chart', { metadata: { namespace }, data: { a: 'b' } }, { dependsOn: chart.ready });
    const migrate = new k8s.batch.v1.Job('migrate', argsOf(namespace, job));
    dependentsOf(k8s, pulumi, namespace, 'migrate', migrate);
  });
  assert.equal(run.error, '');
  assert.equal(stepped.length, 9, stepped.join(', '));
  assert.deepEqual(early, [], 'a dependent was written before its workload rolled out');
  for (const row of ['web-rollout', 'rel-db-rollout', 'migrate-job-rollout'])
    assert.ok(
      run.logs.some((l) => l.urn.endsWith(`::${row}`) || l.urn.endsWith(`/${row}`)),
      `${row} traced`,
    );
});
