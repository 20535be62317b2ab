/**
 * `npm test`: starts one embedded control plane (with the simulated kubelet) for the whole run,
 * runs every test file with node:test against it (each test in its own namespace), stops the
 * cluster and checks that no process is left behind. Extra arguments are passed to node --test
 * (e.g. `npm test -- test/integration/cli/cli.test.ts`, or a folder: `npm test -- test/faults/`). When every file argument is under
 * test/unit/, no control plane is built or started (`npm test -- 'test/unit/**\/*.test.ts'`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { startLocalCluster } from '../local-cluster/index.js';
import { isAlive } from '../local-cluster/processes.js';

const DEFAULT_GLOBS = ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/pulumi/**/*.test.ts'];
/**
 * The fault suite runs after the rest, two files at a time: its cases assert an exit within 1 s of
 * the verdict, which measures the tool only when the machine is not also running 3 other files.
 */
const FAULT_GLOB = 'test/faults/**/*.test.ts';

/** Whether the selected files need the control plane: anything but unit tests (or no file: all) does. */
function needsCluster(args: string[]): boolean {
  const files = args.filter((a) => !a.startsWith('-'));
  return files.length === 0 || files.some((f) => !f.replace(/^\.\//, '').startsWith('test/unit/'));
}

/** A folder argument (`test/faults/`) means every test file under it. */
function expandFolders(args: string[]): string[] {
  return args.map((a) => (!a.startsWith('-') && existsSync(a) && statSync(a).isDirectory() ? `${a.replace(/\/+$/, '')}/**/*.test.ts` : a));
}

function runNodeTest(
  given: string[],
  env: NodeJS.ProcessEnv,
  isolate = true,
  concurrency = process.env.ROLLOUT_TRACE_TEST_CONCURRENCY ?? '3',
): Promise<number> {
  const args = expandFolders(given);
  const files = args.filter((a) => !a.startsWith('-'));
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${concurrency}`,
      // A fault file starts its own control plane and runs its cases one by one: minutes on 2 cores.
      '--test-timeout=900000',
      // Unit tests share one process (one tsx start-up instead of one per file: ~8x less CPU).
      ...(isolate ? [] : ['--experimental-test-isolation=none']),
      ...args,
      ...(files.length ? [] : DEFAULT_GLOBS),
    ],
    { stdio: ['inherit', 'pipe', 'inherit'], env },
  );
  const recap = new FailureRecap();
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    recap.add(chunk.toString('utf8'));
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise<number>((resolve) =>
    child.on('close', (c, s) => {
      failures.push(...recap.text());
      resolve(c ?? (s ? 130 : 1));
    }),
  );
}

/**
 * The spec reporter's `✖ failing tests:` section of one run, without stack frames. The run prints
 * it after its own summary; the fault suite runs next, so the whole run repeats every section at
 * its very end, where a CI log's tail shows it.
 */
class FailureRecap {
  private pending = '';
  private readonly lines: string[] = [];
  private inSection = false;

  add(text: string): void {
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop() ?? '';
    for (const line of parts) {
      if (/^✖ failing tests:/.test(line)) this.inSection = true;
      else if (this.inSection && !/^\s+at /.test(line) && this.lines.length < MAX_RECAP_LINES) this.lines.push(line);
    }
  }

  text(): string[] {
    return this.lines;
  }
}

const MAX_RECAP_LINES = 400;
const failures: string[] = [];

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (!needsCluster(args)) return runNodeTest(args, process.env, false);
  const setup = spawnSync('bash', ['scripts/ensure-k8s.sh'], { stdio: ['ignore', process.stderr, 'inherit'] });
  if (setup.status !== 0) return 1;
  const t0 = Date.now();
  const cluster = await startLocalCluster({ nodes: 2 });
  process.stderr.write(`[test] control plane ready in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
  const env = { ...process.env, ROLLOUT_TRACE_KUBECONFIG: cluster.kubeconfigPath, KUBECONFIG: cluster.kubeconfigPath };
  let code = await runNodeTest(args, env);
  if (args.filter((a) => !a.startsWith('-')).length === 0) {
    const faults = await runNodeTest([...args, FAULT_GLOB], env, true, '2');
    code = code || faults;
  }
  await cluster.stop();
  if (failures.length) process.stdout.write(`\n[test] the failing tests again:\n${failures.join('\n')}\n`);
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
