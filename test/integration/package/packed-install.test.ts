/**
 * The package as a user gets it: `npm pack` on a copy of the checkout (its `prepack` builds
 * dist/), then `npm ci --offline` of the tarball into a new project, from the npm cache that
 * this repository's own `npm ci` filled (no network). The project runs the command, imports both
 * entry points from ES modules and CommonJS, and type-checks a consumer with each tsconfig the
 * README names. Needs no cluster; about a minute on 2 cores (timings are printed).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { consumerLock } from './consumer-lock.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const REPO_PACKAGE = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
/** Node 22 first on the PATH: npm, npx and the package's `#!/usr/bin/env node` run on it. */
const ENV = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' };
const timings: Array<[step: string, ms: number]> = [];

/** Runs one step; a failure names the step, the command, its exit and its output. */
async function step(name: string, cmd: string, args: string[], cwd: string): Promise<string> {
  const started = Date.now();
  const result = await new Promise<{ code: number | string | null; stdout: string; stderr: string }>((resolve) =>
    execFile(cmd, args, { cwd, env: ENV, maxBuffer: 64 << 20, timeout: 300_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as NodeJS.ErrnoException).code ?? (err as { signal?: string }).signal ?? 1) : 0, stdout, stderr }),
    ),
  );
  timings.push([name, Date.now() - started]);
  if (result.code !== 0) {
    const tail = (s: string) => s.trim().split('\n').slice(-40).join('\n');
    assert.fail(
      `step "${name}" failed: \`${cmd} ${args.join(' ')}\` in ${cwd} ended with ${result.code}\n--- stdout\n${tail(result.stdout)}\n--- stderr\n${tail(result.stderr)}`,
    );
  }
  return result.stdout;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'rt-packed-'));
const checkout = path.join(tmp, 'checkout');
const project = path.join(tmp, 'project');
/** `npm pack --json`'s report of the tarball. */
let packed: { filename: string; integrity: string; size: number; unpackedSize: number; files: Array<{ path: string }> };

after(() => {
  rmSync(tmp, { recursive: true, force: true });
  const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(
    `[packed-install] timings: ${timings.map(([s, ms]) => `${s} ${(ms / 1000).toFixed(1)}s`).join(', ')}; total ${(total / 1000).toFixed(1)}s`,
  );
});

before(async () => {
  // A clean checkout: the files git knows (and new ones it does not ignore), no dist/, this node_modules.
  const listed = await step('list files', 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO);
  for (const file of listed.split('\0').filter((f) => f && existsSync(path.join(REPO, f)))) {
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    cpSync(path.join(REPO, file), path.join(checkout, file));
  }
  symlinkSync(path.join(REPO, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
  const out = await step('npm pack', 'npm', ['pack', '--json', '--pack-destination', tmp], checkout);
  packed = JSON.parse(out.slice(out.indexOf('[')))[0];
  console.log(
    `[packed-install] ${packed.filename}: ${(packed.size / 1000).toFixed(0)} kB packed, ${(packed.unpackedSize / 1000).toFixed(0)} kB unpacked, ${packed.files.length} files`,
  );

  const { manifest, lock } = consumerLock({
    repoLockPath: path.join(REPO, 'package-lock.json'),
    tarballSpec: `file:../${packed.filename}`,
    tarballIntegrity: packed.integrity,
    packed: REPO_PACKAGE,
    extra: Object.fromEntries(['@pulumi/pulumi', '@pulumi/kubernetes', '@types/node'].map((n) => [n, REPO_PACKAGE.devDependencies[n]])),
  });
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(lock, null, 2));
  // --ignore-scripts: @pulumi/kubernetes's install script downloads the provider plugin.
  await step('npm ci --offline', 'npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], project);
});

test('the tarball holds the build and the docs, and nothing else', () => {
  const files = packed.files.map((f) => f.path);
  for (const needed of ['package.json', 'README.md', 'bin/rollout-trace.js', 'cjs/pulumi.d.cts', 'dist/cli/rollout-trace.mjs']) {
    assert.ok(files.includes(needed), `the tarball has ${needed}`);
  }
  for (const entry of ['dist/index', 'dist/pulumi/index']) {
    assert.ok(files.includes(`${entry}.js`) && files.includes(`${entry}.d.ts`), `the tarball has ${entry}.js and .d.ts`);
  }
  const stray = files.filter(
    (f) =>
      !/^(package\.json|README\.md|LICENSE)$/.test(f) &&
      !/^dist\/.+\.(js|d\.ts)$/.test(f) &&
      !/^dist\/cli\/[\w.-]+\.(mjs|LEGAL\.txt)$/.test(f) &&
      !/^(bin\/rollout-trace\.js|cjs\/pulumi\.d\.cts)$/.test(f),
  );
  assert.deepEqual(stray, [], 'no tests, sources, source maps or other files in the tarball');
});

test('npx rollout-trace runs from the installed package', async () => {
  const version = await step('npx rollout-trace --version', 'npx', ['--offline', 'rollout-trace', '--version'], project);
  assert.equal(version.trim(), `rollout-trace ${REPO_PACKAGE.version}`);
  const help = await step('npx rollout-trace --help', 'npx', ['--offline', 'rollout-trace', '--help'], project);
  assert.match(help, /^Usage:\n\s+rollout-trace KIND NAME/m);
});

/** The value exports of both entry points, as a program of this kind sees them. */
const PRINT_EXPORTS = 'console.log(JSON.stringify({ root: Object.keys(root).sort(), pulumi: Object.keys(pulumi).sort() }));';

test('an ES module and a CommonJS file import rollout-trace and rollout-trace/pulumi', async () => {
  const root = await import('../../../src/index.js');
  const pulumi = await import('../../../src/pulumi/index.js');
  const expected = { root: Object.keys(root).sort(), pulumi: Object.keys(pulumi).sort() };
  writeFileSync(
    path.join(project, 'esm.mjs'),
    `import * as root from 'rollout-trace';\nimport * as pulumi from 'rollout-trace/pulumi';\n${PRINT_EXPORTS}\n`,
  );
  writeFileSync(
    path.join(project, 'cjs.cjs'),
    `const root = require('rollout-trace');\nconst pulumi = require('rollout-trace/pulumi');\n${PRINT_EXPORTS}\n`,
  );
  for (const file of ['esm.mjs', 'cjs.cjs']) {
    const out = await step(`node ${file}`, process.execPath, [file], project);
    assert.deepEqual(JSON.parse(out.trim().split('\n').at(-1)!), expected, `${file} sees the source's exports`);
  }
});

/** A consumer: uses both entry points' types; the @ts-expect-error fails if a type resolved to `any`. */
const CONSUMER = `import { type TrackOptions, trackRollout } from 'rollout-trace';
import { type TraceOptions, traceDeployments } from 'rollout-trace/pulumi';

const options: TraceOptions = { mode: 'gate' };
traceDeployments(options);
// @ts-expect-error not a mode: proves that the package's types were found
traceDeployments({ mode: 'nope' });
export const track = (o: TrackOptions) => trackRollout(o);
`;
/** The ES module consumer's imports, for a CommonJS program of the README that imports only `rollout-trace/pulumi`. */
const PULUMI_ONLY = CONSUMER.split('\n')
  .filter((l) => !/TrackOptions|trackRollout/.test(l))
  .join('\n');

/** Each tsconfig the README advises, with the kind of package it is in. */
const CONSUMERS = [
  { name: 'ES module, NodeNext', type: 'module', source: CONSUMER, options: { module: 'nodenext', moduleResolution: 'nodenext' } },
  {
    name: 'CommonJS, module commonjs + moduleResolution node + skipLibCheck',
    type: 'commonjs',
    source: CONSUMER,
    options: { module: 'commonjs', moduleResolution: 'node', skipLibCheck: true },
  },
  { name: 'CommonJS, NodeNext', type: 'commonjs', source: CONSUMER, options: { module: 'nodenext', moduleResolution: 'nodenext' } },
  {
    name: 'CommonJS, Node16, rollout-trace/pulumi',
    type: 'commonjs',
    source: PULUMI_ONLY,
    options: { module: 'node16', moduleResolution: 'node16', skipLibCheck: true },
  },
];

for (const consumer of CONSUMERS) {
  test(`a TypeScript consumer type-checks: ${consumer.name}`, async () => {
    const dir = path.join(project, consumer.name.replace(/\W+/g, '-'));
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: consumer.type }));
    writeFileSync(path.join(dir, 'index.ts'), consumer.source);
    const compilerOptions = { strict: true, noEmit: true, target: 'es2022', types: ['node'], ...consumer.options };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }, null, 2));
    // This repository's TypeScript; the types come from the project's node_modules.
    await step(`tsc (${consumer.name})`, process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], dir);
  });
}
