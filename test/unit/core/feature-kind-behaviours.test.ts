/**
 * The behaviours of the feature × kind table (docs/verdicts.md) that no option turns on: ended
 * pods, `pods-ended`, the success before the Event list, the readiness window and the phases.
 * Every kind has a cell for every row, and each cell shows what the row does for that kind (the
 * options' rows are in feature-kind.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { Observation, RolloutEvent, WorkloadKind } from '../../../src/core/index.js';
import { WORKLOAD_KINDS } from '../../../src/core/index.js';
import { evicted120, rejectedOutOfCpu } from '../../fixtures/modern-pods.js';
import {
  daemonSetObject,
  del,
  jobObject,
  ofType,
  podEvent,
  run,
  running,
  runSteps,
  statefulSetObject,
  tick,
  up,
  verdictOf,
  workloadPod,
} from './builders.js';
import {
  again,
  at,
  crashLooping,
  DS,
  ds,
  dsPod,
  JOB,
  outcome,
  rsPod,
  STS,
  SYNCED,
  sts,
  stsPod,
  type Target,
} from './feature-kind-workloads.js';
import { doneAt2, newPod, rollingTo2, UPDATE } from './scenario.js';

const notesOf = (events: RolloutEvent[]) => ofType(events, 'note').map((n) => n.message);

/**
 * Ended pods: a pod of the current template that crash-looped and was then evicted is said once
 * in its own words, its problem clears, it holds nothing, and the replacement's Ready pod succeeds.
 */
const ENDED_PODS: Record<WorkloadKind, () => void> = {
  Deployment: () => {
    const looping = newPod('web-2-old', crashLooping(), 3, { name: 'web-2-old' });
    const evicted = up('Pod', evicted120(rsPod('web-2-old')), 5);
    const { events } = run([...rollingTo2({ replicas: 3 }), looping, evicted, ...doneAt2(8)], UPDATE);
    endedAndSucceeded(events, 'web-2-old');
  },
  // Its controller deletes an ended pod at once (and a StatefulSet creates it again under its name):
  // the ended state, the deletion and the new pod come in one read batch.
  StatefulSet: () => {
    const looping = stsPod('db-1', { containers: [crashLooping()] });
    const before = [up('StatefulSet', sts(1), 1), up('Pod', stsPod('db-0'), 2), up('Pod', looping, 3)];
    const evicted = [up('Pod', evicted120(looping), 5), del('Pod', evicted120(looping), 5), up('Pod', again(stsPod('db-1'), 5), 5)];
    const ready = [up('StatefulSet', sts(2), 8)];
    endedAndSucceeded(runSteps([before, evicted, ready], STS), 'db-1');
  },
  DaemonSet: () => {
    const looping = dsPod('agent-b', { containers: [crashLooping()] });
    const before = [up('DaemonSet', ds(1), 1), up('Pod', dsPod('agent-a'), 2), up('Pod', looping, 3)];
    const evicted = [
      up('Pod', evicted120(looping), 5),
      del('Pod', evicted120(looping), 5),
      up('Pod', dsPod('agent-c', { node: 'node-b' }), 5),
    ];
    const ready = [up('DaemonSet', ds(2), 8)];
    endedAndSucceeded(runSteps([before, evicted, ready], DS), 'agent-b');
  },
  Job: () => {
    const p = workloadPod('Job', 'migrate', { name: 'migrate-a' });
    const complete = jobObject('migrate', {}, { succeeded: 1, failed: 1, conditions: [{ type: 'Complete', status: 'True' }] as never });
    const done = workloadPod('Job', 'migrate', { name: 'migrate-b', phase: 'Succeeded', ready: false });
    const obs = [up('Job', jobObject('migrate', {}, { active: 1 }), 1), up('Pod', p, 2), SYNCED, up('Pod', evicted120(p), 5)];
    const { events } = run([...obs, up('Pod', done, 8), up('Job', complete, 8)], JOB);
    assert.deepEqual(notesOf(events), [], 'no note: a Job counts its own failures');
    const counted = ofType(events, 'problem').map((e) => e.problem);
    assert.deepEqual(
      counted.map((q) => [q.class, q.object.name]),
      [['job-pod-failed', 'migrate-a']],
    );
    assert.match(counted[0]!.explanation, /^pod failed \(Evicted\): The node was low on resource: memory\./);
    assert.equal(verdictOf(events)?.outcome, 'succeeded', "a warning: the Job's backoffLimit decides");
  },
};

function endedAndSucceeded(events: RolloutEvent[], pod: string): void {
  const notes = ofType(events, 'note').filter((n) => n.object === `Pod/${pod}`);
  assert.deepEqual(
    notes.map((n) => n.message),
    [`pod ${pod} evicted: The node was low on resource: memory. Container app was using 301Mi, which exceeds its request of 0.`],
  );
  assert.ok(
    ofType(events, 'problem-cleared').some((e) => e.problem.object.name === pod),
    'its crash loop cleared as it ended',
  );
  assert.deepEqual(
    ofType(events, 'held').filter((h) => h.pods.includes(pod)),
    [],
    'the ended pod held nothing',
  );
  assert.equal(verdictOf(events)?.outcome, 'succeeded', verdictOf(events)?.summary);
}

/** `pods-ended`: replacements rejected at admission (OutOfcpu) one after another. */
function rejections(pod: (i: number) => V1Pod, n: number): Observation[] {
  return Array.from({ length: n }, (_, i) => up('Pod', rejectedOutOfCpu(again(pod(i), 2 + i * 2)), 3 + i * 2));
}
const failedPodsEnded = (obs: Observation[], target: Target) => {
  const v = verdictOf(run(obs, target).events);
  assert.equal(v?.outcome, 'failed', v?.summary);
  assert.equal(v?.problems[0]?.class, 'pods-ended');
  assert.match(v?.problems[0]?.explanation ?? '', /^3 pods of revision \S+ ended within 4\.0s, 2 of them replacements/);
};
const PODS_ENDED: Record<WorkloadKind, () => void> = {
  Deployment: () => {
    const obs = [...rollingTo2({ replicas: 1 }), ...rejections((i) => rsPod(`web-2-r${i}`), 3)];
    assert.equal(outcome(obs.slice(0, -1), UPDATE), undefined, 'one replacement ended: tolerated');
    failedPodsEnded(obs, UPDATE);
  },
  StatefulSet: () => {
    // Its controller recreates an ordinal under the same name: the first ending of a name is counted, the others said nowhere.
    const obs = [up('StatefulSet', sts(0), 1), SYNCED, ...rejections(() => stsPod('db-0'), 4)];
    const { events } = run(obs, STS);
    assert.equal(notesOf(events).length, 1);
    assert.equal(verdictOf(events), undefined, 'not counted: the trace waits for its timeout');
  },
  DaemonSet: () => {
    const obs = [up('DaemonSet', ds(0), 1), SYNCED, ...rejections((i) => dsPod(`agent-r${i}`, { node: 'node-a' }), 3)];
    assert.equal(outcome(obs.slice(0, -1), DS), undefined, 'one replacement ended: tolerated');
    failedPodsEnded(obs, DS);
  },
  Job: () => {
    const job = jobObject('migrate', { backoffLimit: 6 }, { active: 1, failed: 3 });
    const obs = [up('Job', job, 1), SYNCED, ...rejections((i) => workloadPod('Job', 'migrate', { name: `migrate-r${i}` }), 3)];
    const { events } = run(obs, JOB);
    assert.equal(verdictOf(events), undefined, "never pods-ended: the Job's backoffLimit decides");
    assert.deepEqual(new Set(ofType(events, 'problem').map((e) => e.problem.class)), new Set(['job-pod-failed']));
  },
};

/** The Event backlog: what must be created after the replay's start (`fresh`) for a success before the list. */
const replayed = (objects: Observation[]): Observation[] => [
  { type: 'event-backlog', at: at(1), events: 'replayed' },
  ...objects,
  { type: 'synced', at: at(1) },
];
const fresh = (...uids: string[]): Observation[] => uids.map((uid) => ({ type: 'fresh', at: at(1), uid }));
/** Succeeds with every uid in `needed` fresh (the other objects of `done` not), and not with the first of them missing. */
function freshNeeded(done: Observation[], target: Target, needed: string[]): void {
  assert.equal(outcome(replayed([...done, ...fresh(...needed)]), target), 'succeeded', `${needed.join(', ')} fresh`);
  assert.equal(outcome(replayed([...done, ...fresh(...needed.slice(1))]), target), undefined, `${needed[0]} not fresh`);
}
const deleting = (p: V1Pod): V1Pod => ({ ...p, metadata: { ...p.metadata, deletionTimestamp: new Date(at(1)) } });
const PODS = ['web-2-aaa', 'web-2-bbb', 'web-2-ccc'];
const EVENT_BACKLOG: Record<WorkloadKind, () => void> = {
  Deployment: () => {
    const done = [...PODS.map((n) => newPod(n, running(), 1)), ...doneAt2(1, { pods: false })];
    freshNeeded(done, UPDATE, ['rs-web-2', ...PODS.map((n) => `pod-${n}`)]);
    freshNeeded(done, UPDATE, [...PODS.map((n) => `pod-${n}`), 'rs-web-2']);
  },
  StatefulSet: () => {
    const terminating = up('Pod', deleting(stsPod('db-9')), 1);
    const done = [up('Pod', stsPod('db-0'), 1), up('Pod', stsPod('db-1'), 1), terminating, up('StatefulSet', sts(2), 1)];
    freshNeeded(done, STS, ['pod-db-1', 'pod-db-0']); // not db-9, terminating
  },
  DaemonSet: () => {
    const evicted = up('Pod', evicted120(dsPod('agent-z', { node: 'node-a' })), 1);
    const done = [up('Pod', dsPod('agent-a'), 1), up('Pod', dsPod('agent-b'), 1), evicted, up('DaemonSet', ds(2), 1)];
    freshNeeded(done, DS, ['pod-agent-b', 'pod-agent-a']); // not agent-z, ended
  },
  Job: () => {
    const complete = jobObject(
      'migrate',
      { completions: 1 },
      { succeeded: 1, failed: 1, conditions: [{ type: 'Complete', status: 'True' }] as never },
    );
    const ok = up('Pod', workloadPod('Job', 'migrate', { name: 'migrate-a', phase: 'Succeeded', ready: false }), 1);
    const failed = up('Pod', evicted120(workloadPod('Job', 'migrate', { name: 'migrate-z' })), 1);
    // Every pod, the one that ended Failed too: its Events say why it failed.
    freshNeeded([ok, failed, up('Job', complete, 1)], JOB, ['pod-migrate-z', 'pod-migrate-a']);
  },
};

/**
 * The readiness window: a container running but not Ready since 2 s, its readiness probe failing
 * (an Unhealthy Event at 20 s): it fails 10 s (the class's window) plus the probe's own budget
 * (10 s × 3) after it was first seen not Ready, at 42 s.
 */
const probe = { httpGet: { path: '/', port: 80 }, periodSeconds: 10, failureThreshold: 3 };
const unready = () => running('app', { ready: false });
function failsAt42(obs: Observation[], target: Target, pod: string): void {
  const unhealthy = podEvent(pod, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 20);
  assert.equal(outcome([...obs, unhealthy, tick(41)], target), undefined, 'within the window and the probe budget');
  const v = verdictOf(run([...obs, unhealthy, tick(43)], target).events);
  assert.equal(v?.outcome, 'failed');
  assert.equal(v?.problems[0]?.class, 'readiness-probe');
  assert.equal(v?.problems[0]?.object.name, pod);
}
const READINESS_WINDOW: Record<WorkloadKind, () => void> = {
  Deployment: () => failsAt42([...rollingTo2(), newPod('web-2-aaa', unready(), 2, { readinessProbe: probe })], UPDATE, 'web-2-aaa'),
  StatefulSet: () =>
    failsAt42(
      [
        up('StatefulSet', sts(1), 1),
        up('Pod', stsPod('db-0'), 1),
        up('Pod', stsPod('db-1', { containers: [unready()], readinessProbe: probe }), 2),
      ],
      STS,
      'db-1',
    ),
  DaemonSet: () =>
    failsAt42(
      [
        up('DaemonSet', ds(1), 1),
        up('Pod', dsPod('agent-a'), 1),
        up('Pod', dsPod('agent-b', { containers: [unready()], readinessProbe: probe }), 2),
      ],
      DS,
      'agent-b',
    ),
  // A Job does not wait for its pods to be Ready: a readiness probe that keeps failing is reported,
  // never a failure, and the Job completes when its pod exits 0.
  Job: () => {
    const started = [
      up('Job', jobObject('migrate', {}, { active: 1 }), 1),
      up('Pod', workloadPod('Job', 'migrate', { name: 'migrate-a', containers: [unready()], readinessProbe: probe }), 2),
    ];
    const unhealthy = podEvent('migrate-a', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 20);
    const events = run([...started, unhealthy, tick(120)], JOB).events;
    assert.equal(verdictOf(events), undefined, 'still running after the window and the probe budget');
    assert.ok(
      ofType(events, 'problem').some((p) => p.problem.class === 'readiness-probe'),
      'the probe is reported',
    );
    const complete = jobObject('migrate', {}, { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] as never });
    const done = [
      up('Pod', workloadPod('Job', 'migrate', { name: 'migrate-a', phase: 'Succeeded', ready: false }), 121),
      up('Job', complete, 121),
    ];
    assert.equal(outcome([...started, unhealthy, tick(120), ...done, tick(122)], JOB), 'succeeded');
  },
};

/** The phases: each kind's own, once per revision, then `complete` with the success. */
const phasesOf = (obs: Observation[], target: Target) => ofType(run(obs, target).events, 'phase').map((p) => `${p.phase}: ${p.message}`);
const PHASES: Record<WorkloadKind, () => void> = {
  Deployment: () =>
    assert.deepEqual(phasesOf([...rollingTo2({ replicas: 3 }), ...doneAt2(5)], UPDATE), [
      'new-replicaset: ReplicaSet web-2 holds revision 2',
      'scaling-up: scaling up ReplicaSet web-2: 0/3 pods ready',
      'scaling-down-old: scaling down old ReplicaSet web-1 (revision 1) to 0',
      'complete: revision 2 complete: 3/3 pods ready',
    ]),
  StatefulSet: () => {
    const status = { currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 1, currentReplicas: 2 };
    const updating = statefulSetObject('db', { replicas: 3 }, { readyReplicas: 3, ...status }, 2);
    const creating = statefulSetObject('db', { replicas: 3 }, { readyReplicas: 1, currentRevision: 'db-1', updateRevision: 'db-1' });
    assert.deepEqual(phasesOf([up('StatefulSet', updating, 1), SYNCED], STS), [
      'updating: updating to revision db-2 every ordinal, from the highest down: 1/3 updated; next: db-2',
    ]);
    assert.match(
      phasesOf([up('StatefulSet', creating, 1), SYNCED], STS)[0] ?? '',
      /^scaling-up: creating pods one ordinal at a time, in order: 1\/3 ready/,
    );
  },
  DaemonSet: () => {
    const updating = daemonSetObject('agent', { desiredNumberScheduled: 2, numberReady: 2, updatedNumberScheduled: 1 }, { generation: 2 });
    const pods = [up('Pod', dsPod('agent-a', { revision: '2' }), 1), up('Pod', dsPod('agent-b', { revision: '1' }), 1)];
    assert.deepEqual(phasesOf([up('DaemonSet', updating, 1), ...pods, SYNCED], DS), [
      'updating: updating the pods of 2 nodes to template generation 2: 1/2 updated',
    ]);
    assert.match(phasesOf([up('DaemonSet', ds(1), 1), SYNCED], DS)[0] ?? '', /^scaling-up: /);
  },
  Job: () => {
    const suspended = jobObject('migrate', { suspend: true, completions: 2 }, {});
    const active = jobObject('migrate', { completions: 2 }, { active: 1, succeeded: 1 });
    const done = jobObject('migrate', { completions: 2 }, { succeeded: 2, conditions: [{ type: 'Complete', status: 'True' }] as never });
    assert.deepEqual(phasesOf([up('Job', suspended, 1), up('Job', active, 2), up('Job', done, 3)], JOB), [
      'suspended: job migrate is suspended: waiting to be admitted and resumed',
      'running: job migrate running: 1 active, 1/2 succeeded',
      'complete: job migrate complete: 2/2 succeeded, 0 running',
    ]);
  },
};

/** The rows, as docs/verdicts.md's feature × kind table names them. */
const ROWS: Record<string, Record<WorkloadKind, () => void>> = {
  'ended pods (evicted, rejected)': ENDED_PODS,
  'pods-ended (replacements that keep ending)': PODS_ENDED,
  'success before the Event list': EVENT_BACKLOG,
  'the readiness window': READINESS_WINDOW,
  phases: PHASES,
};

describe('feature × kind: behaviours', () => {
  for (const [row, cells] of Object.entries(ROWS)) {
    for (const kind of WORKLOAD_KINDS) {
      it(`${kind} × ${row}`, () => {
        const cell = cells[kind];
        assert.ok(cell, `no cell for ${kind}`);
        cell();
      });
    }
  }
});
