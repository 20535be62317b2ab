/**
 * A helm.v3.Release's workloads, decided from helm's marks: which release an object belongs to
 * (declared or auto-named), which workloads an install or upgrade wrote, and the preview's line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isTheRelease,
  type ReleaseWorkload,
  releasePlanFromInputs,
  releasePreviewLine,
  releaseWrites,
} from '../../../src/pulumi/release.js';

test('which release an object belongs to: the declared name, else the provider auto-name <resource>-<8 hex>', () => {
  const named = releasePlanFromInputs('rel', { name: 'web' });
  const auto = releasePlanFromInputs('rel', {});
  const rows: [ReturnType<typeof releasePlanFromInputs>, string | undefined, boolean][] = [
    [named, 'web', true],
    [named, 'rel-0a1b2c3d', false],
    [auto, 'rel-0a1b2c3d', true],
    [auto, 'rel-0A1B2C3D', false],
    [auto, 'rel-0a1b2c3', false],
    [auto, 'rel2-0a1b2c3d', false],
    [auto, 'relx0a1b2c3d', false],
    [auto, undefined, false],
  ];
  for (const [plan, release, want] of rows) assert.equal(isTheRelease(plan, release), want, `${plan.name ?? '(auto)'} ${release}`);
  assert.equal(releasePlanFromInputs('rel', { skipAwait: true, namespace: 'apps' }).namespace, 'apps');
  assert.equal(releasePlanFromInputs('rel', { name: '' }).name, undefined);
});

test('the workloads an install or upgrade wrote: new objects (another uid) and newer generations', () => {
  const w = (name: string, uid: string, generation: number): ReleaseWorkload => ({ kind: 'Deployment', name, uid, generation });
  const before = [w('web', 'u1', 3), w('api', 'u2', 1), w('old', 'u3', 1)];
  const now = [w('web', 'u1', 4), w('api', 'u2', 1), w('new', 'u4', 1), { ...w('old', 'u5', 1) }];
  assert.deepEqual(
    releaseWrites(before, now).map((x) => [x.workload.name, x.minGeneration]),
    [
      ['web', 4],
      ['new', undefined],
      ['old', undefined],
    ],
  );
  assert.deepEqual(releaseWrites(before, before), []);
  // A StatefulSet and a Deployment of one name are two workloads.
  assert.equal(releaseWrites([w('x', 'u1', 1)], [{ kind: 'StatefulSet', name: 'x', uid: 'u9', generation: 1 }]).length, 1);
});

test("the preview's line names the release and its live workloads", () => {
  const plan = releasePlanFromInputs('rel', {});
  assert.equal(
    releasePreviewLine(plan, 'apps', []),
    'preview: helm Release apps/rel-<random> has no workload yet; the update traces those helm installs (observe mode)',
  );
  assert.equal(
    releasePreviewLine(plan, 'apps', [
      { kind: 'Deployment', name: 'rel-0a1b2c3d-web', release: 'rel-0a1b2c3d', state: 'revision 1, 2/2 ready' },
    ]),
    'preview: helm Release apps/rel-0a1b2c3d: the update traces the workloads helm writes (observe mode); live: Deployment rel-0a1b2c3d-web (revision 1, 2/2 ready)',
  );
});
