// Where a process's CPU went, from `perf record -g` (on-CPU samples only, unlike --cpu-prof, which
// counts the time a descheduled thread waits as its function's). Reads `perf script -F
// pid,tid,comm,ip,sym,dso` output; splits one thread's samples into buckets by their stack:
// our reducer and sinks (`observe`), JSON.parse, the rest of receiving (TLS, HTTP, our line
// handling), timers, module loading, GC, waiting in epoll and other.
//
// Usage: node bench/perf-split.mjs PERF_SCRIPT.txt            lists the busiest threads
//        node bench/perf-split.mjs PERF_SCRIPT.txt PID [TID]  splits that thread (default: PID's main)
// The recipe (a bench run under perf, our process with --perf-basic-prof): docs/dev/benchmarks.md.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const [file, pid, tid = pid] = process.argv.slice(2);
const BUCKETS = [
  ['observe (reducer, sinks)', /[ :*^~]observe file/],
  ['garbage collection', /CollectGarbage|Scavenge|MarkCompact/],
  ['JSON.parse', /Builtin_JsonParse/],
  ['module loading, start-up', /ModuleWrap|esm\/loader|CompileToplevel|compileForInternalLoader|FlushCompileCache|node::LoadEnvironment/],
  ['timers', /RunTimers/],
  ['receiving (TLS, HTTP, line handling)', /onStreamRead|OnUvRead|uv__read/],
  ['epoll', /epoll/],
];
const counts = new Map();
const threads = new Map();
let total = 0;
/** One sample: its first line names the thread, the rest is its stack. */
function count(lines) {
  const m = lines[0]?.match(/^(\S+)\s+(\d+)\/(\d+)/);
  if (!m) return;
  const key = `${m[1]} ${m[2]}/${m[3]}`;
  threads.set(key, (threads.get(key) ?? 0) + 1);
  if (m[2] !== pid || m[3] !== tid) return;
  total++;
  const stack = lines.slice(1).join(' ');
  const bucket = BUCKETS.find(([, re]) => re.test(stack))?.[0] ?? 'other';
  counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
}
// Read line by line: a long run's perf script is larger than the longest string V8 can hold.
let sample = [];
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
  if (line.trim() === '') {
    count(sample);
    sample = [];
  } else sample.push(line.trim());
}
count(sample);
if (!pid) {
  for (const [k, n] of [...threads].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(String(n).padStart(7), k);
} else {
  console.log(`${total} samples of ${pid}/${tid}`);
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${k}`);
  // The process's other threads (V8's workers compile with TurboFan and mark the heap there).
  const others = [...threads].filter(([k]) => k.split(' ')[1]?.startsWith(`${pid}/`) && !k.endsWith(`/${tid}`));
  for (const [k, n] of others.sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(7)} samples in thread ${k}`);
}
