/**
 * `npm run bench`: rollout-trace beside `kubectl rollout status` on the embedded control plane,
 * both as whole processes in the same run (compiled rollout-trace: `npm run bench` builds first).
 *
 * Per scenario and tool: time from completion (seen by an independent raw watch) to verdict and
 * to exit, peak RSS and CPU seconds (GNU time), our event-loop lag p99/max and where its stalls went (bench/lag-probe.mjs),
 * LIST and WATCH requests (apiserver_request_total; ours from our own counters). Prints a table and
 * writes `{ command, date, machine, commit, sizes, probeCost, scenarios: { startup, healthy, failures,
 * big2000, many200, oneInBusyNamespace, quiet5min, sts200, ds100, job500, jobFail, stsFail, kindsInBusyNamespace } }` to `--json FILE`; a full run (all scenarios,
 * full sizes) writes bench/results/latest.json unless `--json` says otherwise. See
 * docs/dev/benchmarks.md for what each scenario does and how long it takes.
 *
 * Options: --scenarios a,b (default all) --big N (2000) --many N (200) --busy-pods N (2000)
 * --busy-events N (45000) --quiet-seconds N (300) --sts N (200) --ds-nodes N (100)
 * --job-completions N (500) --job-parallelism N (50) --quick (sizes 200/20/200/2000, quiet 60 s,
 * 20 / 10 / 50 / 10)
 * --cpu-prof DIR (a CPU profile of each rollout-trace process, for Chrome DevTools or speedscope)
 * --node-flags "..." (Node flags for the rollout-trace processes only, e.g. GC experiments)
 * --v8-flags "..." (V8 flags NODE_OPTIONS refuses, set as our processes start: bench/v8-flags.mjs)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { startLocalCluster } from '../local-cluster/index.js';
import { calibrateProbe } from './processes.js';
import type { BenchContext, ScenarioResult } from './race.js';
import { big, failures, healthy, many, oneInBusy, quiet, startup } from './scenarios.js';
import { ds, job, jobFail, kindsInBusy, sts, stsFail } from './workload-scenarios.js';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const cpuProfDir = opt('cpu-prof');
if (cpuProfDir) process.env.ROLLOUT_TRACE_BENCH_CPU_PROF = cpuProfDir;
const nodeFlags = opt('node-flags');
if (nodeFlags) process.env.ROLLOUT_TRACE_BENCH_NODE_FLAGS = nodeFlags;
const v8Flags = opt('v8-flags');
if (v8Flags) process.env.ROLLOUT_TRACE_BENCH_V8_FLAGS = v8Flags;
const num = (name: string, full: number, small: number) => Number(opt(name) ?? (quick ? small : full));
const sizes = {
  big: num('big', 2000, 200),
  many: num('many', 200, 20),
  busyPods: num('busy-pods', 2000, 200),
  busyEvents: num('busy-events', 45_000, 2000),
  quietSeconds: num('quiet-seconds', 300, 60),
  sts: num('sts', 200, 20),
  dsNodes: num('ds-nodes', 100, 10),
  jobCompletions: num('job-completions', 500, 50),
  jobParallelism: num('job-parallelism', 50, 10),
};
const ALL = [
  'startup',
  'healthy',
  'failures',
  'big2000',
  'many200',
  'oneInBusyNamespace',
  'quiet5min',
  'sts200',
  'ds100',
  'job500',
  'jobFail',
  'stsFail',
  'kindsInBusyNamespace',
] as const;
type Key = (typeof ALL)[number];
const chosen = (opt('scenarios')?.split(',') ?? [...ALL]) as Key[];
for (const k of chosen) {
  if (!ALL.includes(k)) {
    console.error(`bench: unknown scenario "${k}"; valid: ${ALL.join(', ')}`);
    process.exit(2);
  }
}

const RUN: Record<Key, (ctx: BenchContext) => Promise<ScenarioResult>> = {
  startup: (ctx) => startup(ctx),
  healthy,
  failures,
  big2000: (ctx) => big(ctx, sizes.big),
  many200: (ctx) => many(ctx, sizes.many),
  oneInBusyNamespace: (ctx) => oneInBusy(ctx, sizes.busyPods, sizes.busyEvents),
  quiet5min: (ctx) => quiet(ctx, sizes.quietSeconds),
  sts200: (ctx) => sts(ctx, sizes.sts),
  ds100: (ctx) => ds(ctx, sizes.dsNodes),
  job500: (ctx) => job(ctx, sizes.jobCompletions, sizes.jobParallelism),
  jobFail,
  stsFail,
  kindsInBusyNamespace: (ctx) => kindsInBusy(ctx, sizes.busyPods, sizes.busyEvents),
};

const COLUMNS = [
  'startupMs',
  'verdictAfterCompleteMs',
  'exitAfterCompleteMs',
  'wallS',
  'peakRssMB',
  'cpuS',
  'probeCpuS',
  'lagP99Ms',
  'lagMaxMs',
  'lists',
  'watchOpens',
  'objectsReceived',
] as const;

function table(results: Partial<Record<Key, ScenarioResult>>): string {
  const rows: string[][] = [['scenario', 'tool', ...COLUMNS, 'processes']];
  const fmt = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(Number(v.toFixed(v < 10 ? 2 : 0))) : '-');
  for (const [key, r] of Object.entries(results)) {
    for (const tool of ['rolloutTrace', 'kubectl', 'bareWatch'] as const) {
      const f = r[tool] as unknown as Record<string, unknown> | undefined;
      if (!f) continue;
      rows.push([key, tool, ...COLUMNS.map((c) => fmt(f[c])), fmt(f.processes)]);
    }
    for (const [cls, s] of Object.entries(r.secondsAfterSignal ?? {})) {
      rows.push([key, `  ${cls}`, `s after signal: ours ${fmt(s.rolloutTrace)}, kubectl ${fmt(s.kubectl)}`]);
    }
  }
  const widths = rows[0]!.map((_, i) =>
    Math.max(...rows.map((r) => (r.length > 3 && i > 1 ? (r[i] ?? '').length : i < 2 ? (r[i] ?? '').length : 0))),
  );
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i] ?? 0) : c)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const t0 = performance.now();
  // Each scenario's namespace is deleted before the next: nodes (110 pods each) for the largest
  // one, with its rolling-update surge (25 %, rounded up per Deployment).
  const pods = Math.max(
    chosen.includes('big2000') ? Math.ceil(sizes.big * 1.25) : 0,
    chosen.includes('many200') ? sizes.many * 13 : 0,
    chosen.includes('oneInBusyNamespace') ? sizes.busyPods + 2 : 0,
    // The DaemonSet needs room on every node beside the filler, which the scheduler spreads unevenly.
    chosen.includes('kindsInBusyNamespace') ? Math.ceil(sizes.busyPods * 1.3) : 0,
    chosen.includes('sts200') ? sizes.sts + 1 : 0,
  );
  const nodes = Math.max(3, Math.ceil(pods / 100) + 1);
  const cluster = await startLocalCluster({ nodes, log: () => undefined });
  console.log(`control plane ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (${nodes} simulated nodes)`);
  const kc = cluster.kubeConfig;
  const created: string[] = [];
  const core = kc.makeApiClient(CoreV1Api);
  const ctx: BenchContext = {
    kc,
    kubeconfigPath: cluster.kubeconfigPath,
    apps: kc.makeApiClient(AppsV1Api),
    core,
    namespace: async (name) => {
      await core.createNamespace({ body: { metadata: { name } } });
      created.push(name);
      for (let i = 0; i < 100; i++) {
        const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: name }).catch(() => undefined);
        if ((sa?.secrets ?? []).length) return name;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`no ServiceAccount token in namespace ${name}`);
    },
  };
  const results: Partial<Record<Key, ScenarioResult>> = {};
  try {
    probeCost = await calibrateProbe();
    console.log(
      `lag probe: ${probeCost.perSampleUs.toFixed(1)} µs of CPU per 10 ms sample (${probeCost.perSecondMs.toFixed(1)} ms per idle second), subtracted from our cpuS (probeCpuS); the scenarios with a bare watcher measure their own beside them`,
    );
    for (const key of chosen) {
      const s = performance.now();
      const r = await RUN[key](ctx);
      const { raw: _r, ours: _o, peers: _p, startedAt: _s, ...figures } = r as ScenarioResult & Record<string, unknown>;
      results[key] = figures as ScenarioResult;
      console.log(`${key}: ${((performance.now() - s) / 1000).toFixed(0)} s${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`);
      // Each scenario's rows as soon as it ends: a later scenario's failure keeps the earlier figures.
      console.log(table({ [key]: results[key] }));
      writeResults(results);
      await deleteNamespaces(core, created.splice(0));
    }
  } finally {
    await cluster.stop();
  }
  console.log(table(results));
  console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s; sizes ${JSON.stringify(sizes)}`);
}

/** Deletes the scenario's namespaces and waits until their pods are gone (their nodes are free again). */
async function deleteNamespaces(core: CoreV1Api, names: string[]): Promise<void> {
  for (const name of names) await core.deleteNamespace({ name });
  const deadline = Date.now() + 15 * 60_000;
  for (const namespace of names) {
    while ((await core.listNamespacedPod({ namespace, limit: 1 })).items.length > 0) {
      if (Date.now() > deadline) throw new Error(`bench: namespace ${namespace} still has pods after 15 min`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

/** What the lag probe costs, measured at the start of the run (bench/processes.ts calibrateProbe). */
let probeCost: { perSampleUs: number; perSecondMs: number } | undefined;

/** A full run (every scenario at full size) is the current result: bench/results/latest.json. */
const fullRun =
  !opt('scenarios') &&
  !quick &&
  !['big', 'many', 'busy-pods', 'busy-events', 'quiet-seconds', 'sts', 'ds-nodes', 'job-completions', 'job-parallelism'].some((n) =>
    opt(n),
  );
const resultFile = opt('json') ?? (fullRun ? new URL('results/latest.json', import.meta.url).pathname : undefined);

/** Writes the figures so far, with the command, date, machine and commit that produced them. */
function writeResults(results: Partial<Record<Key, ScenarioResult>>): void {
  if (!resultFile) return;
  const cpus = os.cpus();
  const machine = { cores: cpus.length, cpu: cpus[0]?.model ?? 'unknown' };
  const command = ['npm run bench', ...(args.length ? ['--', ...args] : [])].join(' ');
  const run = { command, date: new Date().toISOString().slice(0, 10), machine, commit: gitCommit() };
  mkdirSync(path.dirname(resultFile), { recursive: true });
  writeFileSync(resultFile, `${JSON.stringify({ ...run, sizes, probeCost, scenarios: results }, null, 2)}\n`);
}

/** The checked-out commit (short hash), or `unknown` outside a git checkout. */
function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

main().catch((err) => {
  console.error(`bench failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
