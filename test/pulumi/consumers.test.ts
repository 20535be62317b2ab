/**
 * rollout-trace is ESM; Pulumi programs are usually CommonJS (the `kubernetes-typescript`
 * template: TS >= 5.8, `module: nodenext`, no `"type": "module"`). This builds the library like
 * `npm run build`, then:
 * - type-checks every example (examples/<name>/, their own tsconfig) against the built
 *   declarations (`rollout-trace/pulumi` resolved to this repo through tsconfig `paths`);
 * - compiles a CommonJS consumer with tsc in three setups (module nodenext; commonjs with Node-10
 *   resolution; node16) and runs it with Node 22 (require(esm)).
 */

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const tsc = join(repo, 'node_modules/typescript/bin/tsc');

async function typecheck(project: string): Promise<void> {
  try {
    await run(process.execPath, [tsc, '-p', project], { cwd: repo });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    assert.fail(`tsc -p ${project} failed:\n${e.stdout}${e.stderr}`);
  }
}

test('examples type-check and a CommonJS program uses the built library', async (t) => {
  // Inside the repo, so the built files resolve @pulumi/* and client-node from its node_modules.
  mkdirSync(join(repo, '.tmp'), { recursive: true });
  const work = mkdtempSync(join(repo, '.tmp', 'consumers-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const pkg = join(work, 'pkg');
  await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', join(pkg, 'dist')], { cwd: repo }).catch(() => {
    // Type errors elsewhere in the repo must not hide ours: tsc still emits, and the checks below
    // type-check everything the Pulumi entry point reaches.
  });
  cpSync(join(repo, 'package.json'), join(pkg, 'package.json'));
  cpSync(join(repo, 'cjs'), join(pkg, 'cjs'), { recursive: true });
  const entry = join(pkg, 'dist/pulumi/index.d.ts');

  await t.test('examples', async () => {
    const examples = readdirSync(join(repo, 'examples'));
    assert.ok(examples.length >= 3);
    // One tsc run for all of them (loading @pulumi/kubernetes' types is the slow part), which is
    // only sound because every example uses the same compiler options: check that first.
    const options = examples.map((name) => {
      const dir = join(repo, 'examples', name);
      for (const f of ['index.ts', 'Pulumi.yaml', 'package.json']) readFileSync(join(dir, f));
      return JSON.stringify(JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')).compilerOptions);
    });
    assert.equal(new Set(options).size, 1, 'every example has the same compilerOptions');
    const project = join(work, 'tsconfig.examples.json');
    writeFileSync(
      project,
      JSON.stringify({
        extends: join(repo, 'examples', examples[0]!, 'tsconfig.json'),
        compilerOptions: { noEmit: true, paths: { 'rollout-trace/pulumi': [entry] } },
        files: examples.map((name) => join(repo, 'examples', name, 'index.ts')),
      }),
    );
    await typecheck(project);
  });

  // CommonJS programs as users have them: today's template (nodenext), older ones with Node-10
  // resolution (ignores "exports": typesVersions), and node16 (the "require" types condition).
  const setups = [
    { module: 'nodenext', moduleResolution: 'nodenext' },
    { module: 'commonjs', moduleResolution: 'node' },
    { module: 'node16', moduleResolution: 'node16' },
  ];
  for (const setup of setups) {
    await t.test(`CommonJS consumer: module ${setup.module}, moduleResolution ${setup.moduleResolution}`, async () => {
      const app = join(work, `app-${setup.moduleResolution}`);
      mkdirSync(join(app, 'node_modules'), { recursive: true });
      symlinkSync(pkg, join(app, 'node_modules', 'rollout-trace'));
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cjs-consumer', main: 'bin/index.js' }));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { strict: true, outDir: 'bin', target: 'es2020', ...setup, skipLibCheck: true },
          files: ['index.ts'],
        }),
      );
      writeFileSync(
        join(app, 'index.ts'),
        [
          "import * as pulumi from '@pulumi/pulumi';",
          "import { gatedDeployment, traceDeployments, tracedDeployment, withSkipAwait, RolloutTrace, templateChanges } from 'rollout-trace/pulumi';",
          "const changes = templateChanges({ spec: { containers: [{ name: 'a', image: 'x:2' }] } }, { spec: { containers: [{ name: 'a', image: 'x:1' }] } });",
          'const fns = [gatedDeployment, traceDeployments, tracedDeployment, withSkipAwait].map((f) => typeof f);',
          'const component = RolloutTrace.prototype instanceof pulumi.ComponentResource;',
          "console.log(JSON.stringify({ changes: changes.length, fns, component, cjs: typeof module !== 'undefined' }));",
        ].join('\n'),
      );
      await typecheck(join(app, 'tsconfig.json'));
      const js = readFileSync(join(app, 'bin/index.js'), 'utf8');
      assert.match(js, /require\("rollout-trace\/pulumi"\)/, 'compiled to CommonJS require()');
      const { stdout } = await run(process.execPath, [join(app, 'bin/index.js')], { cwd: app });
      assert.deepEqual(JSON.parse(stdout.trim().split('\n').pop()!), {
        changes: 1,
        fns: ['function', 'function', 'function', 'function'],
        // One @pulumi/pulumi instance shared by the CommonJS program and the ESM library.
        component: true,
        cjs: true,
      });
    });
  }
});
