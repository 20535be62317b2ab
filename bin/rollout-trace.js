#!/usr/bin/env node
// Runs the compiled CLI (dist/, from `npm run build`) whenever it is there and not older than the
// TypeScript source: compiled code starts several times faster than tsx. In a development checkout
// without a fresh build, runs the TypeScript source through tsx so stale code never runs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);

/** Newest modification time (ms) of the files under a directory. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function compiledIsFresh() {
  const main = fileURLToPath(compiled);
  if (!existsSync(main)) return false;
  const src = fileURLToPath(new URL('../src', import.meta.url));
  return !existsSync(src) || newest(src) <= statSync(main).mtimeMs;
}

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

const register = compiledIsFresh() ? undefined : await tsxRegister();
if (register) {
  register();
  await import(source.href);
} else {
  await import(compiled.href);
}
