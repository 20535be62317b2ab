/**
 * Where the program declared a workload: the first frame of the stack, at the resource's
 * construction, past the Pulumi SDK's and the kubernetes SDK's own frames (the frame the SDK
 * itself sends the engine as the registration's source position: sdk/nodejs resource.ts
 * `Resource.stackTrace`). Parsed from `new Error().stack`, as the SDK does, so a TypeScript
 * program's source map (ts-node's) applies.
 */
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A position in the program's source. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

const FRAME = /^\s*at (?:.* \()?(?<file>.+?):(?<line>\d+):(?<column>\d+)\)?$/;

/**
 * The declaring frame in `stack` (`new Error().stack`): the first one outside a Pulumi package
 * (`node_modules/@pulumi/`), `node:` internals and `ownRoot` (this library).
 */
export function declarationIn(stack: string, ownRoot: string): SourcePosition | undefined {
  const frames = stack
    .split('\n')
    .slice(1)
    .map((l) => FRAME.exec(l)?.groups)
    .map((g) =>
      g
        ? { file: g.file!.startsWith('file://') ? fileURLToPath(g.file!) : g.file!, line: Number(g.line), column: Number(g.column) }
        : undefined,
    );
  // Past this library's frames and the SDKs' constructors (their async frames come later, after
  // the program's: the first frame that is neither is the program's).
  const sdk = /[\\/]node_modules[\\/]@pulumi[\\/]/;
  return frames.find(
    (f) => f !== undefined && !f.file.startsWith('node:') && !f.file.startsWith(ownRoot) && !sdk.test(f.file) && isAbsolute(f.file),
  );
}

/** This library's own folder (src/ or dist/): its frames are never the declaration. */
const OWN_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the resource being constructed now was declared (call it from its transform). */
export function declaredHere(): SourcePosition | undefined {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 100;
    return declarationIn(new Error().stack ?? '', OWN_ROOT);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** `file:line`, the file relative to `base` (the repository on GitHub Actions, else the working directory) when it is under it. */
export function positionWords(p: SourcePosition, base: string): string {
  const rel = relative(base, p.file);
  return `${rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p.file}:${p.line}`;
}

/**
 * A GitHub Actions `::error` workflow command on the declaring line (its properties and message
 * escaped as the runner expects: `%`, CR, LF, and in properties `:` and `,`).
 */
export function githubAnnotation(p: SourcePosition, base: string, title: string, message: string): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const file = positionWords(p, base).replace(/:\d+$/, '');
  return `::error file=${prop(file)},line=${p.line},col=${p.column},title=${prop(title)}::${data(message)}`;
}
