/**
 * A preview never fails because of rollout-trace, even in gate mode with an unreachable cluster:
 * one permanent warning on the trace row, no error, nothing written.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

const unreachable = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'gone', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } }],
  users: [{ name: 'u', user: { token: 'x' } }],
  contexts: [{ name: 'gone', context: { cluster: 'gone', user: 'u', namespace: 'shop' } }],
  'current-context': 'gone',
});

test('preview with an unreachable cluster: a warning, not a failure', async () => {
  const run = await runProgram({
    preview: true,
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      lib.gatedDeployment('web', nginxArgs('shop', 'nginx:1.19', 2, 'web'), {}, { kubeconfig: unreachable });
    },
  });
  const shown = visible(run);
  assert.deepEqual(run.errors, []);
  assert.equal(run.provider.writes, 0);
  assert.equal(shown.length, 1, shown.map((l) => l.message).join('\n'));
  assert.equal(shown[0]!.severity, 2);
  assert.equal(shown[0]!.ephemeral, false);
  assert.match(shown[0]!.urn, /::web-rollout$/);
  assert.match(shown[0]!.message, /^preview: rollout-trace could not read the cluster: /);
});
