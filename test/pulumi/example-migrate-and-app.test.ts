/**
 * examples/migrate-and-app, run on the harness as `pulumi up` runs it: a database chart, a
 * migration Job with `dependsOn: [db]`, the app with `dependsOn: [migrate]`, in gate mode. The
 * program is the example's own file, its imports pointed at this checkout; the test only adds
 * what the simulated kubelet needs to know (how the migration's container ends) through a stack
 * transformation, as a cluster's image would decide it.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { withNamespace } from '../helpers/cluster.js';
import { deploymentNotRolledOut, noJobSucceeded } from '../helpers/rolled-out.js';
import { linesOf, type RunResult, shown, startStack } from './harness/langhost.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
const example = join(repo, 'examples/migrate-and-app');
const require = createRequire(import.meta.url);

/** A copy of the example whose imports name this checkout's files; its folder becomes the working directory. */
function exampleCopy(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'rt-example-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const url = (p: string) => JSON.stringify(pathToFileURL(p).href);
  const source = readFileSync(join(example, 'index.ts'), 'utf8')
    .replace("'rollout-trace/pulumi'", url(join(repo, 'src/pulumi/index.ts')))
    .replace("'@pulumi/kubernetes'", url(require.resolve('@pulumi/kubernetes')))
    .replace("'@pulumi/pulumi'", url(require.resolve('@pulumi/pulumi')));
  assert.doesNotMatch(source, /from '(rollout-trace|@pulumi)/, 'every import points at this checkout');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'index.ts'), source);
  cpSync(join(example, 'charts'), join(dir, 'charts'), { recursive: true });
  return dir;
}

/** The simulated kubelet's behaviour for the migration's container, added to the Job's pod template. */
function migrationBehaviour(behaviour: string) {
  return async (pulumi: typeof import('@pulumi/pulumi')) => {
    pulumi.runtime.registerStackTransformation((a) => {
      if (a.type !== 'kubernetes:batch/v1:Job') return undefined;
      const props = a.props as any;
      const template = { ...props.spec.template, metadata: { annotations: { 'sim.rollout-trace.dev/migrate': behaviour } } };
      return { props: { ...props, spec: { ...props.spec, template } }, opts: a.opts };
    });
  };
}

/** The time of the first line on `row` matching `pattern`. */
function lineAt(run: RunResult, row: string, pattern: RegExp): number {
  const line = shown(run).find((l) => l.urn.endsWith(`::${row}`) && pattern.test(l.message));
  assert.ok(line, `${row}: no line matching ${pattern}\n${linesOf(run, row).join('\n')}`);
  return line.at;
}

test('examples/migrate-and-app: a failed migration stops the update before the app; a fixed one lets it roll out', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-example');
  const dir = exampleCopy(t);
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => process.chdir(cwd));
  // What the example's dependencies wait for, checked on the live cluster when the engine runs each step.
  let version = '';
  const early: string[] = [];
  const stack = await startStack({
    project: 'rollout-trace-migrate-and-app',
    beforeStep: async (type, name) => {
      let why = '';
      if (type === 'kubernetes:batch/v1:Job') why = await deploymentNotRolledOut(namespace, 'db-postgres');
      if (type === 'kubernetes:apps/v1:Deployment' && name === 'api')
        why = await noJobSucceeded(namespace, `registry.local/shop/api:${version}`);
      if (why) early.push(`${name} (${version}): ${why}`);
    },
  });
  t.after(() => stack.stop());
  const program = (behaviour: string, v: string) => async (pulumi: typeof import('@pulumi/pulumi')) => {
    version = v;
    await migrationBehaviour(behaviour)(pulumi);
    await import(`${pathToFileURL(join(dir, 'index.ts')).href}?v=${v}`);
  };
  const config = (version: string) => ({
    'rollout-trace-migrate-and-app:namespace': namespace,
    'rollout-trace-migrate-and-app:version': version,
  });

  const failed = await stack.run(
    program('crash;exitCode=2;after=1;logs=ERROR: column "email" already exists', '1.4.0'),
    {},
    config('1.4.0'),
  );
  const dbRow = `db:${namespace}/db-postgres-rollout`;
  console.log([dbRow, 'migrate-job-rollout'].flatMap((r) => linesOf(failed, r).map((l) => `${r}: ${l}`)).join('\n'));
  assert.notEqual(failed.error, '');
  const names = failed.registrations.map((r) => r.name);
  assert.ok(names.includes('migrate'), names.join(', '));
  assert.ok(!failed.registrations.some((r) => r.name === 'api' && r.type === 'kubernetes:apps/v1:Deployment'), 'the app is not written');
  const errors = shown(failed).filter((l) => l.severity === 3 && !l.ephemeral);
  assert.deepEqual(
    errors.map((e) => e.urn.split('::').pop()),
    ['migrate-job-rollout'],
  );
  assert.match(errors[0]!.message, /code 2/);
  assert.match(errors[0]!.message, /column "email" already exists/);
  lineAt(failed, dbRow, /rolled out/);

  const fixed = await stack.run(program('crash;exitCode=0;after=1;logs=migrated', '1.5.0'), {}, config('1.5.0'));
  console.log(['migrate-job-rollout', 'api-rollout'].flatMap((r) => linesOf(fixed, r).map((l) => `${r}: ${l}`)).join('\n'));
  assert.equal(fixed.error, '');
  const api = fixed.registrations.find((r) => r.name === 'api' && r.type === 'kubernetes:apps/v1:Deployment');
  assert.ok(api, 'the app is written');
  lineAt(fixed, 'api-rollout', /rolled out/);
  assert.deepEqual(early, [], 'the migration waited for the database and the app for the migration');
});
