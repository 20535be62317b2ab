/**
 * Start-up cost: what the CLI loads before it knows the output format. The static import graph
 * of src/cli/main.ts (type-only imports and dynamic `import()` excluded) must not reach ora (the
 * terminal sink loads it on demand), client-node (loaded once arguments are valid, so `--help` and
 * usage errors answer at once) nor any Pulumi code.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

/** Static value imports and re-exports of a module: relative paths (as .ts) and package names. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    const spec = m[1]!;
    out.push(spec.startsWith('.') ? resolve(dirname(file), spec).replace(/\.js$/, '.ts') : spec);
  }
  return out;
}

function graph(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    if (f.endsWith('.ts')) todo.push(...staticImports(f));
  }
  return seen;
}

it('the CLI loads neither ora, client-node nor Pulumi code before it needs them', () => {
  const loaded = graph(`${SRC}/cli/main.ts`);
  const packages = [...loaded].filter((f) => !f.startsWith('/'));
  assert.ok(loaded.has(`${SRC}/report/plain-sink.ts`), 'the graph is followed (plain sink reached)');
  assert.ok(loaded.has(`${SRC}/cli/sink.ts`));
  assert.deepEqual(
    packages.filter((p) => p === 'ora' || p.startsWith('@pulumi/') || p.startsWith('@kubernetes/client-node')),
    [],
  );
  assert.ok(![...loaded].some((f) => f.includes('/src/pulumi/') || f.endsWith('/tty-sink.ts')), 'no Pulumi module, no TTY sink');
});

it("the executable runs through its shebang, with no V8 flag (one would cost Node its builtins' code cache)", () => {
  const bin = resolve(SRC, '../bin/rollout-trace.js');
  assert.equal(readFileSync(bin, 'utf8').split('\n')[0], '#!/usr/bin/env node');
  const out = execFileSync(bin, ['--version'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
  });
  assert.match(out, /^rollout-trace \d+\.\d+\.\d+/);
});

it('the executable keeps V8 young generation from growing, however much survives', () => {
  const bin = resolve(SRC, '../bin/rollout-trace.js');
  // At exit, twice 40 MB of objects that all survive their scavenges: V8 would double the
  // semi-spaces up to 16 MB (a 32 MB new space) in the first round. From the build the young
  // generation stays at its first size (a 2 MB new space); from the TypeScript source, tsx's module
  // hooks thread puts V8's flags back to their defaults until main.ts sets them again, so it may
  // grow a little before that.
  const atExit = `import v8 from 'node:v8';
    process.on('exit', () => {
      const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      const sizes = [];
      for (let round = 0; round < 2; round++) {
        const keep = [];
        for (let i = 0; i < 400000; i++) keep.push({ i, s: 'x'.repeat(40) + i });
        sizes.push(size());
      }
      process.stderr.write('new space ' + sizes.join(' then ') + '\\n');
    });`;
  const run = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(atExit)}`,
    },
  });
  const [first, second] = (/new space (\d+) then (\d+)/.exec(run.stderr) ?? []).slice(1).map(Number);
  assert.ok(first !== undefined && first > 0 && first <= 8 * 1024 * 1024, `new space ${first} bytes after 40 MB: ${run.stderr}`);
  assert.equal(second, first, 'no growth in the second round');
});

it("the executable halves TurboFan's cumulative inlining budget", () => {
  const bin = resolve(SRC, '../bin/rollout-trace.js');
  // At exit: a function that calls a 176-byte helper, which calls twelve ~340-byte functions, is
  // optimized at once with V8's inlining traced. With the default budget (920 bytes of bytecode)
  // TurboFan inlines the helper and one of the twelve; with 460 only the helper.
  const atExit = `import v8 from 'node:v8';
    process.on('exit', () => {
      v8.setFlagsFromString('--allow-natives-syntax');
      v8.setFlagsFromString('--trace-turbo-inlining');
      const step = (k) => 's += (x * ' + k + ') % 7; if (s > 1e9) s = 0;';
      const leaf = (i) => new Function('x', 'let s = 0; ' + Array.from({ length: 12 }, (_, k) => step(k + i)).join(' ') + ' return s;');
      const leaves = Array.from({ length: 12 }, (_, i) => leaf(i));
      const helper = new Function('fs', 'x', 'return ' + leaves.map((_, i) => 'fs[' + i + '](x)').join(' + ') + ';');
      const top = (x) => helper(leaves, x);
      for (let i = 0; i < 100; i++) top(i);
      eval('%PrepareFunctionForOptimization(top); %OptimizeFunctionOnNextCall(top)');
      top(1);
    });`;
  const nodeOptions = `--import=data:text/javascript,${encodeURIComponent(atExit)}`;
  const inlined = (file: string, args: string[]) => {
    const run = spawnSync(file, args, {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}`, NODE_OPTIONS: nodeOptions },
    });
    return run.stdout.split('\n').filter((l) => l.startsWith('Inlining ')).length;
  };
  const byDefault = inlined(process.execPath, ['-e', '']);
  assert.ok(byDefault >= 2, `plain Node inlines ${byDefault} functions (expected at least 2)`);
  assert.ok(inlined(bin, ['--version']) < byDefault, 'the executable inlines fewer');
});
