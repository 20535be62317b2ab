/**
 * `npm run stress`: runs the cluster suites several times in a row beside a CPU-bound neighbour,
 * against one embedded control plane, and prints each test's pass rate and the slowest files.
 *
 *   npm run stress -- [--runs N] [--busy N] [--slow[=LATENCY,JITTER,PAUSE,PERIOD]] [FILE|FOLDER...]
 *
 * --runs N   repetitions of the selection (default 3)
 * --busy N   CPU-bound neighbour processes, each keeping one core busy (default 1; 0: none)
 * --slow     slow the control plane itself (local-cluster/slow-link.ts): every client, the
 *            controllers and the kubelet included, reaches the apiserver through a forwarder that
 *            delays each chunk LATENCY ms plus up to JITTER ms each way, and etcd is stopped PAUSE ms
 *            of every PERIOD ms (default 30,120,150,500)
 * FILE...    what to run (default: test/integration/, test/pulumi/, then test/faults/ two files at
 *            a time, as `npm test` runs them)
 *
 * The spec output of run K goes to stress-out/run-K.log; stress-out/summary.txt keeps what is
 * printed at the end. Exit status 1 when any test failed in any run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_SLOW, type SlowControlPlane, startLocalCluster } from '../local-cluster/index.js';
import { faultFiles, type RunResult, runNodeTest, slowestFiles } from './test-runner.js';
import type { TestRecord } from './test-timings.js';

const OUT = 'stress-out';
const SUITE = ['test/integration/**/*.test.ts', 'test/pulumi/**/*.test.ts'];

interface StressArgs {
  runs: number;
  busy: number;
  slow?: SlowControlPlane;
  files: string[];
}

const USAGE = 'npm run stress -- [--runs N] [--busy N] [--slow[=LATENCY,JITTER,PAUSE,PERIOD]] [FILE|FOLDER...]';

function usage(problem: string): never {
  process.stderr.write(`[stress] ${problem}. Usage: ${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): StressArgs {
  const out: StressArgs = { runs: 3, busy: 1, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--runs' || a === '--busy') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < (a === '--runs' ? 1 : 0))
        usage(`${a} must be a whole number (${a === '--runs' ? 'at least 1' : '0 or more'}); got ${JSON.stringify(argv[i] ?? '')}`);
      out[a === '--runs' ? 'runs' : 'busy'] = n;
    } else if (a === '--slow' || a.startsWith('--slow=')) out.slow = parseSlow(a.slice('--slow='.length));
    else if (a.startsWith('-')) usage(`unknown option ${JSON.stringify(a)}`);
    else out.files.push(a);
  }
  return out;
}

/** `--slow`'s value: four whole numbers of ms (latency, jitter, etcd pause, its period), or the defaults when empty. */
function parseSlow(value: string): SlowControlPlane {
  if (!value) return DEFAULT_SLOW;
  const n = value.split(',').map(Number);
  const [latencyMs = -1, jitterMs = -1, etcdPauseMs = -1, etcdPeriodMs = -1] = n;
  if (n.length !== 4 || n.some((x) => !Number.isInteger(x) || x < 0) || etcdPauseMs >= etcdPeriodMs)
    usage(`--slow takes LATENCY,JITTER,PAUSE,PERIOD in ms, whole numbers with PAUSE below PERIOD; got ${JSON.stringify(value)}`);
  return { latencyMs, jitterMs, etcdPauseMs, etcdPeriodMs };
}

/** A process that keeps one core busy until it is killed. */
function busyNeighbour() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  child.unref();
  return child;
}

/** Each test's runs, passes and failures, keyed by file, line and name. */
function passRates(runs: TestRecord[][]): Map<string, { pass: number; fail: number; ms: number[] }> {
  const rates = new Map<string, { pass: number; fail: number; ms: number[] }>();
  for (const tests of runs) {
    for (const t of tests) {
      if (t.outcome === 'skip') continue;
      const key = `${t.file}:${t.line} ${t.name}`;
      const r = rates.get(key) ?? { pass: 0, fail: 0, ms: [] };
      r[t.outcome]++;
      r.ms.push(t.ms);
      rates.set(key, r);
    }
  }
  return rates;
}

function summary(results: RunResult[][], args: StressArgs, wallMs: number[]): string {
  const perRun = results.map((parts) => parts.flatMap((r) => r.tests));
  const rates = passRates(perRun);
  const failed = [...rates].filter(([, r]) => r.fail > 0);
  const skipped = new Set(
    perRun
      .flat()
      .filter((t) => t.outcome === 'skip')
      .map((t) => `${t.file}:${t.line} ${t.name}`),
  );
  const lines = [
    `[stress] ${args.runs} run(s) beside ${args.busy} busy core(s)${args.slow ? `, control plane slowed ${JSON.stringify(args.slow)}` : ''}: ${rates.size} tests, ${failed.length} failed at least once, ${skipped.size} skipped`,
    ...wallMs.map((ms, i) => `  run ${i + 1}: ${(ms / 1000).toFixed(0)} s, exit ${results[i]?.find((r) => r.code !== 0)?.code ?? 0}`),
    '',
    failed.length ? '[stress] tests that failed (passed/runs):' : '[stress] every test passed in every run',
    ...failed.map(([key, r]) => `  ${r.pass}/${r.pass + r.fail}  ${key}`),
    '',
    '[stress] the slowest files (the longest of the runs):',
    ...slowestFiles(maxPerFile(results.flat().flatMap((r) => r.files)), 12),
  ];
  return lines.join('\n');
}

function maxPerFile(files: { file: string; ms: number }[]): { file: string; ms: number }[] {
  const max = new Map<string, number>();
  for (const f of files) max.set(f.file, Math.max(max.get(f.file) ?? 0, f.ms));
  return [...max].map(([file, ms]) => ({ file, ms }));
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (spawnSync('bash', ['scripts/ensure-k8s.sh'], { stdio: ['ignore', process.stderr, 'inherit'] }).status !== 0) return 1;
  mkdirSync(OUT, { recursive: true });
  const cluster = await startLocalCluster({ nodes: 2, ...(args.slow ? { slow: args.slow } : {}) });
  const env = { ...process.env, ROLLOUT_TRACE_KUBECONFIG: cluster.kubeconfigPath, KUBECONFIG: cluster.kubeconfigPath };
  const neighbours = Array.from({ length: args.busy }, busyNeighbour);
  const results: RunResult[][] = [];
  const wallMs: number[] = [];
  try {
    for (let run = 1; run <= args.runs; run++) {
      const logFile = `${OUT}/run-${run}.log`;
      writeFileSync(logFile, '');
      const write = (text: string) => appendFileSync(logFile, text);
      const t0 = Date.now();
      process.stderr.write(`[stress] run ${run}/${args.runs}\n`);
      const parts = args.files.length
        ? [await runNodeTest(args.files, { env, write })]
        : [await runNodeTest(SUITE, { env, write }), await runNodeTest(faultFiles(), { env, write, concurrency: '2' })];
      wallMs.push(Date.now() - t0);
      results.push(parts);
      const failed = parts.flatMap((p) => p.tests).filter((t) => t.outcome === 'fail').length;
      process.stderr.write(`[stress] run ${run}: ${((Date.now() - t0) / 1000).toFixed(0)} s, ${failed} failed test(s)\n`);
    }
  } finally {
    for (const n of neighbours) n.kill('SIGKILL');
    await cluster.stop();
  }
  const text = summary(results, args, wallMs);
  writeFileSync(`${OUT}/summary.txt`, `${text}\n`);
  process.stdout.write(`${text}\n`);
  return results.flat().some((r) => r.code !== 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`[stress] ${(err as Error).message}\n`);
    process.exit(1);
  },
);
