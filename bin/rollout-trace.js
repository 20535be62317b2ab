#!/usr/bin/env node
// Runs the compiled CLI (dist/, from `npm run build`) whenever it is there and not older than the
// TypeScript source: the bundle (dist/cli/rollout-trace.mjs, one file instead of client-node's
// ~3,000 modules) or else tsc's output. In a development checkout without a fresh build, runs the
// TypeScript source through tsx so stale code never runs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

// Two V8 flags (docs/performance.md, "A smaller young generation" and "A smaller inlining budget").
// The young generation: V8 starts it with 1 MB semi-spaces and doubles them (up to 16 MB) when
// much of it survives a scavenge. A trace allocates a parsed object per watch event and keeps few
// of them, so it is kept at its first size. TurboFan's cumulative inlining budget is halved: a
// trace runs many mid-sized functions a few thousand times each, and compiling them with all the
// code they call inlined cost more CPU (on V8's worker threads) than the inlining saved.
// The flags are set here, at run time, and not on the shebang line: V8 checks the flags a code cache
// was made with, and Node's own modules (tls, https, streams) were cached with none, so with a
// flag every one of them loaded afterwards is compiled again (~20 ms of every start). Those a
// trace loads are loaded first (`test/integration/cli/bundle.test.ts` checks the list).
const TRACE_BUILTINS = [
  'http',
  'https',
  'zlib',
  'child_process',
  'worker_threads',
  'vm',
  'dgram',
  'perf_hooks',
  'os',
  'string_decoder',
  'stream/promises',
  'v8',
];
const require = nodeModule.createRequire(import.meta.url);
for (const name of TRACE_BUILTINS) require(`node:${name}`);
v8.setFlagsFromString('--semi-space-growth-factor=1 --max-inlined-bytecode-size-cumulative=460');

// V8 caches the code it compiles for the bundle in the OS temp folder, so later runs skip compiling
// it (Node's compile cache; NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1 turns it off).
try {
  nodeModule.enableCompileCache?.();
} catch {
  // an old Node or an unwritable temp folder: run without the cache
}

const source = new URL('../src/cli/main.ts', import.meta.url);
const builds = [new URL('../dist/cli/rollout-trace.mjs', import.meta.url), new URL('../dist/cli/main.js', import.meta.url)];

/** Newest modification time (ms) of the files under a directory. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The first build that exists and is not older than the source (a published package has no src/). */
function freshBuild() {
  const src = fileURLToPath(new URL('../src', import.meta.url));
  const sourceTime = existsSync(src) ? newest(src) : 0;
  return builds.find((b) => existsSync(fileURLToPath(b)) && sourceTime <= statSync(fileURLToPath(b)).mtimeMs);
}

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

const build = freshBuild();
// The bench (and whoever sets it) measures the build, never the sources through tsx.
if (!build && process.env.ROLLOUT_TRACE_REQUIRE_BUILD === '1') {
  process.stderr.write(
    'rollout-trace: ROLLOUT_TRACE_REQUIRE_BUILD=1 and dist/ is missing or older than src/ (sources changed after the build): run npm run build\n',
  );
  process.exit(4);
}
const register = build ? undefined : await tsxRegister();
if (register) {
  register();
  await import(source.href);
} else {
  await import((build ?? builds[1]).href);
}
