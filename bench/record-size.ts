/**
 * `npm run bench:record-size [-- --pods N]`: how large a recording gets. Starts the embedded control
 * plane, creates a Deployment of N pods (default 2,000, the bench's big2000), traces its first
 * rollout with `--record` (the compiled CLI, as a user runs it), and prints the recording's size,
 * compressed and not, with its number of lines. Not part of `npm run bench`: recording would add
 * its own cost to that run's CPU figures.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { startLocalCluster } from '../local-cluster/index.js';
import { deploymentOf } from '../test/helpers/deployment-shape.js';

const i = process.argv.indexOf('--pods');
const pods = i >= 0 ? Number(process.argv[i + 1]) : 2000;
const BIN = fileURLToPath(new URL('../bin/rollout-trace.js', import.meta.url));

async function main(): Promise<void> {
  const cluster = await startLocalCluster({ nodes: Math.max(3, Math.ceil((pods * 1.25) / 100) + 1), log: () => undefined });
  const dir = mkdtempSync(join(tmpdir(), 'rt-record-size-'));
  try {
    const kc = cluster.kubeConfig;
    const namespace = 'record-size';
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
    await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace, body: deploymentOf('big', { replicas: pods }) });
    const file = join(dir, 'big.rtrec.gz');
    const started = performance.now();
    execFileSync(
      process.execPath,
      [BIN, 'deploy', 'big', '-n', namespace, '--kubeconfig', cluster.kubeconfigPath, '-o', 'json', '--timeout', '30m', '--record', file],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    const text = gunzipSync(readFileSync(file));
    const mb = (n: number) => (n / 2 ** 20).toFixed(2);
    console.log(
      `${pods} pods rolled out in ${((performance.now() - started) / 1000).toFixed(0)} s: recording ${mb(statSync(file).size)} MB compressed, ${mb(text.length)} MB as JSON lines, ${text.toString().split('\n').length - 1} lines`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster.stop();
  }
}

await main();
