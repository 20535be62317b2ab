/**
 * The preview of a workload whose declared replicas differ from the live ones (preview-change.ts):
 * pk diffs against its checkpoint, so after an HPA or `kubectl scale` unchanged declared replicas
 * are no write, which the engine's preview shows as the stored outputs (older than the live object).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Baseline, Written } from '../../../src/pulumi/baseline.js';
import type { ChangeKind } from '../../../src/pulumi/decisions.js';
import { planFromInputs } from '../../../src/pulumi/plan.js';
import { previewChange } from '../../../src/pulumi/preview-change.js';
import { previewSummary } from '../../../src/pulumi/wording.js';

/** Declared 2 replicas; live: 5 (an HPA scaled it, generation 1 → 2). */
const baseline = (change: ChangeKind): Baseline =>
  ({
    plan: planFromInputs('web', { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } } }),
    namespace: 'shop',
    live: { metadata: { name: 'web', uid: 'u1', generation: 2 }, spec: { replicas: 5 } },
    liveFacts: { uid: 'u1', generation: 2, replicas: 5, revision: '1' },
    existing: new Set(['web']),
    change,
    changes: [],
    readAt: 0,
  }) as unknown as Baseline;

const answered = (w: Written | null) => Promise.resolve(w);

test('preview: declared replicas unchanged since the last update, live scaled from outside: no scale', async () => {
  // A same step: the stored outputs, generation 1, older than the live object.
  const previewed = await previewChange(baseline('scale'), answered({ name: 'web', uid: 'u1', generation: 1 }));
  assert.equal(previewed?.change, 'unchanged');
  assert.doesNotMatch(previewSummary(previewed), /scales/);
  assert.match(previewSummary(previewed), /pod template of shop\/web is unchanged: no new rollout/);
});

test('preview: the provider writes the declared replicas (a dry run one generation on, or the inputs back): the scale stands', async () => {
  const rows: [string, Promise<Written | null> | undefined][] = [
    ['a dry run one generation on', answered({ name: 'web', uid: 'u1', generation: 3 })],
    ['the inputs back (no generation)', answered({ name: 'web' })],
    ['nothing known', answered(null)],
    ['the preview of the workload failed', Promise.reject(new Error('boom'))],
    ['a detached trace (no answer)', undefined],
  ];
  for (const [what, written] of rows) {
    const previewed = await previewChange(baseline('scale'), written);
    assert.equal(previewed?.change, 'scale', what);
    assert.match(previewSummary(previewed), /scales 5 → 2 replicas/, what);
  }
});

test('preview: other changes are not read from the engine', async () => {
  for (const change of ['rollout', 'replace', 'unchanged', 'create'] as const) {
    const previewed = await previewChange(baseline(change), answered({ name: 'web', uid: 'u1', generation: 1 }));
    assert.equal(previewed?.change, change);
  }
  assert.equal(await previewChange(undefined, answered(null)), undefined);
});
