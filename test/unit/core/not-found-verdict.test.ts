/**
 * A timeout or cancel before the traced workload was ever found (a `--timeout` shorter than the
 * not-found grace) says so: no counts in a Deployment's words for a Job, no "0/1 pods ready" for a
 * Deployment that does not exist, and a hint at what the namespace has instead of `rollout undo`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, WorkloadKind } from '../../../src/core/index.js';
import { formatVerdict } from '../../../src/report/index.js';
import { deployment, run, T0, up, verdictOf } from './builders.js';

const timeout: Observation = { type: 'timeout', at: T0 + 3000, timeoutSeconds: 3 };

const rows: { kind: WorkloadKind; resource: string }[] = [
  { kind: 'Deployment', resource: 'deployments' },
  { kind: 'StatefulSet', resource: 'statefulsets' },
  { kind: 'DaemonSet', resource: 'daemonsets' },
  { kind: 'Job', resource: 'jobs' },
];

describe('a timeout before the workload was found', () => {
  for (const { kind, resource } of rows) {
    it(`${kind}: says it was not found, with no counts, and hints at the namespace's ${resource}`, () => {
      const v = verdictOf(run([{ type: 'synced', at: T0 + 100 }, timeout], { kind, name: 'x' }).events);
      assert.equal(v?.outcome, 'timed-out');
      assert.equal(v.summary, `timed out after 3s: ${kind} apps/x not found`);
      assert.equal(v.notFound, true);
      assert.equal(v.revision, undefined);
      assert.deepEqual(v.replicas, { desired: 0, ready: 0, updated: 0, available: 0 });
      assert.equal(v.job, undefined);
      assert.deepEqual(v.hints, [`kubectl -n apps get ${resource}`]);
      const text = formatVerdict(v, { color: false });
      assert.match(text.split('\n')[1] ?? '', /^ {2}never found · took 3\.0s$/);
      assert.doesNotMatch(text, /rollout (undo|status)|ready|revision unknown/);
    });
  }

  it('a cancel says the same; before the first lists answered, it says they had not', () => {
    const cancelled = verdictOf(
      run(
        [
          { type: 'synced', at: T0 + 100 },
          { type: 'cancel', at: T0 + 500 },
        ],
        { name: 'x' },
      ).events,
    );
    assert.equal(cancelled?.summary, 'cancelled while waiting: Deployment apps/x not found');
    const early = verdictOf(run([timeout, { type: 'synced', at: T0 + 5000 }], { name: 'x' }).events);
    assert.equal(early?.summary, 'timed out after 3s: Deployment apps/x not seen: the first lists had not answered');
  });

  it('a workload seen, even at a generation below --min-generation, keeps the usual verdict', () => {
    const seen = verdictOf(run([up('Deployment', deployment({ name: 'x' }), 1), timeout], { name: 'x' }).events);
    assert.equal(seen?.notFound, undefined);
    assert.match(seen?.summary ?? '', /^timed out after 3s waiting for /);
    const stale = verdictOf(run([up('Deployment', deployment({ name: 'x' }), 1), timeout], { name: 'x', minGeneration: 2 }).events);
    assert.equal(stale?.notFound, undefined);
  });
});
