/** The named event stream: phases, rows, pods, orphaning, rollback, superseded, pause, scale, Recreate. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation } from '../../../src/core/index.js';
import { availableTrue, del, deployment, event, ofType, pod, progressing, replicaSet, run, running, T0, up, waiting } from './builders.js';
import { doneAt2, UPDATE } from './scenario.js';

const d2 = (reason = 'ReplicaSetUpdated', extra: Parameters<typeof deployment>[0] = {}) =>
  deployment({ revision: '2', generation: 2, conditions: [availableTrue, progressing(reason, 'web-2')], ...extra });
const rs1 = (replicas: number, ready = replicas) => replicaSet({ name: 'web-1', revision: '1', replicas, ready, statusReplicas: replicas });
const rs2 = (replicas: number, ready: number) => replicaSet({ name: 'web-2', revision: '2', replicas, ready });
const p2 = (name: string, c = running(), extra: Partial<Parameters<typeof pod>[0]> = {}) =>
  pod({ name, rs: 'web-2', containers: [c], ...extra });

/** A rolling update 1 -> 2 of 3 replicas, observed step by step. */
const rolling: Observation[] = [
  up('ReplicaSet', rs1(3), 0),
  up(
    'Deployment',
    deployment({ revision: '1', generation: 1, conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-1')] }),
    0,
  ),
  { type: 'synced', at: T0 },
  up(
    'Deployment',
    deployment({
      revision: '1',
      generation: 2,
      observedGeneration: 1,
      conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-1')],
    }),
    1,
  ),
  up('ReplicaSet', rs2(1, 0), 1.1),
  up('Deployment', d2('NewReplicaSetCreated'), 1.2),
  up('Pod', pod({ name: 'web-2-aaa', rs: 'web-2', scheduled: { status: 'False' }, node: null }), 1.3),
  up('Pod', p2('web-2-aaa', waiting('ContainerCreating', undefined)), 1.5),
  up('Pod', p2('web-2-aaa'), 3),
  up('ReplicaSet', rs2(1, 1), 3.1),
  up('ReplicaSet', rs1(2), 3.2),
  up('ReplicaSet', rs2(3, 1), 3.3),
  up('Pod', p2('web-2-bbb'), 5),
  up('Pod', p2('web-2-ccc'), 5),
  up('ReplicaSet', rs2(3, 3), 6),
  up('ReplicaSet', rs1(0), 6.1),
  up('Deployment', d2('NewReplicaSetAvailable'), 6.2),
];

describe('rollout event stream', () => {
  const { events } = run(rolling, UPDATE);

  it('starts with `started`, waits for the controller, then announces revision 2 as new', () => {
    assert.equal(events[0]?.type, 'started');
    assert.equal(ofType(events, 'started').length, 1);
    assert.equal(ofType(events, 'waiting')[0]?.reason, 'controller-reconciling');
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.previous, e.change]),
      [['2', '1', 'new']],
    );
  });

  it('emits the three phases in order, then complete and the verdict last', () => {
    assert.deepEqual(
      ofType(events, 'phase').map((e) => e.phase),
      ['new-replicaset', 'scaling-up', 'scaling-down-old', 'complete'],
    );
    assert.equal(events.at(-1)?.type, 'verdict');
    assert.equal(ofType(events, 'verdict')[0]?.verdict.outcome, 'succeeded');
    assert.equal(ofType(events, 'verdict')[0]?.verdict.summary, 'revision 2 rolled out: 3/3 pods ready in 6.2s');
  });

  it('emits pod transitions only on change, with previous state and node', () => {
    const aaa = ofType(events, 'pod').filter((e) => e.name === 'web-2-aaa');
    assert.deepEqual(
      aaa.map((e) => e.state),
      ['pending', 'container-creating', 'ready'],
    );
    assert.equal(aaa[1]?.previous, 'pending');
    assert.equal(aaa[1]?.node, 'sim-node-1');
    assert.equal(aaa[2]?.revision, '2');
  });

  it('emits replicaset rows on change, with roles and created flags', () => {
    const rows = ofType(events, 'replicaset');
    const web2 = rows.filter((r) => r.name === 'web-2');
    assert.deepEqual(
      web2.map((r) => [r.role, r.desired, r.ready, r.created]),
      [
        ['new', 1, 0, true],
        ['new', 1, 1, false],
        ['new', 3, 1, false],
        ['new', 3, 3, false],
      ],
    );
    const web1 = rows.filter((r) => r.name === 'web-1');
    assert.deepEqual(
      web1.map((r) => [r.role, r.desired]),
      [
        ['old', 3],
        ['old', 2],
        ['old', 0],
      ],
    );
  });

  it('emits condition changes and progress lines', () => {
    const progressingEvents = ofType(events, 'condition').filter((c) => c.condition === 'Progressing');
    assert.deepEqual(
      progressingEvents.map((c) => c.reason),
      ['NewReplicaSetCreated', 'NewReplicaSetAvailable'],
    );
    assert.deepEqual(
      ofType(events, 'progress').map((p) => `${p.message}, ${p.updated} updated`),
      [
        'Waiting for app ReplicaSet to be available (0/1 Pods available), 0 updated',
        'Waiting for app ReplicaSet to be available (1/1 Pods available), 0 updated',
        'Waiting for app ReplicaSet to be available (1/3 Pods available), 0 updated',
        'Waiting for app ReplicaSet to be available (3/3 Pods available), 0 updated',
        // The controller's status with NewReplicaSetAvailable counts the 3 updated pods.
        'Waiting for app ReplicaSet to be available (3/3 Pods available), 3 updated',
      ],
    );
  });

  it('never repeats an identical event when the same objects are observed again', () => {
    const same = [
      up('ReplicaSet', rs1(3), 4),
      up('ReplicaSet', rs2(1, 1), 4),
      up('Pod', p2('web-2-aaa'), 4),
      up('Deployment', d2('NewReplicaSetCreated'), 4),
      { type: 'tick', at: T0 + 5000 } as Observation,
    ];
    const again = run([...rolling.slice(0, 10), ...same], UPDATE);
    const once = run(rolling.slice(0, 10), UPDATE);
    assert.ok(once.events.length > 10);
    assert.deepEqual(again.events, once.events);
  });
});

describe('pods killed and relabeled', () => {
  const inProgress = [
    up('ReplicaSet', rs1(1)),
    up('ReplicaSet', rs2(3, 2)),
    up('Deployment', d2()),
    up('Pod', p2('web-2-aaa'), 1),
    up('Pod', p2('web-2-bbb'), 1),
  ];

  it('a deleted pod gives pod-deleted and no revision change', () => {
    const { events } = run(
      [
        ...inProgress,
        del('Pod', p2('web-2-aaa', running(), { deleting: true }), 2),
        up('Pod', p2('web-2-ddd', waiting('ContainerCreating', undefined)), 2.1),
      ],
      UPDATE,
    );
    assert.deepEqual(
      ofType(events, 'pod-deleted').map((e) => [e.name, e.replicaSet]),
      [['web-2-aaa', 'web-2']],
    );
    assert.equal(ofType(events, 'revision').length, 1);
    assert.equal(ofType(events, 'pod').at(-1)?.name, 'web-2-ddd');
  });

  it('a terminating pod shows as terminating first', () => {
    const { events } = run([...inProgress, up('Pod', p2('web-2-aaa', running(), { deleting: true }), 2)], UPDATE);
    assert.deepEqual(ofType(events, 'pod').at(-1), {
      ...ofType(events, 'pod').at(-1),
      name: 'web-2-aaa',
      state: 'terminating',
      previous: 'ready',
    });
  });

  it('a pod released by its ReplicaSet (labels removed) gives pod-orphaned', () => {
    const { events } = run([...inProgress, up('Pod', p2('web-2-aaa', running(), { ownerless: true }), 2)], UPDATE);
    assert.deepEqual(
      ofType(events, 'pod-orphaned').map((e) => [e.name, e.replicaSet]),
      [['web-2-aaa', 'web-2']],
    );
    assert.equal(ofType(events, 'pod-deleted').length, 0);
  });
});

describe('revisions', () => {
  it('a rollback re-uses the old ReplicaSet (revision-history)', () => {
    const back = replicaSet({ name: 'web-1', revision: '3', ready: 0, history: '1' });
    const { events } = run(
      [
        up('ReplicaSet', back),
        up('ReplicaSet', rs2(3, 3)),
        up(
          'Deployment',
          deployment({ revision: '3', generation: 3, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-1')] }),
        ),
      ],
      { baselineRevision: '2', minGeneration: 3 },
    );
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.previous, e.change, e.restores]),
      [['3', '2', 'rollback', '1']],
    );
  });

  it('a rollback first seen after the fact (traced from its generation) still names the template it restores', () => {
    const back = replicaSet({ name: 'web-1', revision: '3', ready: 3, history: '1' });
    const { events } = run(
      [
        up('ReplicaSet', back),
        up('ReplicaSet', rs2(0, 0)),
        up(
          'Deployment',
          deployment({ revision: '3', generation: 3, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-1')] }),
        ),
      ],
      {
        minGeneration: 3,
      },
    );
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.change, e.restores]),
      [['3', 'initial', '1']],
    );
  });

  it('a plain new revision restores nothing', () => {
    const { events } = run([up('ReplicaSet', rs1(3)), up('ReplicaSet', rs2(1, 0)), up('Deployment', d2(), 1)], UPDATE);
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.change, e.restores]),
      [['2', 'new', undefined]],
    );
  });

  it('a newer revision while one is in progress supersedes it', () => {
    const d3 = deployment({ revision: '3', generation: 3, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-3')] });
    const { events } = run(
      [
        up('ReplicaSet', rs1(3)),
        up('ReplicaSet', rs2(1, 0)),
        up('Deployment', d2(), 1),
        up('ReplicaSet', replicaSet({ name: 'web-3', revision: '3', replicas: 1, ready: 0 }), 2),
        up('Deployment', d3, 2),
      ],
      UPDATE,
    );
    assert.deepEqual(
      ofType(events, 'superseded').map((e) => [e.revision, e.by]),
      [['2', '3']],
    );
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.revision, e.change]),
      [
        ['2', 'new'],
        ['3', 'new'],
      ],
    );
    assert.equal(
      ofType(events, 'replicaset')
        .filter((r) => r.name === 'web-2')
        .at(-1)?.role,
      'old',
    );
  });

  it('rolling back to an earlier template while in progress is a rollback', () => {
    const d3 = deployment({ revision: '3', generation: 3, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-1')] });
    const bumped = replicaSet({ name: 'web-1', revision: '3', ready: 3, history: '1' });
    const { events } = run(
      [
        up('ReplicaSet', rs1(3)),
        up('ReplicaSet', rs2(1, 0)),
        up('Deployment', d2(), 1),
        up('ReplicaSet', bumped, 2),
        up('Deployment', d3, 2),
      ],
      UPDATE,
    );
    assert.deepEqual(
      ofType(events, 'revision').map((e) => e.change),
      ['new', 'rollback'],
    );
  });
});

describe('pause, scale, Recreate, k8s events, not found', () => {
  it('paused and resumed', () => {
    const paused = deployment({
      revision: '2',
      generation: 3,
      paused: true,
      conditions: [availableTrue, { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' }],
    });
    const { events } = run(
      [
        up('ReplicaSet', rs1(3)),
        up('ReplicaSet', rs2(1, 0)),
        up('Deployment', d2(), 1),
        up('Deployment', paused, 2),
        up('Deployment', d2('ReplicaSetUpdated', { generation: 4 }), 3),
      ],
      UPDATE,
    );
    assert.deepEqual(
      events.filter((e) => e.type === 'paused' || e.type === 'resumed').map((e) => e.type),
      ['paused', 'resumed'],
    );
    assert.equal(ofType(events, 'condition').find((c) => c.reason === 'DeploymentPaused')?.status, 'Unknown');
  });

  it('a replicas change without a template change is scale-only', () => {
    const { events } = run(
      [
        up('ReplicaSet', rs2(3, 1)),
        up('Deployment', d2(), 1),
        up('Deployment', d2('ReplicaSetUpdated', { generation: 3, replicas: 5 }), 2),
        up('Deployment', d2('ReplicaSetUpdated', { generation: 4, replicas: 6, image: 'nginx:1.21' }), 3),
      ],
      UPDATE,
    );
    assert.deepEqual(
      ofType(events, 'scaled').map((e) => [e.from, e.to]),
      [[3, 5]],
    );
  });

  it('Recreate: the old ReplicaSet scales to 0 before the new one appears', () => {
    const recreate = { type: 'Recreate' } as const;
    const { events } = run(
      [
        up('ReplicaSet', rs1(3)),
        up('Deployment', d2('ReplicaSetUpdated', { strategy: recreate }), 0),
        up('ReplicaSet', rs1(0, 3), 1),
        up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 0, ready: 0, statusReplicas: 0 }), 2),
        up('ReplicaSet', rs2(3, 0), 3),
        ...doneAt2(8).map((o) => ({ ...o })),
      ],
      UPDATE,
    );
    assert.deepEqual(
      ofType(events, 'phase').map((e) => e.phase),
      ['scaling-down-old', 'new-replicaset', 'scaling-up', 'complete'],
    );
  });

  it('Warning events are emitted once per distinct message; relevant Normal ones too', () => {
    const warn = (count: number, msg: string) =>
      up('Event', event({ kind: 'Pod', name: 'web-2-aaa', reason: 'BackOff', message: msg, count, uid: 'ev-backoff' }), count);
    const scaling = up(
      'Event',
      event({ kind: 'Deployment', name: 'web', type: 'Normal', reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-2 to 1' }),
      1,
    );
    const noise = up(
      'Event',
      event({ kind: 'Pod', name: 'web-2-aaa', type: 'Normal', reason: 'Pulled', message: 'Successfully pulled image' }),
      1,
    );
    const { events } = run(
      [
        up('ReplicaSet', rs2(1, 0)),
        up('Deployment', d2()),
        up('Pod', p2('web-2-aaa', waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"')), 1),
        scaling,
        noise,
        warn(1, 'Back-off pulling image "nginx:nope"'),
        warn(2, 'Back-off pulling image "nginx:nope"'),
        warn(3, 'Back-off pulling image "nginx:nope"'),
      ],
      UPDATE,
    );
    assert.deepEqual(
      ofType(events, 'k8s-event').map((e) => [e.event.reason, e.event.object]),
      [
        ['ScalingReplicaSet', 'Deployment/web'],
        ['BackOff', 'Pod/web-2-aaa'],
      ],
    );
  });

  it('a missing Deployment is reported once the initial lists are synced', () => {
    const { events } = run([
      { type: 'tick', at: T0 + 100 },
      { type: 'synced', at: T0 + 200 },
      { type: 'tick', at: T0 + 1200 },
    ]);
    assert.deepEqual(
      ofType(events, 'waiting').map((e) => e.reason),
      ['not-found'],
    );
  });
});
