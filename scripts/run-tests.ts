/**
 * `npm test`: starts one embedded control plane (with the simulated kubelet) for the whole run,
 * runs every test file with node:test against it (each test in its own namespace), stops the
 * cluster and checks that no process is left behind. Extra arguments are passed to node --test
 * (e.g. `npm test -- test/unit/**\/*.test.ts`).
 */
import { spawn } from 'node:child_process';
import { startLocalCluster } from '../src/local-cluster/index.js';
import { isAlive } from '../src/local-cluster/processes.js';

const DEFAULT_GLOBS = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/pulumi/**/*.test.ts'];

async function main(): Promise<number> {
  const files = process.argv.slice(2);
  const t0 = Date.now();
  const cluster = await startLocalCluster({ nodes: 2 });
  process.stderr.write(`[test] control plane ready in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
  let code = 1;
  const stopAll = async () => {
    await cluster.stop();
    const left = Object.entries(cluster.pids).filter(([, pid]) => isAlive(pid));
    if (left.length) {
      process.stderr.write(`[test] processes left behind: ${left.map(([n, p]) => `${n}(${p})`).join(', ')}\n`);
      code = code || 1;
    } else {
      process.stderr.write('[test] cluster stopped; no process left behind\n');
    }
  };
  const child = spawn(
    process.execPath,
    [
      '--import', 'tsx',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${process.env.ROLLOUT_TRACE_TEST_CONCURRENCY ?? '3'}`,
      '--test-timeout=300000',
      ...(files.length ? files : DEFAULT_GLOBS),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, ROLLOUT_TRACE_KUBECONFIG: cluster.kubeconfigPath, KUBECONFIG: cluster.kubeconfigPath },
    },
  );
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  code = await new Promise<number>((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 130 : 1))));
  await stopAll();
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[test] ${(err as Error).message}\n`);
    process.exit(1);
  },
);
