/**
 * Where a rollout's time went: each pod's phases from its timestamps and its kubelet's `Pulled`
 * Events, the phase that took most of the pods' time and the node where it did, and the line the
 * final summary prints.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { dominantWords, goDurationSeconds, type PodTiming, podTiming, rolloutTimings } from '../../../src/core/index.js';
import { dominantPhase } from '../../../src/core/timings.js';
import { formatVerdict } from '../../../src/report/index.js';
import { event, run, statefulSetObject, T0, up, verdictOf, workloadPod } from './builders.js';

/** A pod created at `c`, scheduled at `s`, its container started at `st`, Ready at `r` (seconds after T0). */
function timedPod(name: string, node: string, c: number, s?: number, st?: number, r?: number): V1Pod {
  return {
    metadata: { name, creationTimestamp: new Date(T0 + c * 1000) },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'x' }] },
    status: {
      conditions: [
        ...(s !== undefined ? [{ type: 'PodScheduled', status: 'True', lastTransitionTime: new Date(T0 + s * 1000) }] : []),
        ...(r !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(T0 + r * 1000) }] : []),
      ],
      containerStatuses: [
        {
          name: 'app',
          image: 'x',
          imageID: '',
          ready: r !== undefined,
          restartCount: 0,
          state: st !== undefined ? { running: { startedAt: new Date(T0 + st * 1000) } } : { waiting: { reason: 'ContainerCreating' } },
        },
      ],
    },
  } as V1Pod;
}

const pulled = (message: string): CoreV1Event =>
  ({ metadata: {}, involvedObject: {}, reason: 'Pulled', type: 'Normal', message }) as CoreV1Event;

test('a Go duration as the kubelet writes it', () => {
  const rows: [string, number | undefined][] = [
    ['11.2s', 11.2],
    ['1m2.5s', 62.5],
    ['850ms', 0.85],
    ['1h0m0s', 3600],
    ['11.2s (11.2s including waiting)', undefined],
    ['soon', undefined],
  ];
  for (const [text, want] of rows) assert.equal(goDurationSeconds(text), want, text);
});

test("a pod's phases, as far as it got", () => {
  const rows: [string, V1Pod, CoreV1Event[], object][] = [
    [
      'every phase: pulled 11.2 s of the 14 s between scheduling and start',
      timedPod('p', 'node-2', 0, 2, 16, 20),
      [pulled('Successfully pulled image "nginx:1.19" in 11.2s (11.2s including waiting)')],
      { pod: 'p', node: 'node-2', scheduling: 2, 'image-pull': 11.2, 'container-start': 2.8, readiness: 4 },
    ],
    [
      'the image was there',
      timedPod('p', 'node-1', 0, 0, 1, 1),
      [pulled('Container image "nginx:1.19" already present on machine')],
      { pod: 'p', node: 'node-1', scheduling: 0, 'image-pull': 0, 'container-start': 1, readiness: 0 },
    ],
    ['not scheduled yet', timedPod('p', 'node-1', 0), [], { pod: 'p', node: 'node-1' }],
    ['scheduled, still creating', timedPod('p', 'node-1', 0, 3), [], { pod: 'p', node: 'node-1', scheduling: 3 }],
    [
      'no Pulled Event (not watched from before the trace)',
      timedPod('p', 'node-1', 0, 1, 5, 6),
      [],
      { pod: 'p', node: 'node-1', scheduling: 1, 'container-start': 4, readiness: 1 },
    ],
  ];
  for (const [what, pod, events, want] of rows) assert.deepEqual(podTiming(pod, events), want, what);
});

test('a pod started before the trace, no Pulled Event seen (the Event list leaves them out): its pull is unknown', () => {
  const pod = timedPod('p', 'node-1', 0, 1, 5, 6);
  const traceStart = T0 + 10_000;
  assert.deepEqual(podTiming(pod, [], traceStart), { pod: 'p', node: 'node-1', scheduling: 1, readiness: 1 }, 'no pull, no start');
  assert.deepEqual(
    podTiming(pod, [], T0 + 5_000),
    { pod: 'p', node: 'node-1', scheduling: 1, 'container-start': 4, readiness: 1 },
    'started as the trace began: the watch would have brought its Pulled Event',
  );
  assert.deepEqual(
    podTiming(pod, [pulled('Successfully pulled image "x" in 3s')], traceStart),
    { pod: 'p', node: 'node-1', scheduling: 1, 'image-pull': 3, 'container-start': 1, readiness: 1 },
    'a Pulled Event seen (the replay) is read whenever the pod started',
  );
});

test("the phase that took most of the pods' time, and the node where it did; the summary line", () => {
  const STS = { kind: 'StatefulSet' as const, name: 'db' };
  const pods = ['db-0', 'db-1'].map((name) => workloadPod('StatefulSet', 'db', { name, revision: 'db-1' }));
  const sts = statefulSetObject(
    'db',
    { replicas: 2 },
    { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-1', updatedReplicas: 2, currentReplicas: 2 },
  );
  const { events } = run([...pods.map((p) => up('Pod', p, 1)), up('StatefulSet', sts, 1), { type: 'synced', at: T0 + 1000 }], STS);
  const verdict = verdictOf(events);
  assert.ok(verdict?.timings, `the verdict carries its timings: ${JSON.stringify(verdict?.outcome)} ${verdict?.summary}`);
  assert.deepEqual(
    verdict.timings.pods.map((p) => p.pod),
    ['db-0', 'db-1'],
  );
  const t = {
    pods: [
      { pod: 'a', node: 'node-2', 'image-pull': 11 },
      { pod: 'b', node: 'node-2', 'image-pull': 11 },
      { pod: 'c', node: 'node-1', 'image-pull': 2, readiness: 3 },
    ],
    phases: { scheduling: 0, 'image-pull': 24, 'container-start': 0, readiness: 3 },
    dominant: { phase: 'image-pull' as const, share: 89, pods: 2, meanSeconds: 11, node: 'node-2' },
  };
  assert.equal(dominantWords(t), "image pulls: 89 % of the pods' time, 2 pods × 11 s on node-2");
  // A quick rollout says nothing of it (the figures stay in the verdict); a slow one does.
  assert.doesNotMatch(formatVerdict({ ...verdict, timings: t }), /where the time went/);
  const slow = { ...verdict, finishedAt: verdict.startedAt + 30_000 };
  assert.doesNotMatch(formatVerdict({ ...slow, timings: { ...t, phases: { ...t.phases, 'image-pull': 4 } } }), /where the time went/);
  const block = formatVerdict({ ...slow, timings: t });
  assert.match(
    block,
    /\n {2}where the time went: image pulls: 89 % of the pods' time, 2 pods × 11 s on node-2 \(waiting for a node 0 s, image pulls 24 s, container starts 0 s, readiness 3 s\)/,
  );
  assert.doesNotMatch(formatVerdict({ ...slow, timings: { ...t, dominant: undefined } }), /where the time went/);
});

test("a pod's timing, computed once it is Ready, is computed again when an Event about it comes later", () => {
  const STS = { kind: 'StatefulSet' as const, name: 'db' };
  const pod = workloadPod('StatefulSet', 'db', { name: 'db-0', revision: 'db-1' });
  const status = (ready: number) => ({
    readyReplicas: ready,
    currentRevision: 'db-1',
    updateRevision: 'db-1',
    updatedReplicas: 1,
    currentReplicas: 1,
  });
  const pull = (message: string) =>
    up('Event', event({ kind: 'Pod', name: 'db-0', reason: 'Pulled', message, type: 'Normal', uid: 'pull', at: 2 }), 2);
  const { events } = run(
    [
      up('StatefulSet', statefulSetObject('db', { replicas: 1 }, status(0)), 1),
      { type: 'synced', at: T0 + 1000 },
      // Ready: its timing is computed now, without a pull.
      up('Pod', pod, 2),
      pull('Successfully pulled image "x" in 3s'),
      // The same Event again, its message changed (a newer version of it).
      pull('Successfully pulled image "x" in 4s'),
      up('StatefulSet', statefulSetObject('db', { replicas: 1 }, status(1)), 3),
    ],
    STS,
  );
  const verdict = verdictOf(events);
  assert.equal(verdict?.outcome, 'succeeded', verdict?.summary);
  assert.equal(verdict.timings?.pods[0]?.['image-pull'], 4, JSON.stringify(verdict.timings?.pods));
});

test('the same pod object in two traces that started at different times: each its own timing', () => {
  const pod = workloadPod('StatefulSet', 'db', { name: 'db-0', revision: 'db-1' });
  const timed = timedPod('db-0', 'node-1', 0, 1, 5, 6);
  pod.metadata!.creationTimestamp = timed.metadata!.creationTimestamp;
  pod.status = timed.status;
  const sts = statefulSetObject('db', { replicas: 1 }, { readyReplicas: 1, currentRevision: 'db-1', updateRevision: 'db-1' });
  const { state } = run([up('StatefulSet', sts, 1), up('Pod', pod, 7)], { kind: 'StatefulSet', name: 'db' });
  // Started 5 s after the first trace began: its Pulled Event would have come, none did (none pulled).
  assert.deepEqual(rolloutTimings(state)?.pods, [{ pod: 'db-0', node: 'sim-node-1', scheduling: 1, 'container-start': 4, readiness: 1 }]);
  // A trace that began after it started: the Event list leaves its Pulled Event out, its pull is unknown.
  const later = { ...state, startedAt: T0 + 10_000 };
  assert.deepEqual(rolloutTimings(later)?.pods, [{ pod: 'db-0', node: 'sim-node-1', scheduling: 1, readiness: 1 }]);
});

test('the dominant phase names a node only when that node holds more than half of its time', () => {
  const pulls = (...rows: [string, number][]): PodTiming[] => rows.map(([node, s], i) => ({ pod: `p${i}`, node, 'image-pull': s }));
  const rows: [string, PodTiming[], Record<string, unknown>][] = [
    ['one slow node', pulls(['node-2', 11], ['node-2', 11], ['node-1', 2]), { pods: 2, meanSeconds: 11, node: 'node-2' }],
    ['spread evenly: every pod, no node', pulls(['node-1', 4], ['node-2', 4]), { pods: 2, meanSeconds: 4 }],
    ['exactly half is not most', pulls(['node-1', 6], ['node-2', 3], ['node-3', 3]), { pods: 3, meanSeconds: 4 }],
    ['one node', pulls(['node-1', 3], ['node-1', 5]), { pods: 2, meanSeconds: 4, node: 'node-1' }],
    [
      'pods with no time in it are not counted',
      [...pulls(['node-1', 4], ['node-2', 4]), { pod: 'x', node: 'node-3' }],
      { pods: 2, meanSeconds: 4 },
    ],
  ];
  for (const [what, pods, want] of rows)
    assert.deepEqual(dominantPhase(pods, 'image-pull', 80), { phase: 'image-pull', share: 80, ...want }, what);
});
