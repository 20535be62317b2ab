/**
 * A credential that stops working during a long trace (an exec plugin's token revoked or expired
 * before its expirationTimestamp): the 401 on the next list or watch runs the plugin again and the
 * trace goes on to its verdict, without a gap; a plugin that then fails (a login expired) ends the
 * trace at once. And no credential ever reaches the output or the recording.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { clients, kubeConfig, withNamespace } from '../../helpers/cluster.js';
import { createDeployment } from '../../helpers/deployments.js';
import {
  credentialPlugin,
  serviceAccountToken,
  testCluster,
  testDir,
  waitTokenRefused,
  writeKubeconfig,
} from '../../helpers/kubeconfig-files.js';
import { READ, serviceAccountKubeConfig } from '../../helpers/rbac.js';
import { TcpProxy } from '../track/tcp-proxy.js';
import { runCli } from './run-cli.js';

const TRACER_RULES = [
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
  { apiGroups: [''], resources: ['pods', 'pods/log', 'events', 'namespaces'], verbs: READ },
];

/**
 * A kubeconfig whose user is a credential plugin giving `token` (valid for an hour by its
 * expirationTimestamp: only a 401 makes the CLI run it again), reaching the apiserver through a
 * TCP forwarder that can cut every connection (the watches are then opened again).
 */
async function pluginBehindProxy(t: TestContext, token: string) {
  const api = new URL(kubeConfig().getCurrentCluster()!.server);
  const cut = await TcpProxy.start({ host: api.hostname, port: Number(api.port) });
  t.after(() => cut.close());
  const dir = testDir(t);
  const plugin = credentialPlugin(dir, token);
  const file = writeKubeconfig(dir, {
    cluster: testCluster(kubeConfig(), { server: `https://127.0.0.1:${cut.port}` }),
    user: { exec: plugin.exec },
  });
  return { cut, dir, plugin, file };
}

describe('credentials during a trace', () => {
  test('a plugin token revoked mid-trace: the 401 on the new watches runs the plugin again; the trace succeeds', async (t) => {
    const ns = await withNamespace(t, 'exec-renewal');
    await serviceAccountKubeConfig(ns, 'tracer', TRACER_RULES);
    const [first, second] = [await serviceAccountToken(ns, 'tracer', 'first'), await serviceAccountToken(ns, 'tracer', 'second')];
    // The pod pulls for 30 s: the trace is still running when its credential is refused (up to 10 s
    // after the Secret is deleted: the apiserver caches authentications).
    await createDeployment(ns, 'web', { behaviour: { app: 'slow-start;seconds=30' } });
    const { cut, dir, plugin, file } = await pluginBehindProxy(t, first);
    const record = path.join(dir, 'trace.jsonl');
    let revoked: Promise<number> | undefined;
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', file, '-o', 'json', '--timeout', '90s', '--record', record], {
      onStdout: (out) => {
        // Once the pod was seen being created (the watches are open), revoke the first token.
        if (revoked || !/"type":"pod"/.test(out)) return;
        revoked = (async () => {
          writeFileSync(plugin.tokenFile, second);
          await clients().core.deleteNamespacedSecret({ name: 'first', namespace: ns });
          await waitTokenRefused(first, ns, kubeConfig());
          return cut.resetAll();
        })();
      },
    });
    assert.ok(revoked, `the trace never saw a pod:\n${run.stdout}\n${run.stderr}`);
    const reset = await revoked;
    t.diagnostic(`connections cut: ${reset}; plugin runs: ${plugin.runs()}; exit ${run.code} after ${run.ms} ms`);
    assert.equal(run.code, 0, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
    // The pod became ready only after the cut (it pulls for 30 s): its watch went on to see it.
    assert.match(run.stdout, /"outcome":"succeeded"/);
    assert.doesNotMatch(run.stdout + run.stderr, /401|Unauthorized|forbidden/i);
    assert.ok(reset > 0, 'no connection was open to cut');
    assert.equal(plugin.runs(), 2, 'the plugin ran once at the start and once after the 401');
    const recording = readFileSync(record, 'utf8');
    for (const token of [first, second]) {
      assert.ok(!run.stdout.includes(token) && !run.stderr.includes(token), 'a token in the output');
      assert.ok(!recording.includes(token), 'a token in the recording');
    }
  });

  test('a plugin that fails after a 401 mid-trace (a login expired): exit 3 at once, one paragraph naming the plugin', async (t) => {
    const ns = await withNamespace(t, 'exec-expired');
    await serviceAccountKubeConfig(ns, 'tracer', TRACER_RULES);
    const first = await serviceAccountToken(ns, 'tracer', 'first');
    await createDeployment(ns, 'web', { behaviour: { app: 'slow-start;seconds=60' } });
    const { cut, plugin, file } = await pluginBehindProxy(t, first);
    let revoked: Promise<number> | undefined;
    let cutAt = 0;
    const run = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', file, '--timeout', '90s'], {
      onStdout: (out) => {
        if (revoked || !/pod web-\S+ .*container-creating/.test(out)) return;
        revoked = (async () => {
          rmSync(plugin.tokenFile);
          await clients().core.deleteNamespacedSecret({ name: 'first', namespace: ns });
          await waitTokenRefused(first, ns, kubeConfig());
          cutAt = Date.now();
          return cut.resetAll();
        })();
      },
    });
    assert.ok(revoked, `the trace never saw a pod:\n${run.stdout}\n${run.stderr}`);
    assert.ok((await revoked) > 0, 'no connection was open to cut');
    const after = run.exitedAt - cutAt;
    t.diagnostic(`plugin runs: ${plugin.runs()}; exit ${run.code} ${after} ms after the cut`);
    assert.equal(run.code, 3, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
    assert.ok(after < 5000, `ended ${after} ms after the cut`);
    const paragraph = run.stderr.trim();
    assert.match(
      paragraph,
      /credential plugin "[^"]+credential-plugin\.sh" of user "[^"]+" \(users\[\]\.user\.exec\.command in the kubeconfig\) exited with code 1; its last error line: "error: the SSO session has expired; run the login command"/,
    );
    assert.equal(paragraph.split('\n').length, 1, `one paragraph:\n${run.stderr}`);
    assert.doesNotMatch(run.stdout + run.stderr, /SUCCEEDED|\n\s+at /);
    assert.ok(!run.stdout.includes(first) && !run.stderr.includes(first), 'a token in the output');
  });
});
