/**
 * The phases and progress words of StatefulSets, DaemonSets and Jobs, in each kind's own terms: a
 * StatefulSet's ordinals (created in order, replaced from the highest down), a DaemonSet's nodes, a
 * Job's running pods. Each phase once per revision; none after the criterion is met.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation } from '../../../src/core/index.js';
import { resolvePolicy } from '../../../src/core/index.js';
import { daemonSetObject, event, jobObject, ofType, run, statefulSetObject, T0, tick, up, verdictOf, workloadPod } from './builders.js';

const STS = { kind: 'StatefulSet' as const, name: 'db' };
const synced = (s: number): Observation => ({ type: 'synced', at: T0 + s * 1000 });
const stsPod = (name: string, revision: string, ready = true) => workloadPod('StatefulSet', 'db', { name, revision, ready });

describe('StatefulSet phases name the ordinals', () => {
  it('created in order: scaling-up names the lowest ordinal not Ready, once; the summary waits for it', () => {
    const creating = statefulSetObject('db', { replicas: 3 }, { readyReplicas: 1, currentRevision: 'db-1', updateRevision: 'db-1' });
    // As the source delivers a snapshot: the pods, then the StatefulSet.
    const obs = [
      up('Pod', stsPod('db-0', 'db-1'), 1),
      up('Pod', stsPod('db-1', 'db-1', false), 1),
      up('StatefulSet', creating, 1),
      synced(1),
    ];
    const { events } = run([...obs, up('Pod', stsPod('db-1', 'db-1', false), 2)], STS);
    const phases = ofType(events, 'phase');
    assert.deepEqual(
      phases.map((p) => p.phase),
      ['scaling-up'],
    );
    assert.equal(phases[0]?.message, 'creating pods one ordinal at a time, in order: 1/3 ready; next: db-1');
    const timedOut = run([...obs, { type: 'timeout', at: T0 + 9000, timeoutSeconds: 9 }], STS);
    assert.match(verdictOf(timedOut.events)?.summary ?? '', /1\/3 pods ready, 0 updated; waiting for db-1/);
  });

  it('a rolling update: updating names the highest ordinal not yet at updateRevision', () => {
    const rolling = statefulSetObject(
      'db',
      { replicas: 3 },
      { readyReplicas: 3, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 1, currentReplicas: 2 },
      2,
    );
    const pods = [stsPod('db-0', 'db-1'), stsPod('db-1', 'db-1'), stsPod('db-2', 'db-2')].map((p) => up('Pod', p, 1));
    const { events } = run([...pods, up('StatefulSet', rolling, 1), synced(1)], STS);
    const phases = ofType(events, 'phase');
    assert.deepEqual(
      phases.map((p) => [p.phase, p.message]),
      [['updating', 'updating to revision db-2 every ordinal, from the highest down: 1/3 updated; next: db-1']],
    );
  });

  it('a replaced pod not Ready yet during the update: still updating, not creating', () => {
    const rolling = statefulSetObject(
      'db',
      { replicas: 3 },
      { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 1, currentReplicas: 2 },
      2,
    );
    const pods = [stsPod('db-0', 'db-1'), stsPod('db-1', 'db-1'), stsPod('db-2', 'db-2', false)].map((p) => up('Pod', p, 1));
    const { events } = run([...pods, up('StatefulSet', rolling, 1), synced(1)], STS);
    assert.deepEqual(
      ofType(events, 'phase').map((p) => [p.phase, p.message]),
      [['updating', 'updating to revision db-2 every ordinal, from the highest down: 1/3 updated; next: db-2']],
    );
  });

  it('a partitioned update names only the ordinals at or above the partition', () => {
    const rolling = statefulSetObject(
      'db',
      { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } },
      { readyReplicas: 3, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 0, currentReplicas: 3 },
      2,
    );
    const pods = ['db-0', 'db-1', 'db-2'].map((n) => up('Pod', stsPod(n, 'db-1'), 1));
    const { events } = run([...pods, up('StatefulSet', rolling, 1), synced(1)], STS);
    assert.equal(
      ofType(events, 'phase')[0]?.message,
      'updating to revision db-2 ordinals 2 and above, from the highest down: 0/3 updated; next: db-2',
    );
  });

  it('already rolled out when first seen: only complete', () => {
    const done = statefulSetObject(
      'db',
      { replicas: 1 },
      { readyReplicas: 1, currentRevision: 'db-1', updateRevision: 'db-1', updatedReplicas: 1 },
    );
    const { events } = run([up('StatefulSet', done, 1), up('Pod', stsPod('db-0', 'db-1'), 1), synced(1)], STS);
    assert.deepEqual(
      ofType(events, 'phase').map((p) => p.phase),
      ['complete'],
    );
  });
});

describe('DaemonSet and Job phases', () => {
  it('a DaemonSet with pods of an older template: updating, in nodes', () => {
    const ds = daemonSetObject(
      'agent',
      { desiredNumberScheduled: 2, updatedNumberScheduled: 1, numberReady: 2, numberAvailable: 2 },
      { generation: 2 },
    );
    const old = workloadPod('DaemonSet', 'agent', { name: 'agent-a', revision: '1' });
    const { events } = run([up('Pod', old, 1), up('DaemonSet', ds, 1), synced(1)], { kind: 'DaemonSet', name: 'agent' });
    assert.deepEqual(
      ofType(events, 'phase').map((p) => [p.phase, p.message]),
      [['updating', 'updating the pods of 2 nodes to template generation 2: 1/2 updated']],
    );
  });

  it('a Job with active pods: running, then complete', () => {
    const running = jobObject('migrate', { completions: 2 }, { active: 2 });
    const complete = jobObject(
      'migrate',
      { completions: 2 },
      { succeeded: 2, conditions: [{ type: 'Complete', status: 'True' }] as never },
    );
    const { events } = run([up('Job', running, 1), synced(1), up('Job', complete, 5)], { kind: 'Job', name: 'migrate' });
    assert.deepEqual(
      ofType(events, 'phase').map((p) => [p.phase, p.message]),
      [
        ['running', 'job migrate running: 2 active, 0/2 succeeded'],
        ['complete', 'job migrate complete: 2/2 succeeded, 0 running'],
      ],
    );
  });
});

describe('a suspended Job waits to be admitted', () => {
  const JOB = { kind: 'Job' as const, name: 'migrate' };
  const suspended = jobObject('migrate', { completions: 1, suspend: true }, { startTime: undefined });
  const pending = {
    ...event({
      kind: 'Job',
      name: 'migrate',
      reason: 'Pending',
      message: "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default-flavor",
      type: 'Normal',
      at: 2,
    }),
    source: { component: 'kueue-admission' },
  };
  const held: Observation[] = [up('Job', suspended, 1), synced(1), up('Event', pending, 2), tick(900)];

  it('no verdict however long it waits: a phase, and a warning that names what holds it', () => {
    const { events } = run(held, JOB);
    assert.equal(verdictOf(events), undefined);
    assert.deepEqual(
      ofType(events, 'phase').map((p) => [p.phase, p.message]),
      [['suspended', 'job migrate is suspended: waiting to be admitted and resumed']],
    );
    const problem = ofType(events, 'problem')
      .filter((e) => e.problem.class === 'job-suspended')
      .at(-1)?.problem;
    assert.match(
      problem?.explanation ?? '',
      /waiting for it to be admitted and resumed; kueue-admission says Pending: couldn't assign flavors/,
    );
  });

  it('resumed, it runs and succeeds', () => {
    const resumed = jobObject('migrate', { completions: 1 }, { active: 1 });
    const complete = jobObject(
      'migrate',
      { completions: 1 },
      { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] as never },
    );
    const v = verdictOf(run([...held, up('Job', resumed, 901), up('Job', complete, 910)], JOB).events);
    assert.equal(v?.outcome, 'succeeded', v?.summary);
  });

  it('its own window: --fail-after job-suspended=60 fails it a minute in', () => {
    const policy = resolvePolicy({ classes: { 'job-suspended': { action: 'fail', afterSeconds: 60 } } });
    assert.equal(verdictOf(run([up('Job', suspended, 1), synced(1), tick(30)], JOB, policy).events), undefined);
    const v = verdictOf(run([up('Job', suspended, 1), synced(1), tick(30), tick(62)], JOB, policy).events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.class, 'job-suspended');
  });
});
