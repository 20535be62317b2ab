/**
 * The Pulumi `record` option: every trace of a `pulumi up` recorded into one file, replayed by
 * `rollout-trace replay` with no cluster to the verdicts the gate gave (a rolled-out Deployment and
 * a broken one, whose failure stopped the update).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { runCliInProcess } from '../integration/cli/run-cli.js';
import { nginxArgs } from './harness/fixtures.js';
import { startStack } from './harness/langhost.js';

test('gate: record writes every trace of the run into one file, and the replay gives their verdicts', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-record');
  const dir = mkdtempSync(join(tmpdir(), 'rt-pulumi-record-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'up.rtrec.gz');
  const stack = await startStack();
  t.after(() => stack.stop());
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceDeployments({ mode: 'gate', timeoutSeconds: 60, record: file });
    new k8s.apps.v1.Deployment('web', nginxArgs(namespace, 'nginx:1.19', 1, 'web', { app: 'web' }));
    new k8s.apps.v1.Deployment('api', nginxArgs(namespace, 'nginx:1.99-does-not-exist', 1, 'api', { app: 'api' }));
  });
  assert.match(run.error, /./, 'the broken Deployment failed the update');
  await waitForFile(file);
  const replay = await runCliInProcess(['replay', file, '-o', 'json']);
  assert.equal(replay.code, 1, replay.stderr);
  const verdicts = replay.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'verdict')
    .map((e) => `${e.verdict.workload.name} ${e.verdict.outcome}`)
    .sort();
  assert.deepEqual(verdicts, ['api failed', 'web succeeded']);
});

/** Waits (bounded) until every recording of the process is on disk. */
async function waitForFile(file: string): Promise<void> {
  const { recordingsFlushed } = await import('../../src/record/index.js');
  await Promise.race([
    recordingsFlushed(),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${file} not flushed within 10 s`)), 10_000)),
  ]);
}
