/**
 * One bench race: rollout-trace and the kubectl command a user would run, started side by side on
 * the same rollout as whole processes; their figures, and the notes that explain them.
 */

import type { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { BenchKind } from './kinds.js';
import { requestCounts } from './metrics.js';
import {
  bareWatch,
  kubectl,
  lineAt,
  type ProbeStalls,
  type ProcessRun,
  probeCostBeside,
  rolloutTrace,
  type StallSplit,
  withProbeCost,
} from './processes.js';
import { RawWatch } from './raw-watch.js';

/** One tool's figures in one scenario. */
export interface ToolFigures {
  verdictAfterCompleteMs?: number;
  exitAfterCompleteMs?: number;
  /** Wall time of the process(es), start to exit. */
  wallS: number;
  /** The largest single process. */
  peakRssMB: number;
  /** All processes together (ours net of the lag probe's CPU, see calibrateProbe). */
  cpuS: number;
  /** Ours: the lag probe's estimated CPU, subtracted from `cpuS`. */
  probeCpuS?: number;
  lagP99Ms?: number;
  lagMaxMs?: number;
  lists?: number;
  watchOpens?: number;
  /** Objects the apiserver sent us in lists and watch events (ours only: what scoping saves). */
  objectsReceived?: number;
  /** Event-loop stalls ≥ 50 ms and GC pauses, from the lag probe (see stallNote). */
  stalls?: ProbeStalls;
  /** Start-up: median process wall time, start to exit, on a rollout already complete. */
  startupMs?: number;
  processes: number;
}

export interface ScenarioResult {
  rolloutTrace: ToolFigures;
  kubectl: ToolFigures;
  /** big2000: bench/bare-watch.mjs, which receives and parses what we receive and does nothing else. */
  bareWatch?: ToolFigures;
  secondsAfterSignal?: Record<string, { rolloutTrace?: number; kubectl?: number }>;
  notes: string[];
}

/** What scenarios need. */
export interface BenchContext {
  kc: KubeConfig;
  kubeconfigPath: string;
  apps: AppsV1Api;
  core: CoreV1Api;
  /** Creates a namespace with its default ServiceAccount token. */
  namespace(name: string): Promise<string>;
}

const VERDICT = /"type":"verdict"/;
/** kubectl's last line: rolled out (Deployment, DaemonSet), roll out / rolling update complete (StatefulSet), condition met (Job), or failed/timed out. */
export const KUBECTL_DONE =
  /successfully rolled out|roll out complete|rolling update complete|condition met|exceeded its progress deadline|error:/;
const ms = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined ? Math.round(a - b) : undefined);

/** When our verdict line for workload `name` was read. */
export function ourVerdictAt(run: ProcessRun, name: string): number | undefined {
  return run.lines.find((l) => VERDICT.test(l.text) && l.text.includes(`"name":"${name}"`))?.t;
}

/**
 * Where our time to a verdict went: our first request (ms from our process start, the probe's
 * clock: start-up), the last list answered, and each tool's verdict from its spawn.
 */
function requestNote(ours: ProcessRun, peers: ProcessRun[], startedAt: number): string {
  const requests = ours.probe?.requests ?? [];
  const lists = requests.filter((r) => !r.path.includes('watch=true') && r.answeredMs !== undefined);
  const verdictAt = ours.lines.find((l) => VERDICT.test(l.text))?.t;
  const peerAt = peers.map((p) => lineAt(p, KUBECTL_DONE)).find((t) => t !== undefined);
  const since = (t: number | undefined) => (t === undefined ? '?' : `${Math.round(t - startedAt)} ms`);
  return (
    `our first request ${requests[0]!.sentMs} ms after our process started, the last list answered at ` +
    `${lists.length ? Math.max(...lists.map((r) => r.answeredMs!)) : '?'} ms (${lists.length} answered); ` +
    `verdicts from the spawn: ours ${since(verdictAt)}, kubectl's ${since(peerAt)}`
  );
}

/** Runs both tools on `names` in `ns` at once and measures them against the raw watch. */
export async function race(
  ctx: BenchContext,
  ns: string,
  names: string[],
  o: {
    ourArgs?: string[];
    timeoutS?: number;
    minGeneration?: number;
    before?: () => Promise<void>;
    /** Also run bench/bare-watch.mjs on this workload until ours exits: the floor. */
    floor?: string;
    /** The workloads' kind (default Deployment): the raw watch's completion test, both tools' commands. */
    kind?: BenchKind;
    /**
     * false: no lag samples in ours and the floor (the probe's counters only), so each one's CPU
     * is measured whole, with no probe cost to estimate and subtract; no lag or stall figures.
     */
    lag?: boolean;
  } = {},
): Promise<ScenarioResult & { raw: RawWatch; ours: ProcessRun; peers: ProcessRun[]; startedAt: number }> {
  const kind = o.kind ?? 'Deployment';
  const raw = new RawWatch(ctx.kc, ns, new Map(names.map((n) => [n, o.minGeneration ?? 0])), kind);
  await raw.start();
  const counted = await requestCounts(ctx.kc);
  await o.before?.();
  const startedAt = performance.now();
  const timeoutS = o.timeoutS ?? 600;
  const lag = o.lag ?? true;
  const probe = lag ? true : 'counters';
  const oursP = rolloutTrace(ctx.kubeconfigPath, ns, [...(o.ourArgs ?? names), '--timeout', `${timeoutS}s`], { kind, probe });
  const peersP = Promise.all(names.map((n) => kubectl(ctx.kubeconfigPath, ns, n, timeoutS, kind)));
  const floorP = o.floor ? bareWatch(ctx.kc, ns, o.floor, kind, oursP, lag) : undefined;
  // Beside a floor, the probe's cost is measured in this scenario, on the same busy machine.
  const probeCostP = o.floor && lag ? probeCostBeside(oursP) : undefined;
  const [oursRun, peers, floorRun, probeCost] = await Promise.all([oursP, peersP, floorP, probeCostP]);
  const ours = probeCost ? withProbeCost(oursRun, probeCost.perSampleS) : oursRun;
  const floor = floorRun && probeCost ? withProbeCost(floorRun, probeCost.perSampleS) : floorRun;
  raw.stop();
  const after = await requestCounts(ctx.kc);
  const completeAt = names.every((n) => raw.complete.has(n)) ? Math.max(...names.map((n) => raw.complete.get(n)!)) : undefined;
  const worst = (xs: Array<number | undefined>) => (xs.some((x) => x === undefined) ? undefined : Math.max(...(xs as number[])));
  const ourLists = ours.probe?.lists ?? 0;
  const ourWatches = ours.probe?.watchOpens ?? 0;
  const verdicts = ours.lines.filter((l) => VERDICT.test(l.text)).map((l) => JSON.parse(l.text) as { verdict: { outcome: string } });
  const outcomes = [...new Set(verdicts.map((v) => v.verdict.outcome))].join('/') || 'no verdict';
  return {
    raw,
    ours,
    peers,
    startedAt,
    notes: [
      `rollout-trace: exit ${ours.code}, ${outcomes}, output in ${ours.outputFile}; kubectl exit ${exitCodes(peers)}`,
      ...(ours.probe?.peak ? [memoryNote(ours.probe.peak)] : []),
      ...(ours.probe?.threadCpuS ? [threadNote(ours.probe.threadCpuS)] : []),
      ...(ours.probe?.stdoutWrites ? [`our stdout writes: ${JSON.stringify(ours.probe.stdoutWrites)}`] : []),
      ...(ours.probe?.stalls ? [stallNote('our', ours.probe.stalls)] : []),
      ...(ours.probe?.requests?.length ? [requestNote(ours, peers, startedAt)] : []),
      ...(floor ? [floorNote(floor)] : []),
      ...(probeCost && floor ? [probeNote(probeCost, ours, floor)] : []),
      ...(!lag && floor
        ? [
            'no lag samples in this scenario (ours and the bare watcher: the probe counts, it does not sample): each CPU measured whole, nothing subtracted',
          ]
        : []),
      ...(floor?.probe?.stalls ? [stallNote("the bare watcher's", floor.probe.stalls)] : []),
    ],
    rolloutTrace: {
      verdictAfterCompleteMs: worst(names.map((n) => ms(ourVerdictAt(ours, n), raw.complete.get(n)))),
      exitAfterCompleteMs: ms(ours.exitAt, completeAt),
      wallS: (ours.exitAt - startedAt) / 1000,
      peakRssMB: ours.peakRssMB,
      cpuS: ours.cpuS,
      probeCpuS: ours.probeCpuS,
      ...(ours.probe ? { lagP99Ms: ours.probe.lagP99Ms, lagMaxMs: ours.probe.lagMaxMs, stalls: ours.probe.stalls } : {}),
      lists: ourLists,
      watchOpens: ourWatches,
      ...(ours.probe?.received !== undefined ? { objectsReceived: ours.probe.received } : {}),
      processes: 1,
    },
    ...(floor
      ? {
          bareWatch: {
            wallS: (floor.exitAt - startedAt) / 1000,
            peakRssMB: floor.peakRssMB,
            cpuS: floor.cpuS,
            probeCpuS: floor.probeCpuS,
            ...(floor.probe ? { lagP99Ms: floor.probe.lagP99Ms, lagMaxMs: floor.probe.lagMaxMs, stalls: floor.probe.stalls } : {}),
            processes: 1,
          },
        }
      : {}),
    kubectl: {
      verdictAfterCompleteMs: worst(peers.map((p, i) => ms(lineAt(p, KUBECTL_DONE), raw.complete.get(names[i]!)))),
      exitAfterCompleteMs: ms(Math.max(...peers.map((p) => p.exitAt)), completeAt),
      wallS: (Math.max(...peers.map((p) => p.exitAt)) - startedAt) / 1000,
      peakRssMB: Math.max(...peers.map((p) => p.peakRssMB)),
      cpuS: peers.reduce((a, p) => a + p.cpuS, 0),
      // The apiserver counts every client: minus ours (own counters) and the raw watch's 2 watches.
      lists: Math.max(0, after.lists - counted.lists - ourLists),
      watchOpens: Math.max(0, after.watches - counted.watches - ourWatches - 2),
      processes: peers.length,
    },
  };
}

/** Our process's memory peaks, as the probe sampled them. */
function memoryNote(p: NonNullable<NonNullable<ProcessRun['probe']>['peak']>): string {
  const mb = (x: number) => `${Math.round(x)} MB`;
  return `our peaks: heap used ${mb(p.heapUsedMB)}, heap total ${mb(p.heapTotalMB)}, external ${mb(p.externalMB)}, rss ${mb(p.rssMB)}`;
}

/** The probe's cost measured in the scenario, and what was subtracted from each process. */
function probeNote(c: { perSampleUs: number; perSecondMs: number }, ours: ProcessRun, floor: ProcessRun): string {
  const both = `ours ${ours.probeCpuS.toFixed(2)} s, the bare watcher's ${floor.probeCpuS.toFixed(2)} s`;
  return `lag probe in this scenario: ${c.perSampleUs.toFixed(1)} µs per sample (${c.perSecondMs.toFixed(1)} ms per second; two idle processes beside it), subtracted: ${both}`;
}

/** What the bare watcher received (its last line), and its CPU. */
function floorNote(run: ProcessRun): string {
  const last = run.lines.at(-1)?.text ?? '';
  return `bare watcher (JSON.parse only): exit ${run.code}, CPU ${run.cpuS.toFixed(2)} s, ${last}`;
}

/**
 * Where the event-loop stalls went: the worst one and all of those ≥ 50 ms, each interval split into
 * the main thread on a CPU (its own work; GC pauses counted apart), waiting in the run queue (the
 * cores busy with other processes) and otherwise off a CPU (idle or blocked).
 */
function stallNote(whose: string, s: ProbeStalls): string {
  const split = (x: StallSplit) =>
    `${Math.round(x.lagMs)} ms late (over ${Math.round(x.intervalMs)} ms: on a CPU ${Math.round(x.onCpuMs)}, in the run queue ${Math.round(x.runQueueMs)}, ` +
    `otherwise off a CPU ${Math.max(0, Math.round(x.intervalMs - x.onCpuMs - x.runQueueMs))})`;
  return (
    `${whose} worst stall at ${s.worst.atS.toFixed(1)} s, ${split(s.worst)} (GC pauses in it ${Math.round(s.worst.gcMs)} ms); ` +
    `${s.over50.over50} stalls ≥ 50 ms, together ${split(s.over50)}; GC ${s.gc.count} pauses, ${Math.round(s.gc.totalMs)} ms, longest ${Math.round(s.gc.maxMs)} ms`
  );
}

/** Our CPU seconds per thread (the main thread is `node`; V8's GC and compiler helpers, libuv's pool). */
function threadNote(byThread: Record<string, number>): string {
  const parts = Object.entries(byThread)
    .sort((a, b) => b[1] - a[1])
    .map(([name, s]) => `${name} ${s.toFixed(2)} s`);
  return `our CPU by thread (probe included): ${parts.join(', ')}`;
}

/** `0` or `0 ×199, 1 ×1`: the exit codes of many processes, counted. */
function exitCodes(runs: ProcessRun[]): string {
  const counts = new Map<number, number>();
  for (const r of runs) counts.set(r.code, (counts.get(r.code) ?? 0) + 1);
  return [...counts].map(([code, n]) => (counts.size === 1 && n === 1 ? `${code}` : `${code} ×${n}`)).join(', ');
}
