/**
 * Barrels are the boundaries (CONTRIBUTING.md): a file of one `src/` folder imports another
 * folder only through its `index.ts` (`../core/index.js`, never `../core/policy.js`); inside a
 * folder (subfolders included), it imports the file. `src/cli/` has no barrel, so nothing imports
 * it. Files directly in `src/` are shared leaves (`errors.ts`, `long-timer.ts`) and the package's
 * public API (`index.ts`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The `src/` folder a file belongs to (`core` for src/core/diagnose/pod.ts), '' for a file directly in src/. */
function folderOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : '';
}

/** `importer: 'specifier'` for every relative import of `file` that reaches past another folder's index.ts. */
function barrelViolations(file: string, text: string): string[] {
  const from = folderOf(file);
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .filter(({ fileName }) => {
      const target = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '.ts');
      const to = folderOf(target);
      return to !== '' && to !== from && target !== path.join(SRC, to, 'index.ts');
    })
    .map(({ fileName }) => `${path.relative(SRC, file)}: '${fileName}'`);
}

/**
 * The imports allowed past a barrel, each with its reason. src/report/index.ts loads ora (the
 * terminal sink) for `createSink`; the CLI loads ora only when it draws a terminal tree
 * (test/unit/cli/startup.test.ts), so its sink module and its `--report` writer take the report's
 * files directly.
 */
const EXCEPTIONS = [
  "cli/sink.ts: '../report/sink.js'",
  "cli/sink.ts: '../report/sink-factory.js'",
  "cli/sink.ts: '../report/tty-sink.js'",
  "cli/run-outputs.ts: '../report/ci-summary.js'",
  "cli/run-outputs.ts: '../report/html-report.js'",
];

test('an import of another src/ folder goes through its index.ts', () => {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 50, `found the sources (${files.length} files)`);
  const found = files.flatMap((f) => barrelViolations(path.join(SRC, f), readFileSync(path.join(SRC, f), 'utf8')));
  const violations = found.filter((v) => !EXCEPTIONS.includes(v));
  assert.deepEqual(violations, [], `import these through the folder's index.ts (export what is needed there):\n${violations.join('\n')}`);
  const stale = EXCEPTIONS.filter((e) => !found.includes(e));
  assert.deepEqual(stale, [], `these imports are gone: remove them from EXCEPTIONS in test/unit/barrels.test.ts:\n${stale.join('\n')}`);
});

test('the check catches a deep import, a re-export, a dynamic import and an import of src/cli', () => {
  const file = path.join(SRC, 'pulumi', 'example.ts');
  const text = [
    "import { reduce } from '../core/reducer.js';",
    "export { rawGet } from '../cluster/raw-get.js';",
    "const tracker = await import('../track/tracker.js');",
    "import { run } from '../cli/run.js';",
    "import { resolvePolicy } from '../core/index.js';",
    "import { userMessage } from './errors.js';",
    "import { RolloutTraceError } from '../errors.js';",
    '// not an import: "../report/sink.js"',
  ].join('\n');
  assert.deepEqual(barrelViolations(file, text), [
    "pulumi/example.ts: '../core/reducer.js'",
    "pulumi/example.ts: '../cluster/raw-get.js'",
    "pulumi/example.ts: '../track/tracker.js'",
    "pulumi/example.ts: '../cli/run.js'",
  ]);
  assert.deepEqual(barrelViolations(path.join(SRC, 'core', 'diagnose', 'pod.ts'), "import { k } from '../k8s.js';"), []);
});
