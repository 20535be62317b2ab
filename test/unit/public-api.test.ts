/**
 * Pins the package's public API (`.` = src/index.ts): a change to this list must be deliberate
 * (update the list, the README's library section, docs/library.md and the changelog of the release together).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as api from '../../src/index.js';

const VALUES = [
  'FAILURE_CLASSES',
  'JSON_SCHEMA_VERSION',
  'JsonSink',
  'MemorySink',
  'PlainSink',
  'RolloutFailedError',
  'RolloutTraceError',
  'TtySink',
  'assertSucceeded',
  'createSink',
  'formatVerdict',
  'htmlReport',
  'isRolloutFailedError',
  'isRolloutTraceError',
  'junitReport',
  'markdownSummary',
  'pipeToSink',
  'trackRollout',
  'trackRollouts',
  'trackWorkload',
];

const TYPES = [
  'ClassPolicy',
  'Classifier',
  'ClassifierInput',
  'ClassifierResult',
  'CustomClass',
  'DeploymentRef',
  'EventBase',
  'EventDigest',
  'FailureClass',
  'FormatVerdictOptions',
  'JsonLine',
  'LogFollowOptions',
  'LogOptions',
  'LogTail',
  'MultiTracking',
  'NamespacedName',
  'OutputFormat',
  'PodState',
  'PodTiming',
  'Policy',
  'PolicyOverrides',
  'Problem',
  'ProblemClass',
  'RolloutEvent',
  'RolloutEventOf',
  'RolloutFailure',
  'RolloutPhase',
  'RolloutTimings',
  'RolloutTraceErrorCode',
  'Sink',
  'SinkOptions',
  'StartPhase',
  'SuccessCriterion',
  'TrackOptions',
  'Tracking',
  'Verdict',
  'WorkloadKind',
  'WorkloadRef',
];

/** The names src/index.ts exports, read from its `export { ... } from` / `export type { ... } from` lists. */
function exportedNames(source: string): { values: string[]; types: string[] } {
  const values: string[] = [];
  const types: string[] = [];
  for (const m of source.matchAll(/export (type )?\{([^}]*)\} from/g)) {
    for (const raw of m[2]!.split(',')) {
      const item = raw.trim();
      if (!item) continue;
      const isType = m[1] !== undefined || item.startsWith('type ');
      (isType ? types : values).push(
        item
          .replace(/^type /, '')
          .split(' as ')
          .at(-1)!
          .trim(),
      );
    }
  }
  return { values: values.sort(), types: types.sort() };
}

const sorted = (xs: string[]) => [...xs].sort();

describe('public API of rollout-trace', () => {
  const source = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');

  it('exports exactly these values at run time', () => {
    assert.deepEqual(Object.keys(api).sort(), sorted(VALUES));
  });

  it('declares exactly these values and types in src/index.ts (no wildcard re-export)', () => {
    assert.doesNotMatch(source, /export (type )?\*/, 'a wildcard re-export would publish whatever a module adds');
    const { values, types } = exportedNames(source);
    assert.deepEqual(values, sorted(VALUES));
    assert.deepEqual(types, sorted(TYPES));
  });

  it('keeps the pure core internal', () => {
    for (const internal of ['reduce', 'initialState', 'diagnosePod', 'trackRolloutWith', 'trackRolloutsWith']) {
      assert.equal(internal in api, false, `${internal} is internal`);
    }
  });
});
