/**
 * A node:test reporter (`--test-reporter=./scripts/test-timings.ts`) that writes one JSON line per
 * finished test (`{ "test": { file, line, name, outcome, ms } }`) and, at the end, one per test file
 * (`{ "file": { file, ms } }`: the time of its top-level tests and suites, which run one after the
 * other: the file's own time, whatever ran beside it). `npm test` prints the slowest files from it; the stress command
 * (scripts/stress.ts) adds up pass rates over its runs.
 */

/** One finished test. */
export interface TestRecord {
  file: string;
  line: number;
  /** The test's name, after the names of the suites around it (`suite › test`). */
  name: string;
  outcome: 'pass' | 'fail' | 'skip';
  ms: number;
}

/** One test file's time (its top-level tests and suites, added up). */
export interface FileRecord {
  file: string;
  ms: number;
}

interface TestEventData {
  name: string;
  nesting: number;
  file?: string;
  line?: number;
  details?: { duration_ms?: number };
  skip?: string | boolean;
  todo?: string | boolean;
}

interface TestEvent {
  type: string;
  data: TestEventData;
}

/** The reporter: node:test hands it the run's events and writes what it yields. */
export default async function* timings(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  /** file -> the time of its top-level tests and suites, which run one after the other. */
  const spent = new Map<string, number>();
  /** file -> the names of the suites open at each nesting level. */
  const open = new Map<string, string[]>();
  for await (const e of source) {
    const file = e.data.file;
    if (file === undefined) continue;
    if (e.type === 'test:start') {
      const path = open.get(file) ?? [];
      path.length = e.data.nesting;
      path.push(e.data.name);
      open.set(file, path);
    } else if (e.type === 'test:pass' || e.type === 'test:fail') {
      const ms = Math.round(e.data.details?.duration_ms ?? 0);
      if (e.data.nesting === 0) spent.set(file, (spent.get(file) ?? 0) + ms);
      const suites = (open.get(file) ?? []).slice(0, e.data.nesting);
      const skipped = e.data.skip !== undefined || e.data.todo !== undefined;
      const record: TestRecord = {
        file,
        line: e.data.line ?? 0,
        name: [...suites, e.data.name].join(' › '),
        outcome: e.type === 'test:fail' ? 'fail' : skipped ? 'skip' : 'pass',
        ms,
      };
      yield `${JSON.stringify({ test: record })}\n`;
    }
  }
  for (const [file, ms] of spent) yield `${JSON.stringify({ file: { file, ms } })}\n`;
}
