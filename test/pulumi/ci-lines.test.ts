/**
 * Non-interactive `pulumi up` (CI) prints every log call as its own row. With `CI` set, a trace
 * prints at most about 30 live lines per Deployment whatever its size (no per-pod lines, the
 * ReplicaSet by quarters, each distinct problem once); `compactLines: false` keeps every line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPACT_LINE_LIMIT } from '../../src/pulumi/compact-lines.js';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';

test('CI: at most about 30 live lines per Deployment, whatever its size', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-ci-lines');
  const stack = await startStack();
  t.after(() => stack.stop());
  process.env.CI = 'true';
  t.after(() => delete process.env.CI);
  const run = await stack.run(async () => {
    const lib = await import('../../src/pulumi/index.js');
    lib.gatedDeployment('compact', nginxArgs(namespace, 'nginx:1.19', 24, 'compact', { app: 'compact' }));
    lib.gatedDeployment('full', nginxArgs(namespace, 'nginx:1.19', 24, 'full', { app: 'full' }), {}, { compactLines: false });
  });
  assert.equal(run.error, '');
  const compact = linesOf(run, 'compact-rollout');
  const full = linesOf(run, 'full-rollout');
  console.log(`compact: ${compact.length} lines, full: ${full.length} lines`);
  console.log(compact.join('\n'));
  assert.ok(compact.length <= COMPACT_LINE_LIMIT + 2, `${compact.length} lines`);
  assert.ok(full.length > COMPACT_LINE_LIMIT + 2, `the full output is longer: ${full.length} lines`);
  assert.ok(!compact.some((l) => l.startsWith('pod ')));
  assert.match(compact.at(-1) ?? '', /^revision 1 rolled out: 24\/24 pods ready/);
});
