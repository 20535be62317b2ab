// Preloaded into the measured rollout-trace process (`node --import bench/lag-probe.mjs dist/cli/rollout-trace.mjs`):
// samples event-loop delay and memory and, at exit, writes them and the watch counters to
// $ROLLOUT_TRACE_BENCH_PROBE. With $ROLLOUT_TRACE_BENCH_HEAP_AT_MB, a heap snapshot is written (once,
// into the working folder) when the used heap first reaches that many MB.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';

const file = process.env.ROLLOUT_TRACE_BENCH_PROBE;
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
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
setInterval(sample, 250).unref();
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
      lagP99Ms: h.percentile(99) / 1e6,
      lagMaxMs: h.max / 1e6,
      // The probe's own CPU grows with its delay samples (bench/processes.ts subtracts it).
      samples: h.count,
      threadCpuS: threadCpu(),
      stdoutWrites: writes,
      lists: sum(stats?.lists),
      watchOpens: sum(stats?.opened),
      received: sum(stats?.received),
      peak,
    }),
  );
});
