/**
 * `npm test`: starts one embedded control plane (with the simulated kubelet) for the whole run,
 * runs every test file with node:test against it (each test in its own namespace), stops the
 * cluster and checks that no process is left behind. Extra arguments are passed to node --test
 * (e.g. `npm test -- test/integration/cli/cli.test.ts`, or a folder: `npm test -- test/faults/`). When every file argument is under
 * test/unit/, no control plane is built or started (`npm test -- 'test/unit/**\/*.test.ts'`).
 * The run ends with the failing tests again and the slowest files.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { startLocalCluster } from '../local-cluster/index.js';
import { isAlive } from '../local-cluster/processes.js';
import { faultFiles, fileArgs, type RunResult, runNodeTest, slowestFiles } from './test-runner.js';

/** Whether the selected files need the control plane: anything but unit tests (or no file: all) does. */
function needsCluster(args: string[]): boolean {
  const files = fileArgs(args);
  return files.length === 0 || files.some((f) => !f.replace(/^\.\//, '').startsWith('test/unit/'));
}

/** Where every file's time of the last run is written, slowest first (git ignores it). */
const FILE_TIMES = 'stress-out/test-file-times.txt';

/** The failing tests again, then the slowest files: what a CI log's tail should show. */
function recap(runs: RunResult[]): void {
  const failures = runs.flatMap((r) => r.failures);
  if (failures.length) process.stdout.write(`\n[test] the failing tests again:\n${failures.join('\n')}\n`);
  const files = runs.flatMap((r) => r.files);
  const slowest = slowestFiles(files);
  if (slowest.length)
    process.stdout.write(`\n[test] the slowest files (their tests' time; all in ${FILE_TIMES}):\n${slowest.join('\n')}\n`);
  if (files.length) {
    mkdirSync(dirname(FILE_TIMES), { recursive: true });
    writeFileSync(FILE_TIMES, `${slowestFiles(files, files.length).join('\n')}\n`);
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (!needsCluster(args)) {
    const run = await runNodeTest(args, { env: process.env, isolate: false });
    recap([run]);
    return run.code;
  }
  const setup = spawnSync('bash', ['scripts/ensure-k8s.sh'], { stdio: ['ignore', process.stderr, 'inherit'] });
  if (setup.status !== 0) return 1;
  const t0 = Date.now();
  const cluster = await startLocalCluster({ nodes: 2 });
  process.stderr.write(`[test] control plane ready in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
  const env = { ...process.env, ROLLOUT_TRACE_KUBECONFIG: cluster.kubeconfigPath, KUBECONFIG: cluster.kubeconfigPath };
  const runs = [await runNodeTest(args, { env })];
  if (fileArgs(args).length === 0) runs.push(await runNodeTest([...args, ...faultFiles()], { env, concurrency: '2' }));
  let code = runs.find((r) => r.code !== 0)?.code ?? 0;
  await cluster.stop();
  recap(runs);
  const left = Object.entries(cluster.pids).filter(([, pid]) => isAlive(pid));
  if (left.length) {
    process.stderr.write(`[test] processes left behind: ${left.map(([n, p]) => `${n}(${p})`).join(', ')}\n`);
    code = code || 1;
  } else {
    process.stderr.write('[test] cluster stopped; no process left behind\n');
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[test] ${(err as Error).message}\n`);
    process.exit(1);
  },
);
