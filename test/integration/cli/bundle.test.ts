/**
 * The bundled CLI (`npm run build` → dist/cli/rollout-trace.mjs, what bin/rollout-trace.js runs
 * when it is fresh): built into a temporary root and run against the embedded control plane, so
 * a dependency that breaks once bundled (CommonJS requires, lazy chunks, log streaming) fails here.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { kubeconfigPath, withNamespace } from '../../helpers/cluster.js';
import { createDeployment } from '../../helpers/deployments.js';
import { runCli } from './run-cli.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
let root = '';
/** Runs the bundle instead of bin/rollout-trace.js. */
const bundled = (argv: string[]) => [argv[0]!, join(root, 'dist/cli/rollout-trace.mjs'), ...argv.slice(2)];

/** A preload that says on stderr, at exit, whether node:http2 was loaded (undici's client-h2 requires it when evaluated). */
const REPORT_HTTP2 =
  'data:text/javascript,process.on("exit",()=>{if(process.moduleLoadList.includes("NativeModule http2"))process.stderr.write("node:http2 was loaded\\n")})';

/** A preload that writes on stderr, at exit, `builtins: ` and the public Node modules loaded after it. */
const REPORT_BUILTINS =
  'data:text/javascript,const b=new Set(process.moduleLoadList);process.on("exit",()=>process.stderr.write("builtins: "+process.moduleLoadList.filter(m=>!b.has(m)&&/^NativeModule (?!internal\\/)/.test(m)).map(m=>m.slice(13)).join(" ")+"\\n"))';

/** The public Node modules a run with {@link REPORT_BUILTINS} says it loaded. */
function builtinsOf(stderr: string): string[] {
  return (/^builtins: (.*)$/m.exec(stderr)?.[1] ?? '').split(' ').filter(Boolean);
}

/** The public Node modules bin/rollout-trace.js loads before it sets its V8 flag (its TRACE_BUILTINS, with what they load). */
function builtinsLoadedByBin(): Set<string> {
  const list = /const TRACE_BUILTINS = (\[[^\]]*\]);/.exec(readFileSync(join(repo, 'bin/rollout-trace.js'), 'utf8'))?.[1];
  assert.ok(list, 'bin/rollout-trace.js names its TRACE_BUILTINS');
  const names = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
  const script =
    names.map((n) => `require('node:${n}');`).join('') +
    'process.stderr.write("builtins: "+process.moduleLoadList.filter(m=>/^NativeModule (?!internal\\/)/.test(m)).map(m=>m.slice(13)).join(" "))';
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  return new Set(builtinsOf(run.stderr));
}

describe('bundled CLI', () => {
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'rt-bundle-'));
    copyFileSync(join(repo, 'package.json'), join(root, 'package.json'));
    const built = spawnSync(process.execPath, [join(repo, 'scripts/bundle-cli.mjs'), root], { encoding: 'utf8' });
    assert.equal(built.status, 0, built.stderr);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('--version reads the package version beside the bundle', async () => {
    const run = await runCli(['--version'], { wrap: bundled });
    const { version } = (await import(join(repo, 'package.json'), { with: { type: 'json' } })).default as { version: string };
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), `rollout-trace ${version}`);
  });

  test("leaves out client-node's generated API (models, ObjectSerializer): the CLI reads plain JSON", () => {
    const code = readdirSync(join(root, 'dist/cli'))
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => readFileSync(join(root, 'dist/cli', f), 'utf8'))
      .join('\n');
    assert.match(code, /loadFromString/, 'KubeConfig is bundled');
    for (const name of ['V1PodSpec', 'V1JSONSchemaProps', 'ObjectSerializer']) {
      assert.doesNotMatch(code, new RegExp(`\\b${name}\\b`), `${name} is bundled`);
    }
  });

  test('a healthy rollout succeeds (JSON lines, exit 0) without evaluating undici', async (t) => {
    const ns = await withNamespace(t, 'bundle-ok');
    await createDeployment(ns, 'web', { replicas: 2 });
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'json'], {
      wrap: (argv) => [argv[0]!, '--import', REPORT_HTTP2, '--import', REPORT_BUILTINS, ...bundled(argv).slice(1)],
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // Requests go through node:https; undici (client-node's) stays unevaluated: it loads node:http2.
    assert.doesNotMatch(run.stderr, /node:http2 was loaded/);
    // Every Node module the trace loads is loaded by bin/rollout-trace.js before its V8 flag, so
    // none is compiled again without its code cache.
    const loaded = builtinsOf(run.stderr);
    assert.ok(loaded.includes('https'), `the report lists what the trace loaded: ${run.stderr}`);
    const first = builtinsLoadedByBin();
    assert.deepEqual(
      loaded.filter((m) => !first.has(m)),
      [],
      'add these to TRACE_BUILTINS in bin/rollout-trace.js',
    );
    const verdict = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; verdict?: { outcome: string } })
      .find((l) => l.type === 'verdict');
    assert.equal(verdict?.verdict?.outcome, 'succeeded', run.stdout);
  });

  test('a crash loop fails with the crashed container, its log tail and followed logs (plain, exit 1)', async (t) => {
    const ns = await withNamespace(t, 'bundle-crash');
    // Never Ready (not-ready acts through a readiness probe): a pod Ready for its first second
    // could complete the rollout before it crashes, and success would then be right.
    await createDeployment(ns, 'api', {
      behaviour: { app: 'crash;not-ready;exitCode=3;after=1;logs=starting|ERROR db unreachable' },
      container: { readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 1 } },
    });
    const args = ['deploy', 'api', '-n', ns, '--kubeconfig', kubeconfigPath(), '-o', 'plain', '--follow-logs'];
    const run = await runCli(args, { wrap: bundled });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /FAILED - pod api-[a-z0-9]+-[a-z0-9]+ container "app": container exited with code 3/);
    assert.match(run.stdout, /ERROR db unreachable/);
    assert.equal(run.stderr, '');
  });
});
