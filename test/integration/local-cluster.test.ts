import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { ApiextensionsV1Api, CoreV1Api, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node';
import { startLocalCluster } from '../../local-cluster/index.js';
import { isAlive } from '../../local-cluster/processes.js';

const run = promisify(execFile);

test('a warm start is ready quickly, serves the API, runs the simulated controllers, and stop leaves no process or temp dir', async (t) => {
  const t0 = Date.now();
  const cluster = await startLocalCluster({ kubelet: false, log: () => undefined });
  const seconds = (Date.now() - t0) / 1000;
  t.diagnostic(`warm start without kubelet: ${seconds.toFixed(1)} s`);
  try {
    // Idle it takes ~7 s; here two other test files load both cores. A build would take minutes.
    assert.ok(seconds < 60, `warm start took ${seconds}s`);
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    const namespaces = await core.listNamespace();
    assert.deepEqual(namespaces.items.map((n) => n.metadata?.name).sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    // The token controller runs, so ReplicaSets will not fail with "No API token found".
    const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: 'default' });
    assert.ok((sa.secrets ?? []).length > 0);
    // The simulated controllers run with it: their IngressClass and CRDs are there once it is ready.
    assert.ok(cluster.pids.controllers, `components: ${Object.keys(cluster.pids).join(', ')}`);
    const ingressClass = await cluster.kubeConfig.makeApiClient(NetworkingV1Api).readIngressClass({ name: 'nginx' });
    assert.equal(ingressClass.spec?.controller, 'k8s.io/ingress-nginx');
    const crds = await cluster.kubeConfig.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
    assert.deepEqual(crds.items.map((c) => c.metadata?.name).sort(), [
      'certificaterequests.certs.sim.rollout-trace.dev',
      'certificates.certs.sim.rollout-trace.dev',
    ]);
  } finally {
    await cluster.stop();
  }
  for (const [name, pid] of Object.entries(cluster.pids)) assert.equal(isAlive(pid), false, `${name} still alive`);
  assert.equal(existsSync(cluster.dir), false);
});

test('cluster:up leaves a background cluster and prints export KUBECONFIG last; cluster:down stops it', async () => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'rt-up-')), 'cluster');
  const cli = path.resolve('local-cluster/cli.ts');
  const up = await run(process.execPath, ['--import', 'tsx', cli, 'up', '--dir', dir, '--no-kubelet']);
  const last = up.stdout.trim().split('\n').at(-1)!;
  assert.match(last, /^export KUBECONFIG=\//);
  const kubeconfig = last.slice('export KUBECONFIG='.length);
  const state = JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8')) as { pids: Record<string, number> };
  try {
    for (const pid of Object.values(state.pids)) assert.ok(isAlive(pid), 'component should outlive cluster:up');
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    const ns = await kc.makeApiClient(CoreV1Api).readNamespace({ name: 'default' });
    assert.equal(ns.status?.phase, 'Active');
  } finally {
    await run(process.execPath, ['--import', 'tsx', cli, 'down', '--dir', dir]);
  }
  for (const pid of Object.values(state.pids)) assert.equal(isAlive(pid), false);
  assert.equal(existsSync(dir), false);
});

test('cluster:up rejects a bad --nodes value with a one-paragraph error and exit code 2', async () => {
  const cli = path.resolve('local-cluster/cli.ts');
  const err = await run(process.execPath, ['--import', 'tsx', cli, 'up', '--nodes', 'many']).catch((e) => e);
  assert.equal(err.code, 2);
  assert.match(err.stderr, /--nodes "many" is not valid: give a whole number from 1 to 50/);
  assert.doesNotMatch(err.stderr, /at .*\.ts:\d+/);
});
