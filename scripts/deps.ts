/**
 * `npm run deps`: the import graph of src/, from the TypeScript sources (value and type imports),
 * checked: no circle in src/ through value imports, none at all in src/core/, and no import into src/core/kinds/ from a file the kinds import (the
 * kind modules are leaves above the shared primitives; the pipeline above them reaches a kind
 * only through the registry). Prints src/core's floors (`--floors FOLDER` for another folder,
 * `--quiet` for the figures only); exits 1 when a check fails.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { circles, type Edge, floors, type Graph, importGraph, reachable } from './import-graph.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KINDS = 'src/core/kinds/';

const kindOf = (e: Edge): string => (e.type ? 'type' : 'value');
const short = (f: string, folder: string): string => (f.startsWith(folder) ? f.slice(folder.length) : f);

/**
 * The circles of src/: each with how many of its files still form a circle through value imports
 * alone. A circle fails the check when value imports close it, or when it is in src/core/ (types
 * included); a circle of type imports elsewhere (erased at run time) is listed as a warning.
 */
function circleLines(g: Graph): { lines: string[]; failing: number; warned: number } {
  const byValue = circles(g, (e) => !e.type);
  let failing = 0;
  const lines = circles(g).map((c) => {
    const value = byValue.filter((v) => v.every((f) => c.includes(f))).reduce((n, v) => n + v.length, 0);
    const fails = value > 0 || c.some((f) => f.startsWith('src/core/'));
    if (fails) failing++;
    return `  ${fails ? 'circle' : 'warning: type-only circle'} of ${c.length} files (${value} through value imports): ${c.join(' ')}`;
  });
  return { lines, failing, warned: lines.length - failing };
}

/** The imports into kinds/ from files the kinds import, directly or not. */
function fromBelow(g: Graph): Edge[] {
  const kinds = g.files.filter((f) => f.startsWith(KINDS));
  const below = reachable(g, kinds);
  return g.edges.filter((e) => e.to.startsWith(KINDS) && !e.from.startsWith(KINDS) && below.has(e.from));
}

function floorLines(g: Graph, folder: string): { lines: string[]; summary: string } {
  const inside = (f: string): boolean => f.startsWith(folder);
  const { floor, up } = floors(g, inside);
  const levels: string[][] = [];
  for (const [f, n] of floor) {
    levels[n] ??= [];
    levels[n].push(short(f, folder));
  }
  const lines = levels.map((fs, n) => `  floor ${String(n).padStart(2)}: ${fs.sort().join(' ')}`).reverse();
  for (const e of up) lines.push(`  runs back up: ${short(e.from, folder)} -> ${short(e.to, folder)} (${kindOf(e)})`);
  const kindFloors = [...floor].filter(([f]) => f.startsWith(KINDS)).map(([, n]) => n);
  const kindsAt =
    folder === 'src/core/' && kindFloors.length ? `, kinds/ on floors ${Math.min(...kindFloors)}-${Math.max(...kindFloors)}` : '';
  const summary = `${folder}: ${floor.size} files on ${levels.length} floors, ${up.length} imports running back up${kindsAt}`;
  return { lines, summary };
}

function main(): number {
  const args = process.argv.slice(2);
  const quiet = args.includes('--quiet');
  const at = args.indexOf('--floors');
  const folder = at >= 0 && args[at + 1] ? args[at + 1]!.replace(/\/?$/, '/') : 'src/core/';
  const g = importGraph(REPO, 'src');
  const types = g.edges.filter((e) => e.type).length;
  const out: string[] = [`src: ${g.files.length} files, ${g.edges.length} imports (${g.edges.length - types} value, ${types} type only)`];
  const circled = circleLines(g);
  out.push(`circles in src: ${circled.failing} (and ${circled.warned} of type imports only outside src/core/)`, ...circled.lines);
  const below = fromBelow(g);
  out.push(`imports into ${KINDS} from below (from files the kinds import): ${below.length}`);
  for (const e of below) out.push(`  ${e.from} -> ${e.to} (${kindOf(e)})`);
  const f = floorLines(g, folder);
  out.push(f.summary, ...(quiet ? [] : f.lines));
  process.stdout.write(`${out.join('\n')}\n`);
  const failed = circled.failing > 0 || below.length > 0;
  if (failed) process.stderr.write('deps: the import graph has a circle or an import from below into src/core/kinds/ (see above)\n');
  return failed ? 1 : 0;
}

process.exit(main());
