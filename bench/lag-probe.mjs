// Preloaded into the measured rollout-trace process (`node --import bench/lag-probe.mjs dist/cli/rollout-trace.mjs`)
// and into big2000's bare watcher: samples event-loop delay, its stalls and memory and, at exit,
// writes them and the watch counters to $ROLLOUT_TRACE_BENCH_PROBE. With
// $ROLLOUT_TRACE_BENCH_HEAP_AT_MB, a heap snapshot is written (once, into the working folder) when
// the used heap first reaches that many MB. With $ROLLOUT_TRACE_BENCH_LAG=0 it takes no lag
// samples (no event-loop delay histogram, no 50 ms tick; memory once a second): it then costs
// nothing measurable, so the process's CPU is its own, with nothing to subtract (samples: 0).
import diagnostics_channel from 'node:diagnostics_channel';
import { openSync, readdirSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

const file = process.env.ROLLOUT_TRACE_BENCH_PROBE;
const LAG = process.env.ROLLOUT_TRACE_BENCH_LAG !== '0';
const h = monitorEventLoopDelay({ resolution: 10 });
if (LAG) h.enable();
const MB = 1024 * 1024;
const peak = { heapUsedMB: 0, heapTotalMB: 0, externalMB: 0, rssMB: 0 };
let snapshotAt = Number(process.env.ROLLOUT_TRACE_BENCH_HEAP_AT_MB ?? 0);
const sample = () => {
  const m = process.memoryUsage();
  peak.heapUsedMB = Math.max(peak.heapUsedMB, m.heapUsed / MB);
  peak.heapTotalMB = Math.max(peak.heapTotalMB, m.heapTotal / MB);
  peak.externalMB = Math.max(peak.externalMB, (m.external + m.arrayBuffers) / MB);
  peak.rssMB = Math.max(peak.rssMB, m.rss / MB);
  if (snapshotAt > 0 && m.heapUsed / MB >= snapshotAt) {
    snapshotAt = 0;
    writeHeapSnapshot();
  }
};
setInterval(sample, LAG ? 250 : 1000).unref();

// When each request to the apiserver was sent and answered (its response headers), ms from the
// process start: where a late first verdict waited. The first 100 requests.
const requests = [];
const pending = new WeakMap();
const since = () => Math.round(performance.now());
diagnostics_channel.subscribe('http.client.request.start', ({ request }) => {
  if (requests.length >= 100) return;
  const r = { path: `${request.method} ${request.path}`.slice(0, 160), sentMs: since() };
  requests.push(r);
  pending.set(request, r);
});
diagnostics_channel.subscribe('http.client.response.finish', ({ request }) => {
  const r = pending.get(request);
  if (r) r.answeredMs = since();
});

// Where a stall of the event loop went. Every 50 ms tick reads the main thread's scheduler counters
// (/proc/thread-self/schedstat, Linux: ns on a CPU, ns waiting in the run queue). Across a stall,
// the tick's interval (the stall plus the tick's own 50 ms) splits into on-CPU (our own work: JS,
// GC on the main thread), run-queue (the machine's other processes holding both cores) and the
// rest, off a CPU otherwise (idle in epoll, or blocked: a synchronous write to a full pipe). GC
// pauses (perf_hooks 'gc' entries) that overlap the worst stall are summed.
const schedFd = (() => {
  try {
    return openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined; // not Linux: no decomposition
  }
})();
const schedBuf = Buffer.alloc(96);
const sched = () => {
  if (schedFd === undefined) return [0, 0];
  const n = readSync(schedFd, schedBuf, 0, schedBuf.length, 0);
  const [run, wait] = schedBuf.toString('latin1', 0, n).split(' ');
  return [Number(run) / 1e6, Number(wait) / 1e6];
};
const TICK_MS = 50;
const STALL_MS = 50;
const stalls = { over50: 0, lagMs: 0, intervalMs: 0, onCpuMs: 0, runQueueMs: 0 };
let worstStall = { lagMs: 0, intervalMs: 0, onCpuMs: 0, runQueueMs: 0, atS: 0, gcMs: 0, from: 0, to: 0 };
// The first tick only sets the baseline: before it, the main module was loading (start-up, which
// monitorEventLoopDelay does not count either).
let last;
const tick = () => {
  const t = performance.now();
  const cpu = sched();
  const lagMs = last ? t - last.t - TICK_MS : 0;
  if (lagMs >= STALL_MS) {
    const onCpuMs = cpu[0] - last.cpu[0];
    const runQueueMs = cpu[1] - last.cpu[1];
    stalls.over50++;
    stalls.lagMs += lagMs;
    stalls.intervalMs += t - last.t;
    stalls.onCpuMs += onCpuMs;
    stalls.runQueueMs += runQueueMs;
    if (lagMs > worstStall.lagMs)
      worstStall = { lagMs, intervalMs: t - last.t, onCpuMs, runQueueMs, atS: t / 1000, gcMs: 0, from: last.t, to: t };
  }
  last = { t, cpu };
};
if (LAG) setInterval(tick, TICK_MS).unref();
const gc = { count: 0, totalMs: 0, maxMs: 0, long: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.count++;
    gc.totalMs += e.duration;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
    if (e.duration >= 10) gc.long.push([e.startTime, e.duration]);
  }
}).observe({ entryTypes: ['gc'] });
/** The worst stall, with the GC pause time inside it; rounded for the notes. */
const stallReport = () => {
  const { from, to, ...w } = worstStall;
  for (const [start, d] of gc.long) w.gcMs += Math.max(0, Math.min(to, start + d) - Math.max(from, start));
  const r = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  return { worst: r(w), over50: r(stalls), gc: r({ count: gc.count, totalMs: gc.totalMs, maxMs: gc.maxMs }) };
};
// Our writes to stdout (a pipe to the bench, read line by line): their count, bytes and wall time.
// Not their CPU: two process.cpuUsage() calls per write were ~0.4 s of a 2,000-pod rollout's
// profile, charged to us (our CPU by thread in the notes still shows where the time goes).
const writes = { count: 0, bytes: 0, wallMs: 0 };
const rawWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const t = performance.now();
  try {
    return rawWrite(chunk, ...rest);
  } finally {
    writes.count++;
    writes.bytes += chunk.length;
    writes.wallMs += performance.now() - t;
  }
};

/** CPU seconds (user + system) per thread name, from /proc (Linux): main thread, V8 workers, libuv. */
const threadCpu = () => {
  const out = {};
  try {
    const hz = 100;
    for (const tid of readdirSync('/proc/self/task')) {
      // Node's platform workers (GC, compiler) keep the process's name: tell the main thread apart.
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const name = Number(tid) === process.pid ? 'main' : comm === 'node' ? 'V8 worker' : comm;
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      const cpu = (Number(fields[11]) + Number(fields[12])) / hz;
      out[name] = Math.round(((out[name] ?? 0) + cpu) * 100) / 100;
    }
  } catch {
    // not Linux: no split
  }
  return out;
};
// The bundled CLI has its own copy of src/cluster: it publishes its counters on a global symbol.
const statsOf = () => globalThis[Symbol.for('rollout-trace.watchStats')]?.();
process.on('exit', () => {
  if (!file) return;
  h.disable();
  sample();
  const stats = statsOf();
  const sum = (r) => Object.values(r ?? {}).reduce((a, b) => a + b, 0);
  writeFileSync(
    file,
    JSON.stringify({
      ...(LAG ? { lagP99Ms: h.percentile(99) / 1e6, lagMaxMs: h.max / 1e6 } : {}),
      // The probe's own CPU grows with its delay samples (bench/processes.ts subtracts it).
      samples: LAG ? h.count : 0,
      threadCpuS: threadCpu(),
      stdoutWrites: writes,
      lists: sum(stats?.lists),
      listedKinds: Object.entries(stats?.lists ?? {})
        .filter(([, n]) => n > 0)
        .map(([k]) => k),
      watchOpens: sum(stats?.opened),
      received: sum(stats?.received),
      receivedByKind: stats?.received,
      listsByKind: stats?.lists,
      openedByKind: stats?.opened,
      peak,
      ...(LAG ? { stalls: stallReport() } : {}),
      requests,
    }),
  );
});
