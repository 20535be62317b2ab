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
import { nginxArgs } from './harness/fixtures.js';
import { startStack } from './harness/langhost.js';
import { replayedVerdicts } from './harness/replayed.js';

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
  const { code, stderr, verdicts } = await replayedVerdicts(file);
  assert.equal(code, 1, stderr);
  assert.deepEqual(verdicts, ['api failed', 'web succeeded']);
});
