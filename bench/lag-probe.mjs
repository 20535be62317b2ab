// Preloaded into the measured rollout-trace process (`node --import bench/lag-probe.mjs dist/cli/rollout-trace.mjs`):
// samples event-loop delay and, at exit, writes it and the watch counters to $ROLLOUT_TRACE_BENCH_PROBE.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.ROLLOUT_TRACE_BENCH_PROBE;
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
// The bundled CLI has its own copy of src/cluster: it publishes its counters on a global symbol.
const statsOf = () => globalThis[Symbol.for('rollout-trace.watchStats')]?.();
process.on('exit', () => {
  if (!file) return;
  h.disable();
  const stats = statsOf();
  const sum = (r) => Object.values(r ?? {}).reduce((a, b) => a + b, 0);
  writeFileSync(
    file,
    JSON.stringify({
      lagP99Ms: h.percentile(99) / 1e6,
      lagMaxMs: h.max / 1e6,
      lists: sum(stats?.lists),
      watchOpens: sum(stats?.opened),
      received: sum(stats?.received),
    }),
  );
});
