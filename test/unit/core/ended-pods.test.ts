/**
 * Pods that ended and pod status newer than the embedded 1.20 control plane: an ended pod never
 * holds success and is said once in its own words; replacements that keep ending fail the
 * rollout; sidecars, `PodReadyToStartContainers`, `DisruptionTarget`, `terminatingReplicas` and
 * `ContainerStatusUnknown` as 1.25-1.34 write them (test/fixtures/modern-pods.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { Observation, PolicyOverrides } from '../../../src/core/index.js';
import { resolvePolicy } from '../../../src/core/index.js';
import { describeEvent } from '../../../src/report/describe-event.js';
import {
  EVICTED_MESSAGE,
  evicted120,
  evicted128,
  preemptionTarget,
  readyToStart,
  rejectedOutOfCpu,
  rejectedUnderPressure,
  statusUnknown,
} from '../../fixtures/modern-pods.js';
import {
  availableTrue,
  del,
  deployment,
  event,
  iso,
  ofType,
  pod,
  progressing,
  replicaSet,
  run,
  running,
  T0,
  terminatedLast,
  tick,
  up,
  verdictOf,
  waiting,
} from './builders.js';
import { doneAt2, newPod, rollingTo2 } from './scenario.js';

const NAMES = ['web-2-aaa', 'web-2-bbb', 'web-2-ccc'];
/** Revision 2 rolling out (from 1 s), then three Ready pods of it at `s`. */
const ready3 = (s: number): Observation[] => [...base, ...NAMES.map((n) => newPod(n, running(), s))];
const base = rollingTo2({ replicas: 3, at: 1 });
/** A pod of web-2 created `created` seconds after T0. */
const podAt = (name: string, created: number, extra: Partial<Parameters<typeof pod>[0]> = {}): V1Pod => {
  const p = pod({ name, rs: 'web-2', ...extra });
  return { ...p, metadata: { ...p.metadata, creationTimestamp: iso(created) as unknown as Date } };
};
const outcomeOf = (obs: Observation[], policy?: PolicyOverrides) => verdictOf(run(obs, {}, resolvePolicy(policy)).events);

describe('a pod that ended never holds success', () => {
  it('evicted by a 1.28 kubelet (ContainerStatusUnknown, exit 137), the replacement Ready: succeeded, the eviction a note', () => {
    const evicted = evicted128(podAt('web-2-old', 1), iso(8));
    const { events } = run([...ready3(2), up('Pod', evicted, 8), ...doneAt2(10), tick(60)]);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'succeeded', v?.summary);
    assert.equal(ofType(events, 'held').length, 0, 'an ended pod does not hold');
    assert.equal(ofType(events, 'problem').length, 0, 'an ended pod has no crash problem');
    const notes = ofType(events, 'note');
    assert.equal(notes.length, 1);
    assert.equal(notes[0]?.object, 'Pod/web-2-old');
    assert.equal(notes[0]?.message, `pod web-2-old evicted: ${EVICTED_MESSAGE.trim()} (DisruptionTarget: TerminationByKubelet)`);
  });
  it('evicted by a 1.20 kubelet (the status replaced): succeeded', () => {
    const obs = [...ready3(2), up('Pod', evicted120(podAt('web-2-old', 1)), 8), ...doneAt2(10)];
    const { events } = run(obs);
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
    assert.match(ofType(events, 'note')[0]?.message ?? '', /^pod web-2-old evicted: The node was low on resource: memory\. Container app/);
  });
  it('rejected at admission (OutOfcpu): named with its node and reason', () => {
    const { events } = run([...ready3(2), up('Pod', rejectedOutOfCpu(podAt('web-2-old', 7)), 8), ...doneAt2(10)]);
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
    assert.equal(
      ofType(events, 'note')[0]?.message,
      "pod web-2-old rejected by the kubelet of node sim-node-1 (OutOfcpu): Pod Node didn't have enough resource: cpu, requested: 8000, used: 200, capacity: 4000",
    );
  });
  it('a pod that ended Succeeded (restartPolicy Always, shut down cleanly) does not hold either', () => {
    const done = podAt('web-2-old', 1, { containers: [running()] });
    const ended = { ...done, status: { ...done.status, phase: 'Succeeded' } };
    const { events } = run([...ready3(2), up('Pod', ended, 8), ...doneAt2(10)]);
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });
  it('a pod that ended after a crash loop: its crash-loop problem clears, success follows', () => {
    const looping = newPod('web-2-old', waiting('CrashLoopBackOff', 'back-off 20s', { restarts: 2, last: terminatedLast(3) }), 5);
    const { events } = run([...ready3(2), looping, up('Pod', evicted128(podAt('web-2-old', 1), iso(8)), 8), ...doneAt2(9)]);
    assert.equal(ofType(events, 'problem-cleared').length, 1);
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });
  it('the note is said once, however often the ended pod is seen again', () => {
    const evicted = evicted128(podAt('web-2-old', 1), iso(8));
    const { events } = run([...ready3(2), up('Pod', evicted, 8), up('Pod', evicted, 9), up('Pod', evicted, 12)]);
    assert.equal(ofType(events, 'note').length, 1);
  });
  it('the note reads in one line through the sinks', () => {
    const { events } = run([...ready3(2), up('Pod', evicted120(podAt('web-2-old', 1)), 8)]);
    const line = describeEvent(ofType(events, 'note')[0]!);
    assert.match(line?.text ?? '', /^note: pod web-2-old evicted: The node was low on resource: memory\./);
  });
});

describe('what a timeout says it waited for', () => {
  it('names the pods that can still become Ready, not one that ended', () => {
    const waitingPod = newPod('web-2-aaa', waiting('ContainerCreating', undefined), 2);
    const obs = [...base, waitingPod, up('Pod', evicted128(podAt('web-2-old', 1), iso(8)), 8)];
    const { events } = run([...obs, { type: 'timeout', at: T0 + 60_000, timeoutSeconds: 60 }]);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'timed-out');
    assert.match(v?.summary ?? '', /web-2-aaa/);
    assert.doesNotMatch(v?.summary ?? '', /web-2-old/);
  });
});

describe('replacements that keep ending: the pods-ended problem', () => {
  /** A replica whose pods the kubelet keeps rejecting: each replacement is created after the last ended. */
  const rejections = (n: number): Observation[] =>
    Array.from({ length: n }, (_, i) => up('Pod', rejectedOutOfCpu(podAt(`web-2-r${i}`, 2 + i * 2)), 3 + i * 2));
  const rolling: Observation[] = [
    up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 1, ready: 0 }), 1),
    up(
      'Deployment',
      deployment({ revision: '2', generation: 2, replicas: 1, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')] }),
      1,
    ),
  ];
  it('one ending and one replacement ending: still waiting', () => {
    assert.equal(outcomeOf([...rolling, ...rejections(2)]), undefined);
  });
  it("the third ending (two replacements) fails the rollout with the node's message", () => {
    const { events } = run([...rolling, ...rejections(3)]);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v?.problems[0]?.class, 'pods-ended');
    assert.equal(v?.problems[0]?.object.kind, 'ReplicaSet');
    assert.match(
      v?.problems[0]?.explanation ?? '',
      /^3 pods of revision 2 ended within 4\.0s, 2 of them replacements of pods that had ended/,
    );
    assert.match(v?.summary ?? '', /OutOfcpu|Node didn't have enough resource: cpu/);
  });
  it('tolerate raises how many replacements may end', () => {
    assert.equal(outcomeOf([...rolling, ...rejections(3)], { classes: { 'pods-ended': { tolerate: 2 } } }), undefined);
    assert.equal(outcomeOf([...rolling, ...rejections(4)], { classes: { 'pods-ended': { tolerate: 2 } } })?.outcome, 'failed');
  });
  it('warn: reported, never fails', () => {
    const { events } = run([...rolling, ...rejections(4)], {}, resolvePolicy({ classes: { 'pods-ended': { action: 'warn' } } }));
    assert.equal(verdictOf(events), undefined);
    assert.equal(ofType(events, 'problem')[0]?.problem.class, 'pods-ended');
  });
  it('three pods evicted together from one node are not replacements: the rollout goes on to success', () => {
    const evictions = NAMES.map((n, i) => up('Pod', evicted128(podAt(n, 1), iso(20 + i)), 20 + i));
    const replacements = ['web-2-ddd', 'web-2-eee', 'web-2-fff'].map((n) => up('Pod', podAt(n, 24), 30));
    const v = outcomeOf([...ready3(2), ...evictions, ...replacements, ...doneAt2(31)]);
    assert.equal(v?.outcome, 'succeeded', v?.summary);
  });
  it('replacements refused while the node reports pressure do not count: it is tainted, the pod fits when the pressure ends', () => {
    const refusals = Array.from({ length: 6 }, (_, i) => up('Pod', rejectedUnderPressure(podAt(`web-2-r${i}`, 2 + i)), 3 + i));
    assert.equal(outcomeOf([...rolling, ...refusals]), undefined);
    const { events } = run([...rolling, ...refusals]);
    assert.equal(ofType(events, 'note').length, 1, 'said once for the node, not once per refused pod');
    assert.equal(
      ofType(events, 'note')[0]?.message,
      'pod web-2-r0 rejected by the kubelet of node sim-node-1 while the node reported pressure (Evicted): Pod was rejected: The node had condition: [DiskPressure].',
    );
    const admitted = up('Pod', podAt('web-2-ok', 20, { containers: [running()] }), 21);
    const done = [
      up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 1, ready: 1 }), 22),
      up(
        'Deployment',
        deployment({
          revision: '2',
          generation: 2,
          replicas: 1,
          conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-2')],
        }),
        22,
      ),
    ];
    const v = outcomeOf([...rolling, ...refusals, admitted, ...done]);
    assert.equal(v?.outcome, 'succeeded', v?.summary);
  });
  it('a node refusing pod after pod: the first said whole, the rest counted, not listed, until a pod runs there', () => {
    const pending = (name: string, created: number, s: number) => up('Pod', podAt(name, created, { containers: [] }), s);
    const refused = (name: string, created: number, s: number) => up('Pod', rejectedUnderPressure(podAt(name, created)), s);
    const evictedEvent = (name: string, s: number) =>
      up('Event', event({ kind: 'Pod', name, reason: 'Evicted', message: 'The node had condition: [DiskPressure]. ', at: s }), s);
    const loop = [2, 3, 4, 5].flatMap((i) => {
      const name = `web-2-r${i}`;
      return [pending(name, i, i), evictedEvent(name, i), refused(name, i, i + 0.5)];
    });
    const admitted = [pending('web-2-ok', 9, 9), up('Pod', podAt('web-2-ok', 9, { containers: [running()] }), 10)];
    const gone = del('Pod', rejectedUnderPressure(podAt('web-2-r3', 3)), 11);
    const { events } = run([...rolling, ...loop, ...admitted, gone]);
    assert.deepEqual([...ofType(events, 'pod-deleted'), ...ofType(events, 'pod-orphaned')], [], 'nor listed gone');
    const rows = ofType(events, 'pod').map((e) => `${e.name} ${e.state}`);
    assert.deepEqual(rows, ['web-2-r2 scheduled', 'web-2-r2 failed', 'web-2-ok ready']);
    const shown = ofType(events, 'k8s-event').filter((e) => e.event.reason === 'Evicted');
    assert.deepEqual(
      shown.map((e) => e.event.object),
      ['Pod/web-2-r2'],
      'the Events of the pods not listed are not either',
    );
    assert.deepEqual(
      ofType(events, 'note').map((e) => e.message),
      [
        'pod web-2-r2 rejected by the kubelet of node sim-node-1 while the node reported pressure (Evicted): Pod was rejected: The node had condition: [DiskPressure].',
        '3 more pods were refused by the kubelet of node sim-node-1 while the node reported pressure (not listed one by one); pod web-2-ok runs there now',
      ],
    );
  });
  it('rejections while a pod of the workload on that node terminates do not count; 5 s after it left, they do', () => {
    const old = pod({ name: 'web-1-old', rs: 'web-1', deleting: true });
    const during = [...rolling, up('Pod', old, 2), ...rejections(4)];
    assert.equal(outcomeOf(during), undefined);
    const { events } = run(during);
    assert.match(
      ofType(events, 'note')[0]?.message ?? '',
      /^pod web-2-r0 rejected by the kubelet of node sim-node-1 \(OutOfcpu\) while pods of this workload there were still terminating: /,
    );
    const after = [0, 1, 2].map((i) => up('Pod', rejectedOutOfCpu(podAt(`web-2-x${i}`, 20 + i)), 21 + i));
    assert.equal(outcomeOf([...during, del('Pod', old, 17), ...after]), undefined, 'within 5 s of its leaving');
    assert.equal(outcomeOf([...during, del('Pod', old, 10), ...after])?.outcome, 'failed');
  });
  it('endings older than 10 minutes no longer count', () => {
    const old = [0, 1].map((i) => up('Pod', rejectedOutOfCpu(podAt(`web-2-r${i}`, 2 + i * 2)), 3 + i * 2));
    const late = up('Pod', rejectedOutOfCpu(podAt('web-2-r9', 700)), 701);
    assert.equal(outcomeOf([...rolling, ...old, late]), undefined);
  });
  it('pods that ended before the trace started count from their own times, not from when they were seen', () => {
    // Rejected an hour ago (created then): seen only now, at the first list.
    const stale = [0, 1, 2].map((i) => up('Pod', rejectedOutOfCpu(podAt(`web-2-r${i}`, -3600 + i)), 5));
    assert.equal(outcomeOf([...rolling, ...stale]), undefined);
  });
});

describe('sidecars (restartable init containers, 1.29+)', () => {
  const sidecarSpec = [{ name: 'proxy', image: 'envoy:1.30', restartPolicy: 'Always' }];
  const withSidecar = (name: string, proxy: ReturnType<typeof running>, s: number): Observation => {
    const p = pod({ name, rs: 'web-2', initSpecs: sidecarSpec, initContainers: [proxy] });
    const conditions = (p.status?.conditions ?? []).map((c) => (c.type === 'Initialized' ? { type: 'Initialized', status: 'True' } : c));
    return up('Pod', { ...p, status: { ...p.status, conditions } }, s);
  };
  const sidecarRunning = (restarts = 0, startedAt = 3) =>
    running('proxy', {
      restarts,
      startedAt: iso(startedAt),
      ...(restarts ? { last: terminatedLast(1, 'Error', 'proxy died', iso(startedAt - 1)) } : {}),
    });
  it('a running sidecar does not block success', () => {
    const v = outcomeOf([...NAMES.map((n) => withSidecar(n, sidecarRunning(), 2)), ...doneAt2(3)]);
    assert.equal(v?.outcome, 'succeeded', v?.summary);
  });
  it('a sidecar that just restarted holds success for the settle time', () => {
    const obs = [
      withSidecar('web-2-aaa', sidecarRunning(1, 10), 10),
      ...NAMES.slice(1).map((n) => withSidecar(n, sidecarRunning(), 2)),
      ...doneAt2(11),
    ];
    const { events } = run(obs);
    assert.equal(verdictOf(events), undefined);
    assert.match(ofType(events, 'held')[0]?.message ?? '', /pod web-2-aaa container "proxy" restarted after it exited with code 1/);
    assert.equal(verdictOf(run([...obs, tick(15)]).events)?.outcome, 'succeeded');
  });
  it('a crash-looping sidecar is a crash loop named after the sidecar, not an init container that failed', () => {
    const looping = waiting('CrashLoopBackOff', 'back-off 20s restarting failed container', {
      name: 'proxy',
      restarts: 3,
      last: terminatedLast(1, 'Error', 'proxy died'),
    });
    const { events } = run([
      ...base,
      withSidecar('web-2-aaa', looping, 5),
      ...NAMES.slice(1).map((n) => withSidecar(n, sidecarRunning(), 2)),
      tick(16),
    ]);
    const p = ofType(events, 'problem')[0]?.problem;
    assert.equal(p?.class, 'crash-loop');
    assert.equal(p?.container, 'proxy');
    assert.match(p?.explanation ?? '', /^sidecar container exited with code 1 \("proxy died"\), 3 restarts/);
    assert.equal(verdictOf(events)?.outcome, 'failed');
  });
});

describe('status fields newer than 1.20', () => {
  it('PodReadyToStartContainers False: the pod line says the sandbox is not ready', () => {
    const p = pod({ name: 'web-2-aaa', rs: 'web-2', containers: [waiting('ContainerCreating', undefined)] });
    const sandbox = { ...p, status: { ...p.status, conditions: [...(p.status?.conditions ?? []), readyToStart('False', iso(2))] } };
    const { events } = run([up('Pod', sandbox, 2), ...doneAt2(3)]);
    const row = ofType(events, 'pod').find((e) => e.name === 'web-2-aaa');
    assert.equal(row?.state, 'container-creating');
    assert.equal(row?.detail, 'pod sandbox not ready (PodReadyToStartContainers=False)');
  });
  it('DisruptionTarget on a live pod (preemption under way): a note, once', () => {
    const p = pod({ name: 'web-2-aaa', rs: 'web-2' });
    const target = { ...p, status: { ...p.status, conditions: [...(p.status?.conditions ?? []), preemptionTarget(iso(4))] } };
    const { events } = run([...ready3(2), up('Pod', target, 4), up('Pod', target, 5)]);
    const notes = ofType(events, 'note');
    assert.equal(notes.length, 1);
    assert.equal(
      notes[0]?.message,
      'pod web-2-aaa is about to be disrupted (DisruptionTarget: PreemptionByScheduler): default-scheduler: preempting to accommodate a higher priority pod',
    );
  });
  it("the Deployment's terminatingReplicas (1.33+) is on the progress line", () => {
    const d = deployment({ revision: '2', generation: 2, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')] });
    const withTerminating = { ...d, status: { ...d.status, terminatingReplicas: 2 } };
    const { events } = run([
      up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 3, ready: 1 }), 1),
      up('Deployment', withTerminating, 1),
    ]);
    const progress = ofType(events, 'progress').at(-1);
    assert.equal(progress?.terminating, 2);
    assert.match(describeEvent(progress!)?.text ?? '', /, 2 old pods terminating$/);
  });
  it('ContainerStatusUnknown on a running pod is not a crash: a note, no problem', () => {
    const lost = {
      ...statusUnknown('app', iso(6)),
      restartCount: 1,
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: statusUnknown('app', iso(6)).state,
    };
    const { events } = run([...ready3(2), newPod('web-2-aaa', lost, 7), tick(30)]);
    assert.equal(ofType(events, 'problem').length, 0);
    assert.match(
      ofType(events, 'note')[0]?.message ?? '',
      /^pod web-2-aaa container "app": the node lost its state \(ContainerStatusUnknown, exit code 137\)/,
    );
  });
});

describe('a main process that exits with code 0 under restartPolicy Always', () => {
  it('is a crash loop, said as a normal exit the kubelet keeps restarting', () => {
    const c = waiting('CrashLoopBackOff', 'back-off 20s restarting failed container', {
      restarts: 2,
      last: terminatedLast(0, 'Completed'),
    });
    const { events } = run([...base, newPod('web-2-aaa', c, 5), tick(16)]);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.match(v?.problems[0]?.explanation ?? '', /main process exited with code 0 \(it ended normally\), 2 restarts/);
  });
});
