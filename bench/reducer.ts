/**
 * Micro-benchmark of the reducer hot path: 20 Deployments in one namespace, every observation of
 * every Deployment delivered to every tracker's reducer (what a shared namespace watch does when
 * the source forwards everything). Replays test/fixtures/update-to-2.json, renamed per Deployment.
 *
 * Run: `npx node --import tsx bench/reducer.ts [deployments=20] [rounds=5] [--filtered]`
 * Prints µs per delivery (one observation to one reducer) and µs per watch observation (to all
 * reducers). Ticks and `synced` go only to their own tracker, as in the tracker.
 */
import { createHash } from 'node:crypto';
import { mayConcern } from '../src/cluster/relevance.js';
import type { Observation, RolloutState } from '../src/core/index.js';
import { initialState, reduce, resolvePolicy } from '../src/core/index.js';
import { loadFixture } from '../test/fixtures/replay.js';

const N = Number(process.argv[2] ?? 20);
const ROUNDS = Number(process.argv[3] ?? 5);
/** `--filtered`: forward only what `mayConcern` lets through, as NamespaceSource does. */
const FILTERED = process.argv.includes('--filtered');
const fixture = loadFixture('update-to-2');
const base = JSON.stringify(fixture.observations);

/** The fixture's observations for Deployment `name` (names and UIDs made unique). */
function copyFor(i: number, name: string): Observation[] {
  const suffix = i.toString(16).padStart(2, '0');
  const text = base
    .replace(/"web"/g, `"${name}"`)
    .replace(/"web-/g, `"${name}-`)
    .replace(/\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{10})[0-9a-f]{2}\b/g, `$1${suffix}`);
  return JSON.parse(text) as Observation[];
}

const names = Array.from({ length: N }, (_, i) => `svc${i}`);
const copies = names.map((n, i) => copyFor(i, n));
// Interleave the copies by time, as one namespace watch would see them.
const stream = copies
  .flatMap((obs, c) => obs.map((o, k) => ({ o, c, k })))
  .sort((a, b) => a.o.at - b.o.at || a.k - b.k || a.c - b.c)
  .map(({ o, c }) => ({ obs: { ...o, at: o.at + fixture.t0 } as Observation, owner: c }));
const isObject = (o: Observation) => 'kind' in o;

function run(): { ms: number; events: number; verdicts: number; digest: string } {
  // One hash per reducer: what each tracker emits, independent of how trackers interleave.
  const hashes = names.map(() => createHash('sha256'));
  const policy = resolvePolicy();
  let states: RolloutState[] = names.map((name) => initialState({ ...fixture.target, name }, policy, fixture.t0));
  let events = 0;
  const start = performance.now();
  for (const { obs, owner } of stream) {
    // Watch events go to every tracker; ticks and `synced` only to their own.
    states = states.map((s, i) => {
      if (!isObject(obs) && i !== owner) return s;
      if (FILTERED && 'kind' in obs && !mayConcern(names[i], obs.type, obs.kind, obs.object, 'Deployment')) return s;
      const [next, out] = reduce(s, obs);
      events += out.length;
      for (const e of out) hashes[i].update(`${JSON.stringify(e)}\n`);
      return next;
    });
  }
  const ms = performance.now() - start;
  return {
    ms,
    events,
    digest: createHash('sha256')
      .update(hashes.map((h) => h.digest('hex')).join())
      .digest('hex')
      .slice(0, 16),
    verdicts: states.filter((s) => s.verdict?.outcome === 'succeeded').length,
  };
}

run(); // warm-up
const times: number[] = [];
let last = run();
for (let r = 0; r < ROUNDS; r++) {
  last = run();
  times.push(last.ms);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const objects = stream.filter(({ obs }) => isObject(obs)).length;
const deliveries = objects * N + (stream.length - objects);
console.log(
  `${FILTERED ? 'source-filtered: ' : ''}${N} reducers × ${stream.length} observations = ${deliveries} deliveries; ${last.events} events, ${last.verdicts}/${N} succeeded; events digest ${last.digest}`,
);
console.log(
  `median ${median.toFixed(1)} ms/run: ${((median * 1000) / deliveries).toFixed(2)} µs/delivery, ${((median * 1000) / objects).toFixed(1)} µs/watch observation (all ${N} reducers)`,
);
