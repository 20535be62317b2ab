// Sums up what `--v8-flags "--trace-opt --trace-deopt"` printed into a run's output-N.log:
// TurboFan compilations (their time is the compiling thread's wall clock, not CPU), how much of it
// compiled a function again after a deoptimization, and the deoptimizations by reason.
// Usage: node bench/opt-summary.mjs /tmp/rt-bench-XXXX/output-N.log [top=15]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/opt-summary.mjs OUTPUT.log [top]');
  process.exit(2);
}
const top = Number(topArg ?? 15);
const COMPILED =
  /^\[completed compiling 0x[0-9a-f]+ <JSFunction ?([^ >]*) \(sfi = (0x[0-9a-f]+)\)>.*took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/;
const BAILOUT = /^\[bailout \(kind: ([^,]+), reason: ([^)[]*)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ?([^ >]*)/;
const INVALIDATED = /^\[marking dependent code .*reason: code dependencies\]/;

const byFunction = new Map();
const reasons = new Map();
let compilations = 0;
let invalidated = 0;
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const c = COMPILED.exec(line);
  if (c) {
    compilations++;
    const ms = Number(c[3]) + Number(c[4]) + Number(c[5]);
    const f = byFunction.get(c[2]) ?? { name: c[1] || '(anonymous)', times: [] };
    f.times.push(ms);
    byFunction.set(c[2], f);
    continue;
  }
  const b = BAILOUT.exec(line);
  if (b) {
    const key = `${b[1]}: ${b[2]}`;
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  } else if (INVALIDATED.test(line)) invalidated++;
}
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const all = [...byFunction.values()];
const totalMs = sum(all.map((f) => sum(f.times)));
const againMs = sum(all.map((f) => sum(f.times.slice(1))));
const pct = (x) => `${totalMs > 0 ? ((100 * x) / totalMs).toFixed(0) : 0} %`;
console.log(`${compilations} TurboFan compilations of ${all.length} functions, ${totalMs.toFixed(0)} ms (compiler threads' wall clock)`);
console.log(`compiled again after a deoptimization: ${againMs.toFixed(0)} ms (${pct(againMs)})`);
console.log(
  `${sum([...reasons.values()])} deoptimizations; ${invalidated} optimized functions invalidated by a changed dependency (a map, a field's type)`,
);
for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${String(n).padStart(6)}  ${r}`);
console.log(`\nlongest to compile (ms, times compiled):`);
for (const f of all.sort((a, b) => sum(b.times) - sum(a.times)).slice(0, top)) {
  console.log(`${sum(f.times).toFixed(1).padStart(8)}  ${String(f.times.length).padStart(3)}  ${f.name}`);
}
