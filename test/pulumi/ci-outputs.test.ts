/**
 * What a `pulumi up` leaves for CI, in both modes: the failing trace names the program line that
 * declared the workload (the SDK's source position, found again from the stack), and on GitHub
 * Actions annotates that line (`::error file=...,line=...`) and appends each trace's summary to the
 * job summary; the `junit`, `report` and `record` options write the run's traces (the recording
 * replays to the same verdicts); a success carries its timings as an output.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { shown, startStack } from './harness/langhost.js';
import { replayedVerdicts } from './harness/replayed.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The line of this file that declares the broken Deployment. */
const BROKEN_LINE =
  readFileSync(THIS_FILE, 'utf8')
    .split('\n')
    .findIndex((l) => l.trimStart().startsWith("new k8s.apps.v1.Deployment('api'")) + 1;

for (const mode of ['gate', 'observe'] as const) {
  test(`${mode}: the failure names its declaration; GitHub annotation and job summary; junit and report files`, async (t) => {
    const namespace = await withNamespace(t, `pulumi-ci-${mode}`);
    const dir = mkdtempSync(join(tmpdir(), 'rt-pulumi-ci-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const files = {
      junit: join(dir, 'junit.xml'),
      report: join(dir, 'report.html'),
      summary: join(dir, 'summary.md'),
      record: join(dir, 'up.rtrec.gz'),
    };
    const saved = { ...process.env };
    Object.assign(process.env, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: files.summary, GITHUB_WORKSPACE: REPO });
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stdout.write;
    t.after(() => {
      process.stdout.write = write;
      for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'GITHUB_WORKSPACE']) if (saved[k] === undefined) delete process.env[k];
    });
    const stack = await startStack({ defaultAwaitSeconds: 15 });
    t.after(() => stack.stop());
    const seen: { timings?: unknown } = {};
    const run = await stack.run(async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments({ mode, timeoutSeconds: 60, junit: files.junit, report: files.report, record: files.record });
      const web = new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 1, 'web', { app: 'web' }));
      lib.rolloutOf(web)!.timings.apply((x) => (seen.timings = x));
      new k8s.apps.v1.Deployment('api', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'api', { app: 'api' }));
    });
    assert.match(run.error, /./, 'the broken Deployment failed the update');
    const where = `${relative(REPO, THIS_FILE)}:${BROKEN_LINE}`;
    const failures = shown(run).filter((l) => l.urn.endsWith('::api-rollout') && !l.ephemeral && /FAILED/.test(l.message));
    assert.ok(
      failures.some((l) => l.message.endsWith(`\ndeclared at ${where}`)),
      failures.map((l) => l.message).join('\n---\n'),
    );
    const annotation = written
      .join('')
      .split('\n')
      .find((l) => l.startsWith('::error '));
    assert.match(
      annotation ?? '',
      new RegExp(
        `^::error file=${relative(REPO, THIS_FILE).replace(/[.]/g, '\\.')},line=${BROKEN_LINE},col=\\d+,title=Deployment ${namespace}/api::pod api-`,
      ),
    );
    const summary = readFileSync(files.summary, 'utf8');
    assert.match(summary, /\| Deployment \S+\/api \| ❌ FAILED \|/);
    assert.match(summary, /\| Deployment \S+\/web \| ✅ SUCCEEDED \|/);
    const junit = readFileSync(files.junit, 'utf8');
    assert.match(junit, /tests="2" failures="1"/);
    assert.match(junit, /name="api"[^>]*>\n {6}<failure [^>]*type="image-pull-not-found"/);
    const report = readFileSync(files.report, 'utf8');
    assert.equal((report.match(/<section class="workload"/g) ?? []).length, 2);
    assert.ok(seen.timings, 'the success carries its timings');
    // The recording of the run replays to the same verdicts, with no cluster.
    const { code, stderr, verdicts } = await replayedVerdicts(files.record);
    assert.equal(code, 1, stderr);
    assert.deepEqual(verdicts, ['api failed', 'web succeeded']);
  });
}
