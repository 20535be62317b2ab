/**
 * What kubectl reaches, rollout-trace reaches: each way people point a kubeconfig at a cluster,
 * traced end to end by the real executable against the real apiserver (through a front in
 * test/helpers/api-fronts.ts where the path needs one), and each front proves the trace's traffic
 * went through it.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { makeCerts, startClientCertFront, startConnectProxy, startKubectlProxy } from '../../helpers/api-fronts.js';
import { kubeConfig, withNamespace } from '../../helpers/cluster.js';
import { createDeployment } from '../../helpers/deployments.js';
import { credentialPlugin, testCluster, testDir, writeKubeconfig } from '../../helpers/kubeconfig-files.js';
import { READ, serviceAccountKubeConfig } from '../../helpers/rbac.js';
import { type CliRun, runCli } from './run-cli.js';

/** What a trace reads, for a ServiceAccount that traces Deployments. */
const TRACER_RULES = [
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
  { apiGroups: [''], resources: ['pods', 'pods/log', 'events', 'namespaces'], verbs: READ },
];

/** A namespace with Deployment `web` (one pod), and a ServiceAccount token allowed to trace it. */
async function tracedNamespace(t: TestContext, prefix: string): Promise<{ ns: string; token: string }> {
  const ns = await withNamespace(t, prefix);
  const sa = await serviceAccountKubeConfig(ns, 'tracer', TRACER_RULES);
  await createDeployment(ns, 'web');
  return { ns, token: sa.getCurrentUser()!.token! };
}

function trace(ns: string, kubeconfig: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(['deploy', 'web', '-n', ns, '--kubeconfig', kubeconfig, '-o', 'json', '--timeout', '90s'], { env, timeoutMs: 120_000 });
}

function assertSucceeded(run: CliRun): void {
  assert.equal(run.code, 0, `exit ${run.code}\n${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /"outcome":"succeeded"/, run.stdout);
  assert.doesNotMatch(run.stderr, /waiting for the API server/, run.stderr);
}

describe('connection paths', () => {
  test('kubectl proxy: a plain-HTTP loopback server, the kubeconfig without a user that kubectl documents', async (t) => {
    const { ns } = await tracedNamespace(t, 'path-kubectl-proxy');
    const proxy = await startKubectlProxy(kubeConfig());
    t.after(() => proxy.close());
    const file = writeKubeconfig(testDir(t), { cluster: { server: proxy.url } });
    const run = await trace(ns, file);
    assertSucceeded(run);
    assert.ok(
      proxy.seen.some((r) => r.includes(`/namespaces/${ns}/deployments`)),
      `no Deployment request went through the proxy: ${proxy.seen.join(', ')}`,
    );
  });

  test('proxy-url in the cluster: every connection is a tunnel through the CONNECT proxy', async (t) => {
    const { ns, token } = await tracedNamespace(t, 'path-proxy-url');
    const api = new URL(kubeConfig().getCurrentCluster()!.server);
    // A host name no resolver knows: only the proxy can take the trace to the apiserver.
    const proxy = await startConnectProxy((host, port) =>
      host === 'kubernetes.default.svc' ? { host: api.hostname, port } : { host, port },
    );
    t.after(() => proxy.close());
    const server = `https://kubernetes.default.svc:${api.port}`;
    const file = writeKubeconfig(testDir(t), { cluster: testCluster(kubeConfig(), { server, 'proxy-url': proxy.url }), user: { token } });
    const run = await trace(ns, file);
    assertSucceeded(run);
    assert.ok(proxy.seen.length >= 3, `tunnels: ${proxy.seen.join(', ')}`);
    assert.ok(
      proxy.seen.every((s) => s === `kubernetes.default.svc:${api.port}`),
      proxy.seen.join(', '),
    );
  });

  test('HTTPS_PROXY through the CONNECT proxy, and NO_PROXY naming the host goes around it', async (t) => {
    const { ns, token } = await tracedNamespace(t, 'path-https-proxy');
    const api = new URL(kubeConfig().getCurrentCluster()!.server);
    const proxy = await startConnectProxy((_host, port) => ({ host: api.hostname, port }));
    t.after(() => proxy.close());
    // `kubernetes` is in the apiserver's certificate; it resolves only through the proxy's route.
    const file = writeKubeconfig(testDir(t), {
      cluster: testCluster(kubeConfig(), { server: `https://kubernetes:${api.port}` }),
      user: { token },
    });
    const run = await trace(ns, file, { HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1,.svc' });
    assertSucceeded(run);
    assert.ok(proxy.seen.length >= 3 && proxy.seen.every((s) => s === `kubernetes:${api.port}`), `tunnels: ${proxy.seen.join(', ')}`);
    const before = proxy.seen.length;
    const bypassed = await runCli(['deploy', 'web', '-n', ns, '--kubeconfig', file, '-o', 'json', '--timeout', '5s'], {
      env: { HTTPS_PROXY: proxy.url, NO_PROXY: 'kubernetes' },
    });
    assert.equal(proxy.seen.length, before, 'NO_PROXY=kubernetes still went through the proxy');
    assert.equal(bypassed.code, 3, bypassed.stderr);
    assert.match(bypassed.stderr, /host name "kubernetes" .* does not resolve/, bypassed.stderr);
  });

  test('client certificate and key files: the front that authenticates by certificate sees ours', async (t) => {
    const { ns } = await tracedNamespace(t, 'path-client-cert');
    const certs = makeCerts('rollout-trace-tester');
    const front = await startClientCertFront(kubeConfig(), certs);
    t.after(() => front.close());
    const dir = testDir(t);
    for (const [name, pem] of Object.entries({ 'ca.crt': certs.caCert, 'client.crt': certs.clientCert, 'client.key': certs.clientKey })) {
      writeFileSync(path.join(dir, name), pem, { mode: 0o600 });
    }
    // Relative paths are relative to the kubeconfig file, as in kubectl.
    const file = writeKubeconfig(dir, {
      cluster: { server: front.url, 'certificate-authority': 'ca.crt' },
      user: { 'client-certificate': 'client.crt', 'client-key': 'client.key' },
    });
    const run = await trace(ns, file);
    assertSucceeded(run);
    assert.ok(front.seen.length > 0 && front.seen.every((s) => s.startsWith('rollout-trace-tester ')), front.seen.join(', '));
  });

  test('tokenFile in the user (kubectl spelling), read relative to the kubeconfig, a trailing newline dropped', async (t) => {
    const { ns, token } = await tracedNamespace(t, 'path-token-file');
    const dir = testDir(t);
    writeFileSync(path.join(dir, 'token'), `${token}\n`, { mode: 0o600 });
    const file = writeKubeconfig(dir, { cluster: testCluster(kubeConfig()), user: { tokenFile: 'token' } });
    assertSucceeded(await trace(ns, file));
  });

  test('exec credential plugin: run once for the whole trace (its credential is cached until it expires)', async (t) => {
    const { ns, token } = await tracedNamespace(t, 'path-exec');
    const dir = testDir(t);
    const plugin = credentialPlugin(dir, token);
    const file = writeKubeconfig(dir, { cluster: testCluster(kubeConfig()), user: { exec: plugin.exec } });
    assertSucceeded(await trace(ns, file));
    assert.equal(plugin.runs(), 1);
  });
});
