/**
 * The flags are documented in two places by hand, the flags table of docs/cli.md and `--help`: both
 * must list exactly the options the parser accepts (src/cli/args.ts OPTIONS), with the same short
 * forms, and docs/cli.md must list exactly the failure classes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OPTIONS } from '../../../src/cli/args.js';
import { helpText } from '../../../src/cli/help.js';
import { FAILURE_CLASSES } from '../../../src/core/index.js';

const CLI_DOC = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');

/** The text between a heading and the next heading of any level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/cli.md has a "${heading}" section`);
  const rest = markdown.slice(start + heading.length + 2);
  const next = rest.search(/\n#{1,6} /);
  return next < 0 ? rest : rest.slice(0, next);
}

/** Every `--long` flag and every `-s, --long` pair in `text`. */
function flagsIn(text: string): { long: string[]; pairs: string[] } {
  const long = [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!))].sort();
  const pairs = [...new Set([...text.matchAll(/(?<![\w-])-([a-z]), --([a-z][a-z-]*)/g)].map((m) => `-${m[1]}, --${m[2]}`))].sort();
  return { long, pairs };
}

const expectedLong = Object.keys(OPTIONS).sort();
const expectedPairs = Object.entries(OPTIONS)
  .filter(([, o]) => 'short' in o)
  .map(([name, o]) => `-${(o as { short: string }).short}, --${name}`)
  .sort();

describe('CLI flags documentation', () => {
  it("docs/cli.md's flags table lists exactly the parser's options, with their short forms", () => {
    const table = section(CLI_DOC, '## Flags')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split(' | ')[0]!)
      .join('\n');
    const { long, pairs } = flagsIn(table);
    assert.deepEqual(long, expectedLong);
    assert.deepEqual(pairs, expectedPairs);
  });

  it("--help's Flags section lists exactly the parser's options, with their short forms", () => {
    const help = helpText();
    const flags = help.slice(help.indexOf('\nFlags:\n'), help.indexOf('\nFailure classes:\n'));
    const firstColumn = flags
      .split('\n')
      .map((l) => /^\s+(-\w, )?--[a-z-]+/.exec(l)?.[0] ?? '')
      .join('\n');
    const { long, pairs } = flagsIn(firstColumn);
    assert.deepEqual(long, expectedLong);
    assert.deepEqual(pairs, expectedPairs);
  });

  it('docs/cli.md lists exactly the failure classes', () => {
    const m = /Failure classes: ([^.]*)\./.exec(section(CLI_DOC, '## Flags'));
    assert.ok(m, 'docs/cli.md names the failure classes under Flags');
    const listed = [...m[1]!.matchAll(/`([a-z-]+)`/g)].map((x) => x[1]!);
    assert.deepEqual(listed.sort(), [...FAILURE_CLASSES].sort());
  });
});
