/**
 * The package's size and file count as the README states them ("614 kB packed (2.0 MB unpacked),
 * 254 files"), taken from `npm pack --dry-run --json`, so they cannot go stale:
 *
 *   node --import tsx scripts/package-figures.ts --check   # exit 1, naming the stale figure, when one is
 *   node --import tsx scripts/package-figures.ts --write   # rewrite them
 *
 * `npm pack` runs `prepack`, which deletes `dist/` and builds it: the file list depends on the build
 * (without `dist/` the package has 4 files), so the figures come from a real build, never from
 * `--ignore-scripts` over a `dist/` that may be stale. `npm run lint` runs `--check`, which lets a
 * size be {@link SIZE_TOLERANCE} off (the file count must agree).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** What `npm pack --dry-run --json` says of the tarball. */
export interface PackFigures {
  /** Bytes of the .tgz. */
  size: number;
  /** Bytes of its files. */
  unpackedSize: number;
  /** Its number of files. */
  entryCount: number;
}

/** One statement of the figures in a document. */
export interface FigureMatch {
  /** 1-based line number. */
  line: number;
  /** The text as written, e.g. `614 kB packed (2.0 MB unpacked), 254 files`. */
  text: string;
}

const FIGURES = /\b\d+(?:\.\d+)? [kM]B packed \(\d+(?:\.\d+)? [kM]B unpacked\), \d+ files\b/g;

/** Bytes as npm prints them (decimal units), kB without decimals, MB with one. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1000) return `${Math.round(bytes / 1000)} kB`;
  return `${bytes} B`;
}

/** The figures as the documents write them. */
export function formatFigures(f: PackFigures): string {
  return `${formatBytes(f.size)} packed (${formatBytes(f.unpackedSize)} unpacked), ${f.entryCount} files`;
}

/** How far a stated size may be from the pack's before it is stale: a code change moves it a little. */
export const SIZE_TOLERANCE = 0.02;

/** Bytes of a size as written (`586 kB`, `1.9 MB`). */
function bytesOf(value: string, unit: string): number {
  return Number(value) * (unit === 'MB' ? 1_000_000 : 1000);
}

/**
 * Whether a statement still holds: the same file count, and each size within
 * {@link SIZE_TOLERANCE} of the pack's (or written as the pack's would be).
 */
export function statementHolds(text: string, f: PackFigures): boolean {
  if (text === formatFigures(f)) return true;
  const m = /^(\d+(?:\.\d+)?) ([kM])B packed \((\d+(?:\.\d+)?) ([kM])B unpacked\), (\d+) files$/.exec(text);
  if (!m || Number(m[5]) !== f.entryCount) return false;
  const near = (stated: number, actual: number) => Math.abs(stated - actual) <= actual * SIZE_TOLERANCE;
  return near(bytesOf(m[1]!, `${m[2]}B`), f.size) && near(bytesOf(m[3]!, `${m[4]}B`), f.unpackedSize);
}

/** Reads the one package of `npm pack --dry-run --json`'s output (script output before it is skipped). */
export function parsePackJson(stdout: string): PackFigures {
  const start = stdout.search(/^\[/m);
  if (start < 0) throw new Error(`npm pack --dry-run --json printed no JSON array: ${stdout.slice(0, 200)}`);
  const parsed = JSON.parse(stdout.slice(start)) as Partial<PackFigures>[];
  const pkg = parsed[0];
  if (
    parsed.length !== 1 ||
    !pkg ||
    typeof pkg.size !== 'number' ||
    typeof pkg.unpackedSize !== 'number' ||
    typeof pkg.entryCount !== 'number'
  ) {
    throw new Error('npm pack --dry-run --json did not describe exactly one package with size, unpackedSize and entryCount');
  }
  return { size: pkg.size, unpackedSize: pkg.unpackedSize, entryCount: pkg.entryCount };
}

/** Every statement of the figures in `text`. */
export function findFigures(text: string): FigureMatch[] {
  return [...text.matchAll(FIGURES)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, text: m[0] }));
}

/** `text` with every statement of the figures replaced by `figures`. */
export function rewriteFigures(text: string, figures: PackFigures): string {
  return text.replace(FIGURES, formatFigures(figures));
}

/** The one-paragraph message for a stale statement, naming it and the command that fixes it. */
export function staleMessage(file: string, match: FigureMatch, figures: PackFigures): string {
  return (
    `${file}:${match.line} says the package is "${match.text}", but npm pack --dry-run now gives "${formatFigures(figures)}". ` +
    'Run `node --import tsx scripts/package-figures.ts --write` to update it (and commit the change).'
  );
}

/** The Markdown files that may state the figures: README.md and docs/ (recursively). */
export function documents(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
    );
  return ['README.md', ...walk('docs')];
}

async function packFigures(root: string): Promise<PackFigures> {
  // --offline: no registry request; prepack builds dist/ afresh, as for a real pack.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--offline'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  return parsePackJson(stdout);
}

async function main(argv: string[]): Promise<number> {
  const mode = argv[0];
  if (argv.length !== 1 || (mode !== '--check' && mode !== '--write')) {
    process.stderr.write('usage: package-figures.ts --check | --write\n');
    return 2;
  }
  const root = fileURLToPath(new URL('..', import.meta.url));
  const figures = await packFigures(root);
  const stated = documents(root)
    .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }))
    .filter((d) => findFigures(d.text).length > 0);
  if (stated.length === 0) {
    process.stderr.write('No document states the package figures ("N kB packed (N MB unpacked), N files"): README.md should.\n');
    return 1;
  }
  const expected = formatFigures(figures);
  if (mode === '--write') {
    for (const d of stated) writeFileSync(path.join(root, d.file), rewriteFigures(d.text, figures));
    process.stdout.write(`package figures: ${expected} (${stated.map((d) => d.file).join(', ')})\n`);
    return 0;
  }
  const stale = stated.flatMap((d) =>
    findFigures(d.text).flatMap((m) => (statementHolds(m.text, figures) ? [] : [staleMessage(d.file, m, figures)])),
  );
  for (const message of stale) process.stderr.write(`${message}\n`);
  return stale.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`package-figures: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
