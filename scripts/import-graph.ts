/**
 * The import graph of a source tree, read from the TypeScript sources (no build): which file
 * imports which, by a value import or only for types, its circles and its floors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import of one file by another: `type` when it brings in types only (erased at run time). */
export interface Edge {
  from: string;
  to: string;
  type: boolean;
}

/** The files of a tree (paths relative to the repository) and their imports inside it. */
export interface Graph {
  files: string[];
  edges: Edge[];
  /** Each file's imports, one edge per imported file (a value import wins over a type import). */
  out: Map<string, Edge[]>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x.js` is `./x.ts`, `./x` may be `./x/index.ts`), if in `known`. */
function resolveSpecifier(from: string, spec: string, known: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = join(dirname(from), spec).replace(/\.js$/, '');
  return [`${base}.ts`, join(base, 'index.ts')].find((p) => known.has(p));
}

function typeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function typeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** The specifiers a file imports or re-exports, each with whether only types come through it. */
function importsOf(path: string): Array<{ spec: string; type: boolean }> {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Array<{ spec: string; type: boolean }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, type: typeOnlyImport(node) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ spec: node.moduleSpecifier.text, type: typeOnlyExport(node) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ spec: node.argument.literal.text, type: true });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push({ spec: arg.text, type: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The import graph of every `.ts` file under `root` (relative to `repo`). */
export function importGraph(repo: string, root: string): Graph {
  const files = sourceFiles(resolve(repo, root))
    .map((p) => relative(repo, p))
    .sort();
  const known = new Set(files);
  const out = new Map<string, Edge[]>();
  for (const from of files) {
    const byTarget = new Map<string, Edge>();
    for (const { spec, type } of importsOf(join(repo, from))) {
      const to = resolveSpecifier(from, spec, known);
      if (!to || to === from) continue;
      const seen = byTarget.get(to);
      byTarget.set(to, { from, to, type: (seen?.type ?? true) && type });
    }
    out.set(
      from,
      [...byTarget.values()].sort((a, b) => a.to.localeCompare(b.to)),
    );
  }
  return { files, edges: [...out.values()].flat(), out };
}

/** The strongly connected components of more than one file (Tarjan), over `edges` kept by `keep`. */
export function circles(g: Graph, keep: (e: Edge) => boolean = () => true): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const e of g.out.get(v) ?? []) {
      if (!keep(e)) continue;
      if (!index.has(e.to)) {
        connect(e.to);
        low.set(v, Math.min(low.get(v)!, low.get(e.to)!));
      } else if (onStack.has(e.to)) low.set(v, Math.min(low.get(v)!, index.get(e.to)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const f of g.files) if (!index.has(f)) connect(f);
  return found;
}

/**
 * Floors of the files `inside` a folder, over the imports among them: a file stands one floor
 * above the highest file it imports (floor 0 imports none). An import that closes a circle cannot
 * go down: the depth-first walk (files in name order) sets it aside as running back up.
 */
export function floors(g: Graph, inside: (f: string) => boolean): { floor: Map<string, number>; up: Edge[] } {
  const state = new Map<string, 'open' | 'done'>();
  const floor = new Map<string, number>();
  const up: Edge[] = [];
  const place = (v: string): number => {
    state.set(v, 'open');
    let mine = 0;
    for (const e of g.out.get(v) ?? []) {
      if (!inside(e.to)) continue;
      const s = state.get(e.to);
      if (s === 'open') up.push(e);
      else mine = Math.max(mine, 1 + (s === 'done' ? floor.get(e.to)! : place(e.to)));
    }
    state.set(v, 'done');
    floor.set(v, mine);
    return mine;
  };
  for (const f of g.files) if (inside(f) && !state.has(f)) place(f);
  return { floor, up };
}

/** Every file `from` reaches through its imports (itself excluded). */
export function reachable(g: Graph, from: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  while (todo.length > 0) {
    for (const e of g.out.get(todo.pop()!) ?? []) {
      if (seen.has(e.to)) continue;
      seen.add(e.to);
      todo.push(e.to);
    }
  }
  return seen;
}
