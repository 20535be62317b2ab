#!/usr/bin/env node
// In a development checkout (src/ present, tsx installed) run the TypeScript source, so a stale
// dist/ never runs old code; in the published package (dist/ and bin/ only) run the compiled CLI.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

const register = existsSync(fileURLToPath(source)) ? await tsxRegister() : undefined;
if (register) {
  register();
  await import(source.href);
} else {
  await import(compiled.href);
}
