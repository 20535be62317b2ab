// Loaded into our process (`--import`, through NODE_OPTIONS) by `npm run bench -- --v8-flags "..."`:
// sets V8 flags that NODE_OPTIONS refuses (`--trace-opt`, `--trace-deopt`...) as the process starts.
// What they print goes to our stdout, kept in the run's output-N.log beside the JSON lines.
import v8 from 'node:v8';

const flags = process.env.ROLLOUT_TRACE_BENCH_V8_FLAGS;
if (flags) v8.setFlagsFromString(flags);
