/**
 * Replays of rollouts recorded on the real control plane (apiserver, controller-manager and
 * scheduler are real; the kubelet is simulated): see scripts/record-fixtures.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/index.js';
import { loadFixture, replay } from '../../fixtures/replay.js';
import { ofType } from './builders.js';

const ALL = [
  'first-rollout',
  'update-to-2',
  'broken-image',
  'crash-loop',
  'not-ready',
  'missing-configmap',
  'unschedulable',
  'quota',
  'rollback',
];

function firstProblemAt(events: RolloutEvent[], cls: string): number | undefined {
  return ofType(events, 'problem').find((e) => e.problem.class === cls)?.at;
}

describe('recorded fixtures: invariants', () => {
  for (const name of ALL) {
    it(`${name}: started first, exactly one verdict, last; no repeated pod rows`, () => {
      const f = loadFixture(name);
      const { events } = replay(f);
      assert.equal(events[0]?.type, 'started');
      assert.equal(ofType(events, 'verdict').length, 1);
      assert.equal(events.at(-1)?.type, 'verdict');
      const last = new Map<string, string>();
      for (const e of ofType(events, 'pod')) {
        const key = `${e.state}|${e.detail ?? ''}|${e.node ?? ''}`;
        assert.notEqual(last.get(e.name), key, `pod ${e.name} repeated ${key}`);
        last.set(e.name, key);
      }
      const times = events.map((e) => e.at);
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
        'events in time order',
      );
    });
  }
});

describe('recorded fixtures: outcomes', () => {
  it('first-rollout: revision 1 (initial) succeeds after the new-replicaset and scaling-up phases', () => {
    const { events } = replay(loadFixture('first-rollout'));
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.change]),
      [['1', 'initial']],
    );
    assert.deepEqual(
      ofType(events, 'phase').map((e) => e.phase),
      ['new-replicaset', 'scaling-up', 'complete'],
    );
    const v = ofType(events, 'verdict')[0]?.verdict;
    assert.equal(v?.outcome, 'succeeded');
    assert.match(v?.summary ?? '', /^revision 1 rolled out: 3\/3 pods ready in \d+\.\ds$/);
    assert.equal(ofType(events, 'problem').length, 0);
  });

  it('update-to-2: revision 2 (new, from 1) emits the three phases in order and succeeds', () => {
    const f = loadFixture('update-to-2');
    const { events } = replay(f);
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.previous, e.change]),
      [['2', '1', 'new']],
    );
    assert.deepEqual(
      ofType(events, 'phase').map((e) => e.phase),
      ['new-replicaset', 'scaling-up', 'scaling-down-old', 'complete'],
    );
    const v = ofType(events, 'verdict')[0]?.verdict;
    assert.equal(v?.outcome, 'succeeded');
    assert.deepEqual(v?.replicas, { desired: 3, ready: 3, updated: 3, available: 3 });
    // Old pods go away as pod rows (terminating), never as a revision change.
    assert.ok(ofType(events, 'pod').some((e) => e.revision === '1' && e.state === 'terminating'));
    const rows = ofType(events, 'replicaset');
    assert.equal(rows.filter((r) => r.role === 'old').at(-1)?.desired, 0);
  });

  it('broken-image: fails as image-pull-not-found 10 s after the first pull error', () => {
    const f = loadFixture('broken-image');
    const { events } = replay(f);
    const v = ofType(events, 'verdict')[0]?.verdict;
    assert.equal(v?.outcome, 'failed');
    const p = v?.problems[0];
    assert.equal(p?.class, 'image-pull-not-found');
    assert.match(
      v?.summary ?? '',
      /^pod web-[a-z0-9]+-[a-z0-9]+ container "app": image "nginx:nonexistent" not found \((ErrImagePull|ImagePullBackOff)\)$/,
    );
    const first = firstProblemAt(events, 'image-pull-not-found')!;
    assert.ok(
      v!.finishedAt - first >= 10_000 && v!.finishedAt - first < 15_000,
      `failed ${v!.finishedAt - first} ms after the first signal`,
    );
    const podLine = v?.pulumiMessages.find((m) =>
      m.startsWith(`[Pod ${f.target.namespace}/${p?.object.name}]: containers with unready status: [app]`),
    );
    assert.ok(podLine, JSON.stringify(v?.pulumiMessages));
    assert.ok(v?.pulumiMessages.includes('Minimum number of Pods to consider the application live was not attained'));
    assert.ok(p?.events.some((e) => e.reason === 'Failed'));
    assert.ok(v?.hints.includes(`kubectl -n ${f.target.namespace} rollout undo deployment/web`));
  });

  it('broken-image with the class set to warn does not fail within the recording', () => {
    const { events } = replay(loadFixture('broken-image'), { classes: { 'image-pull-not-found': { action: 'warn' } } });
    assert.equal(ofType(events, 'verdict').length, 0);
    assert.equal(ofType(events, 'problem')[0]?.failsAt, undefined);
  });

  it('crash-loop: fails as crash-loop with exit code, message and restarts, within 15 s of the first crash', () => {
    const { events } = replay(loadFixture('crash-loop'));
    const v = ofType(events, 'verdict')[0]?.verdict;
    const p = v?.problems[0];
    assert.equal(v?.outcome, 'failed');
    assert.equal(p?.class, 'crash-loop');
    assert.equal(p?.exitCode, 1);
    assert.equal(p?.terminationMessage, 'boom');
    assert.ok((p?.restartCount ?? 0) >= 2);
    assert.equal(v?.hints[0], `kubectl -n ${v?.deployment.namespace} logs ${p?.object.name} -c app --previous`);
    const first = firstProblemAt(events, 'crash-loop')!;
    assert.ok(v!.finishedAt - first < 15_000, `failed ${v!.finishedAt - first} ms after the first crash`);
    assert.ok(v?.pulumiMessages.some((m) => m.includes('container "app" terminated at ') && m.includes('(Error: exit code 1)\nboom')));
  });

  it('not-ready: fails as readiness-probe after the probe-derived window', () => {
    const { events } = replay(loadFixture('not-ready'));
    const v = ofType(events, 'verdict')[0]?.verdict;
    const p = v?.problems[0];
    assert.equal(p?.class, 'readiness-probe');
    assert.equal(p?.probe?.handler, 'GET http://:80/healthz');
    // initialDelay 3 + period 2 * threshold 3 + 10 s slack = 19 s after the container ran unready.
    const problem = ofType(events, 'problem')[0];
    assert.equal(v?.finishedAt !== undefined && problem?.failsAt !== undefined && v.finishedAt >= problem.failsAt, true);
    assert.ok(ofType(events, 'problem').length <= 2, 'failure counts alone are not re-announced');
  });

  it('missing-configmap: fails as config-error naming the ConfigMap', () => {
    const { events } = replay(loadFixture('missing-configmap'));
    const v = ofType(events, 'verdict')[0]?.verdict;
    assert.equal(v?.problems[0]?.class, 'config-error');
    assert.deepEqual(v?.problems[0]?.missing, { kind: 'ConfigMap', name: 'app-config' });
    assert.match(v?.summary ?? '', /ConfigMap "app-config" does not exist \(CreateContainerConfigError\)$/);
  });
});

describe('recorded fixtures: scheduling, quota, rollback', () => {
  it("unschedulable: fails with the real scheduler's message 10 s after the first signal", () => {
    const { events } = replay(loadFixture('unschedulable'));
    const v = ofType(events, 'verdict')[0]?.verdict;
    assert.equal(v?.problems[0]?.class, 'unschedulable');
    assert.match(
      v?.summary ?? '',
      /^pod web-[a-z0-9]+-[a-z0-9]+: no node can run the pod: 0\/\d nodes are available: .*Insufficient cpu\. \(Unschedulable\)$/,
    );
    const first = firstProblemAt(events, 'unschedulable')!;
    assert.ok(v!.finishedAt - first >= 10_000 && v!.finishedAt - first < 12_000);
  });

  it("quota: the new ReplicaSet's FailedCreate fails the rollout, announced once", () => {
    const { events } = replay(loadFixture('quota'));
    const v = ofType(events, 'verdict')[0]?.verdict;
    assert.equal(v?.problems[0]?.class, 'replica-failure');
    assert.equal(v?.problems[0]?.object.kind, 'ReplicaSet');
    assert.match(
      v?.summary ?? '',
      /^replicaset web-[a-z0-9]+: pods cannot be created: Error creating: pods "web-[a-z0-9-]+" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3 \(FailedCreate\)$/,
    );
    assert.equal(ofType(events, 'problem').length, 1, 'a new pod name in the same rejection is not news');
    assert.ok(v?.hints.some((h) => h.includes('describe rs web-')));
  });

  it("rollback: restoring revision 1's template is revision 3, a rollback, and succeeds", () => {
    const { events } = replay(loadFixture('rollback'));
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.previous, e.change]),
      [['3', '2', 'rollback']],
    );
    assert.equal(ofType(events, 'verdict')[0]?.verdict.outcome, 'succeeded');
    assert.deepEqual(
      ofType(events, 'phase').map((e) => e.phase),
      ['new-replicaset', 'scaling-up', 'scaling-down-old', 'complete'],
    );
  });
});
