/**
 * A StatefulSet's forced rollback (statefulset-forced-rollback.ts): the table of the pods the
 * OrderedReady controller waits for and never replaces (pods of a revision neither current nor
 * updated, not Running and Ready), then the reducer on observation sequences: the pod's own cause
 * makes it `forced-rollback` within the usual window; a pod that recovers, Parallel, and the pod
 * deleted as the verdict says do not fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import type { Observation } from '../../../src/core/index.js';
import { abandonedRevisionPods } from '../../../src/core/kinds/statefulset-forced-rollback.js';
import {
  del,
  iso,
  ofType,
  podEvent,
  run,
  statefulSetObject,
  T0,
  terminatedLast,
  tick,
  up,
  verdictOf,
  waiting,
  workloadPod,
} from './builders.js';

type Spec = Partial<V1StatefulSet['spec']>;
type Status = Partial<NonNullable<V1StatefulSet['status']>>;

/** `db`, 3 replicas, rolled back to `r1`: the controller's revisions both `r1`, two pods Ready. */
const rolledBack: Status = { readyReplicas: 2, currentRevision: 'r1', updateRevision: 'r1', currentReplicas: 2, updatedReplicas: 2 };
const db = (spec: Spec = {}, status: Status = rolledBack, generation = 3) =>
  statefulSetObject(
    'db',
    { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, ...spec },
    status,
    generation,
  );

const readyPod = (name: string, revision = 'r1') => workloadPod('StatefulSet', 'db', { name, revision });
/**
 * A pod of `revision` whose container crash-loops: exit 1 ("boom"), `restarts` restarts, its last
 * run started 18 s in; not Ready since `notReadySince` (s; default 1: never Ready).
 */
const crashing = (
  name: string,
  revision = 'r2',
  restarts = 2,
  extra: Partial<Parameters<typeof workloadPod>[2]> = {},
  notReadySince = 1,
): V1Pod => {
  const pod = workloadPod('StatefulSet', 'db', {
    name,
    revision,
    ready: false,
    containers: [
      waiting('CrashLoopBackOff', 'back-off 10s restarting failed container', { restarts, last: terminatedLast(1, 'Error', 'boom') }),
    ],
    ...extra,
  });
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready) ready.lastTransitionTime = iso(notReadySince) as unknown as Date;
  return pod;
};

const names = (pods: V1Pod[]) => pods.map((p) => p.metadata?.name);

describe('abandonedRevisionPods: the pods OrderedReady waits for and never replaces', () => {
  const rows: Array<{ name: string; sts: V1StatefulSet; pods: V1Pod[]; want: string[] }> = [
    { name: 'rolled back: db-2 of r2, not Ready', sts: db(), pods: [readyPod('db-0'), readyPod('db-1'), crashing('db-2')], want: ['db-2'] },
    { name: 'db-2 of r2 became Ready: the controller replaces it itself', sts: db(), pods: [readyPod('db-2', 'r2')], want: [] },
    {
      name: 'Parallel: the controller replaces it (no stop at a pod not Ready)',
      sts: db({ podManagementPolicy: 'Parallel' }),
      pods: [crashing('db-2')],
      want: [],
    },
    {
      name: 'OnDelete: blocked by its own rule, not this one',
      sts: db({ updateStrategy: { type: 'OnDelete' } }),
      pods: [crashing('db-2')],
      want: [],
    },
    {
      name: 'the controller has not observed the rollback yet',
      sts: db({}, { ...rolledBack, observedGeneration: 2 }),
      pods: [crashing('db-2')],
      want: [],
    },
    {
      name: 'changed again (current r1, update r3): a pod of r2 is abandoned',
      sts: db({}, { ...rolledBack, updateRevision: 'r3', updatedReplicas: 0 }),
      pods: [crashing('db-2', 'r2')],
      want: ['db-2'],
    },
    {
      name: 'a pod of currentRevision mid-update is the previous template, not abandoned',
      sts: db({}, { ...rolledBack, updateRevision: 'r3', updatedReplicas: 0 }),
      pods: [crashing('db-1', 'r1')],
      want: [],
    },
    {
      name: 'below the partition the controller keeps currentRevision: not this state',
      sts: db({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }),
      pods: [crashing('db-1'), crashing('db-2')],
      want: ['db-2'],
    },
    { name: 'an ordinal at or above replicas is condemned, deleted by the scale-down', sts: db(), pods: [crashing('db-3')], want: [] },
    { name: 'terminating: already being replaced', sts: db(), pods: [crashing('db-2', 'r2', 2, { deleting: true })], want: [] },
    { name: 'phase Failed: the controller recreates it', sts: db(), pods: [crashing('db-2', 'r2', 2, { phase: 'Failed' })], want: [] },
    { name: 'two of them, by ordinal', sts: db(), pods: [crashing('db-2'), crashing('db-1')], want: ['db-1', 'db-2'] },
  ];
  for (const row of rows) it(row.name, () => assert.deepEqual(names(abandonedRevisionPods(row.sts, row.pods)), row.want));
});

const STS = { kind: 'StatefulSet' as const, name: 'db' };
/** The StatefulSet rolled back, its two Ready pods, synced at 1 s, then `more`. */
const rollback = (sts: V1StatefulSet, more: Observation[]): Observation[] => [
  up('StatefulSet', sts, 1),
  up('Pod', readyPod('db-0'), 1),
  up('Pod', readyPod('db-1'), 1),
  { type: 'synced', at: T0 + 1000 },
  ...more,
];

describe('forced rollback: the reducer', () => {
  it('a crash-looping pod of the rolled-back template fails as forced-rollback 10 s after its 2nd restart, naming the pod, its exit and the delete', () => {
    const { events } = run(
      rollback(db(), [up('Pod', crashing('db-2', 'r2', 1), 2), up('Pod', crashing('db-2', 'r2', 2), 14), tick(23.9), tick(24)]),
      STS,
    );
    const opened = ofType(events, 'problem').find((e) => e.problem.class === 'forced-rollback');
    assert.equal(opened?.at, T0 + 14_000, 'reported at its 2nd restart, as a crash loop counts, not at the first crash');
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.finishedAt, T0 + 24_000, '10 s after');
    const p = v?.problems[0];
    assert.equal(p?.class, 'forced-rollback');
    assert.deepEqual(p?.object, { kind: 'StatefulSet', name: 'db' });
    assert.equal(p?.reason, 'CrashLoopBackOff');
    assert.equal(p?.exitCode, 1);
    assert.match(p?.explanation ?? '', /^pod db-2 container "app": container exited with code 1 \("boom"\), 2 restarts; /);
    assert.match(p?.explanation ?? '', /; db-2 runs revision r2, a template the StatefulSet no longer has/);
    assert.match(p?.explanation ?? '', /a forced rollback, in Kubernetes' words\): `kubectl -n apps delete pod db-2`$/);
    assert.equal(p?.hints[0], 'kubectl -n apps delete pod db-2');
    assert.equal(p?.hints[1], 'kubectl -n apps logs db-2 -c app --previous');
    assert.match(v?.summary ?? '', /delete pod db-2/);
  });

  it('an image that does not exist fails it 10 s after its first sighting', () => {
    const pulling = workloadPod('StatefulSet', 'db', {
      name: 'db-2',
      revision: 'r2',
      ready: false,
      containers: [waiting('ErrImagePull', 'rpc error: code = NotFound desc = manifest unknown')],
    });
    const notFound = 'Failed to pull image "nginx:nope": rpc error: code = NotFound desc = manifest unknown';
    const { events } = run(rollback(db(), [up('Pod', pulling, 3), podEvent('db-2', 'Failed', notFound, 3), tick(12), tick(13)]), STS);
    const v = verdictOf(events);
    assert.equal(v?.problems[0]?.class, 'forced-rollback');
    assert.equal(v?.finishedAt, T0 + 13_000);
    assert.match(v?.problems[0]?.explanation ?? '', /^pod db-2 container "app": image "nginx:1.19" not found; db-2 runs revision r2/);
  });

  it('one crash, then Ready by itself: no problem, and the rollout succeeds once the controller replaced it', () => {
    const done = db({}, { readyReplicas: 3, currentRevision: 'r1', updateRevision: 'r1', currentReplicas: 3, updatedReplicas: 3 });
    const { events } = run(
      rollback(db(), [
        up('Pod', crashing('db-2', 'r2', 1), 2),
        tick(15),
        up('Pod', readyPod('db-2', 'r2'), 16),
        del('Pod', readyPod('db-2', 'r2'), 17),
        up('Pod', readyPod('db-2', 'r1'), 20),
        up('StatefulSet', done, 20),
        tick(30),
      ]),
      STS,
    );
    assert.equal(ofType(events, 'problem').length, 0, 'one crash followed by Ready is never a problem');
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });

  it('a crash loop Ready during its last run (no readiness probe): the controller replaces it at its next run; no forced-rollback', () => {
    const { events } = run(rollback(db(), [up('Pod', crashing('db-2', 'r2', 3, {}, 19), 2), tick(30), tick(60)]), STS);
    assert.equal(ofType(events, 'problem').length, 0);
    assert.equal(verdictOf(events), undefined);
  });

  it('Parallel: the controller replaces the pod itself; no forced-rollback', () => {
    const { events } = run(
      rollback(db({ podManagementPolicy: 'Parallel' }), [up('Pod', crashing('db-2', 'r2', 5), 2), tick(30), tick(60)]),
      STS,
    );
    assert.equal(ofType(events, 'problem').length, 0);
    assert.equal(verdictOf(events), undefined);
  });

  it('the pod deleted within the window, as the problem says: cleared, and the rollout succeeds', () => {
    const done = db({}, { readyReplicas: 3, currentRevision: 'r1', updateRevision: 'r1', currentReplicas: 3, updatedReplicas: 3 });
    const { events } = run(
      rollback(db(), [
        up('Pod', crashing('db-2', 'r2', 3), 2),
        tick(5),
        del('Pod', crashing('db-2', 'r2', 3), 6),
        up('Pod', readyPod('db-2', 'r1'), 8),
        up('StatefulSet', done, 8),
        tick(20),
      ]),
      STS,
    );
    assert.ok(ofType(events, 'problem-cleared').some((e) => e.problem.class === 'forced-rollback'));
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });

  it('--warn-only forced-rollback reports it and waits', () => {
    const policy = { ...run([]).state.policy };
    policy.classes = { ...policy.classes, 'forced-rollback': { action: 'warn', afterSeconds: 0, scope: 'any-pod' } };
    const { events } = run(rollback(db(), [up('Pod', crashing('db-2', 'r2', 3), 2), tick(30)]), STS, policy);
    assert.ok(ofType(events, 'problem').some((e) => e.problem.class === 'forced-rollback'));
    assert.equal(verdictOf(events), undefined);
  });
});
