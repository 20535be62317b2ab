/**
 * The Markdown files point only at what exists: every relative link, and every repository path named
 * in backticks (`src/cli/args.ts`, `npm test -- test/faults/`), names a file or folder of this
 * checkout. A path counts when its first segment is an entry of the repository's root or of the
 * Markdown file's own folder (`kubelet/pods.ts` in local-cluster/README.md); globs, placeholders
 * and build output (`dist/`) are not checked; `x.js` may name `x.ts`, as TypeScript's imports do. Fenced code blocks (transcripts, commands' output) are
 * skipped.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROOT_ENTRIES = new Set(readdirSync(ROOT).filter((e) => !['node_modules', 'dist', '.git'].includes(e)));

/** README.md, CONTRIBUTING.md, docs/**, src/**\/README.md and local-cluster/*.md, relative to the root. */
function markdownFiles(): string[] {
  const under = (dir: string, keep: (f: string) => boolean): string[] =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => !f.split(path.sep).includes('node_modules') && keep(f))
      .map((f) => path.join(dir, f));
  return [
    'README.md',
    'CONTRIBUTING.md',
    ...under('docs', (f) => f.endsWith('.md')),
    ...under('src', (f) => path.basename(f) === 'README.md'),
    ...under('local-cluster', (f) => f.endsWith('.md') && !f.includes(path.sep)),
  ];
}

/** Each line of `markdown` outside fenced code blocks, with its 1-based number. */
function proseLines(markdown: string): { text: string; line: number }[] {
  let fenced = false;
  return markdown.split('\n').flatMap((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ text, line: i + 1 }];
  });
}

/** Relative link targets on a line, without their `#fragment`; web, mail and same-page links are left out. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((t) => !/^([a-z]+:|#)/i.test(t))
    .map((t) => decodeURIComponent(t.split('#')[0]!));
}

/** Path-like words inside inline code spans: `a/b.ts`, `dir/`, possibly inside a command. */
function backtickPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return spans
    .flatMap((s) => s.split(/\s+/))
    .map((w) => w.replace(/^['"(]+|['"),;:.]+$/g, '').replace(/(:\d+|#L\d+(-L?\d+)?)$/, ''))
    .filter((w) => /^[\w.-]+\/[\w./-]*$/.test(w) && !w.includes('..') && !w.startsWith('./'));
}

/** Whether `p`, named in the file `md`, is a repository path to check (its first segment exists). */
function checked(p: string, md: string): boolean {
  const first = p.split('/')[0]!;
  // Built or scratch folders (gitignored): what is in them depends on the machine, not the repository.
  if (first === 'dist' || first === 'node_modules' || first === '.tmp') return false;
  return ROOT_ENTRIES.has(first) || existsSync(path.join(ROOT, path.dirname(md), first));
}

/** Whether `p` exists under one of `dirs`; `x.js` also names `x.ts` (TypeScript's ESM import specifiers). */
function exists(p: string, dirs: string[]): boolean {
  const names = p.endsWith('.js') ? [p, p.replace(/\.js$/, '.ts')] : [p];
  return dirs.some((d) => names.some((n) => existsSync(path.join(d, n))));
}

/** Every dangling link or backticked path, as `file:line: target`. */
function dangling(): string[] {
  const found: string[] = [];
  for (const md of markdownFiles()) {
    const dir = path.join(ROOT, path.dirname(md));
    for (const { text, line } of proseLines(readFileSync(path.join(ROOT, md), 'utf8'))) {
      for (const target of linkTargets(text)) {
        if (target && !existsSync(path.resolve(dir, target))) found.push(`${md}:${line}: link (${target})`);
      }
      for (const p of backtickPaths(text)) {
        if (!checked(p, md)) continue;
        if (!exists(p, [ROOT, dir])) found.push(`${md}:${line}: \`${p}\``);
      }
    }
  }
  return found;
}

describe('Markdown links and paths', () => {
  it('finds links and paths the way the check reads them', () => {
    assert.deepEqual(linkTargets('see [a](docs/ci.md#exit-codes), [b](https://x.dev/a.md) and [c](#top)'), ['docs/ci.md']);
    assert.deepEqual(backtickPaths('run `npm test -- test/faults/` or `src/cli/args.ts:12`; not `a|b` nor `**/*.ts`'), [
      'test/faults/',
      'src/cli/args.ts',
    ]);
  });

  it('every relative link and every repository path named in backticks exists', () => {
    const missing = dangling();
    assert.deepEqual(missing, [], `dangling references in the Markdown files:\n${missing.join('\n')}`);
  });
});
