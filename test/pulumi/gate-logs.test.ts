/**
 * Gate mode with the live log stream (`logs: { follow: true }`): the crashing container's output
 * reaches the `pulumi up` row as it happens, redacted, and an application line that repeats is
 * shown each time it is printed (a retry loop is news), unlike repeated state lines.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';

test('gate: streamed log lines reach the trace row, repeats and redaction included', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-gate-logs');
  const args = nginxArgs(namespace, 'nginx:1.19', 1, 'api');
  const template = args.spec.template as { metadata: Record<string, unknown>; spec: { containers: Record<string, unknown>[] } };
  template.metadata.annotations = {
    'sim.rollout-trace.dev/nginx': 'crash;not-ready;after=3;logs=retrying db|retrying db|retrying db|DB_PASSWORD=hunter2',
  };
  template.spec.containers[0]!.readinessProbe = { httpGet: { path: '/ready', port: 80 }, periodSeconds: 1 };
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      lib.gatedDeployment('api', args, {}, { logs: { follow: true } });
    },
  });
  const row = visible(run).filter((l) => l.urn.endsWith('::api-rollout'));
  const logLines = row.filter((l) => / \| /.test(l.message)).map((l) => l.message);
  t.diagnostic(`${logLines.length} log lines on the row`);
  const retries = logLines.filter((m) => /^log api-\S+\/nginx \| retrying db$/.test(m));
  assert.ok(retries.length >= 3, `every "retrying db" of an instance is shown:\n${logLines.join('\n')}`);
  assert.ok(
    logLines.some((m) => /\| DB_PASSWORD=\*\*\*$/.test(m)),
    logLines.join('\n'),
  );
  // (The engine's own debug records echo the program's inputs, annotation included; ours must not.)
  assert.doesNotMatch(JSON.stringify(row.map((l) => l.message)), /hunter2/, 'never the secret, in live lines or the summary');
  assert.doesNotMatch(JSON.stringify(run.errors), /hunter2/);
  const failure = row.find((l) => l.severity === 3);
  assert.ok(failure, 'the gate failed the resource');
  assert.match(failure.message, /crash|exited with code/i);
  assert.ok(
    row.filter((l) => / \| /.test(l.message)).every((l) => l.at <= failure.at),
    'log lines came before the verdict',
  );
});
