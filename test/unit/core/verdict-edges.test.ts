/**
 * The edges of every verdict, from tables: no success before the current template is rolled out
 * (kubectl's rule), a paused rollout is its own verdict, and a crash loop is never a success.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, PolicyOverrides } from '../../../src/core/index.js';
import { resolvePolicy } from '../../../src/core/index.js';
import {
  availableTrue,
  deployment,
  iso,
  ofType,
  podEvent,
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

const pausedCond = { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' };
const full = (n: number) => ({ replicas: n, updatedReplicas: n, readyReplicas: n, availableReplicas: n });

/** `kubectl rollout pause; kubectl set image`: no new ReplicaSet, revision 1 stays, 0 of 3 updated. */
const pausedBefore = (s: number): Observation[] => [
  up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', ready: 3 }), s),
  up(
    'Deployment',
    deployment({
      revision: '1',
      generation: 3,
      paused: true,
      image: 'nginx:1.13-alpine',
      conditions: [availableTrue, pausedCond],
      status: { ...full(3), updatedReplicas: 0 },
    }),
    s,
  ),
];

/** Paused mid-rollout: revision 2 has 1 of 3 pods, all ready. */
const pausedMid = (s: number, o: { updated?: number; total?: number } = {}): Observation[] => [
  up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 2, ready: 2 }), s),
  up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: o.updated ?? 1, ready: o.updated ?? 1 }), s),
  up(
    'Deployment',
    deployment({
      revision: '2',
      generation: 3,
      paused: true,
      conditions: [availableTrue, pausedCond],
      status: { ...full(3), replicas: o.total ?? 3, updatedReplicas: o.updated ?? 1 },
    }),
    s,
  ),
];

/** Resumed (generation 4) and rolled out. */
const resumedDone = (s: number): Observation[] => [
  up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 3, ready: 3 }), s),
  up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 0, ready: 0, statusReplicas: 0 }), s),
  up(
    'Deployment',
    deployment({ revision: '2', generation: 4, conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-2')] }),
    s,
  ),
];

interface Row {
  name: string;
  obs: Observation[];
  policy?: PolicyOverrides;
  /** The outcome, or undefined: still waiting after the last observation. */
  outcome: 'succeeded' | 'failed' | 'timed-out' | undefined;
  summary?: RegExp;
}

function check(rows: Row[]): void {
  for (const r of rows) {
    it(r.name, () => {
      const v = verdictOf(run(r.obs, {}, resolvePolicy(r.policy)).events);
      assert.equal(v?.outcome, r.outcome, v?.summary);
      if (r.summary) assert.match(v?.summary ?? '', r.summary);
    });
  }
}

const timeout = (s: number): Observation => ({ type: 'timeout', at: T0 + s * 1000, timeoutSeconds: s });

describe('paused: its own verdict, never a success nor a silent wait', () => {
  check([
    {
      name: 'paused before the change: no success within the window (0 updated)',
      obs: [...pausedBefore(1), tick(10.9)],
      outcome: undefined,
    },
    {
      name: 'paused before the change: fails when the 10 s window ends, saying what is paused and how to resume',
      obs: [...pausedBefore(1), tick(11)],
      outcome: 'failed',
      summary:
        /deployment web: the Deployment is paused \(spec\.paused=true\).*0 of 3 pods run the current template.*`kubectl rollout resume deployment\/web -n apps`/,
    },
    { name: 'paused mid-rollout fails after its window', obs: [...pausedMid(2), tick(12)], outcome: 'failed', summary: /1 of 3 pods run/ },
    {
      name: 'paused with every pod updated but an old pod left',
      obs: [...pausedMid(2, { updated: 3, total: 4 }), tick(12)],
      outcome: 'failed',
      summary: /1 old pod is pending termination/,
    },
    { name: 'resumed within the window: succeeds', obs: [...pausedMid(2), tick(6), ...resumedDone(7), tick(20)], outcome: 'succeeded' },
    {
      name: 'action warn waits for a resume',
      obs: [...pausedBefore(1), tick(300)],
      policy: { classes: { paused: { action: 'warn' } } },
      outcome: undefined,
    },
    {
      name: 'action warn: the timeout summary says it is paused',
      obs: [...pausedBefore(1), timeout(600)],
      policy: { classes: { paused: { action: 'warn' } } },
      outcome: 'timed-out',
      summary: /paused \(spec\.paused=true\)/,
    },
    {
      name: 'a 60 s window: no failure at 30 s',
      obs: [...pausedBefore(1), tick(30)],
      policy: { classes: { paused: { afterSeconds: 60 } } },
      outcome: undefined,
    },
    {
      name: 'a 60 s window: fails at 61 s',
      obs: [...pausedBefore(1), tick(61)],
      policy: { classes: { paused: { afterSeconds: 60 } } },
      outcome: 'failed',
    },
    {
      name: 'paused after its template was rolled out (no change): success, like kubectl',
      obs: [
        up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', ready: 3 })),
        up('Deployment', deployment({ paused: true, conditions: [availableTrue, pausedCond], status: full(3) })),
      ],
      outcome: 'succeeded',
    },
  ]);
  it('the paused verdict hints at kubectl rollout resume first', () => {
    const v = verdictOf(run([...pausedBefore(1), tick(11)]).events);
    assert.equal(v?.problems[0]?.class, 'paused');
    assert.equal(v?.hints[0], 'kubectl -n apps rollout resume deployment/web');
  });
});

const rev1 = (status: Record<string, number>, extra: Parameters<typeof deployment>[0] = {}): Observation[] => [
  up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: status.replicas ?? 3, ready: 3 })),
  up('Deployment', deployment({ conditions: [availableTrue], status: { ...full(3), ...status }, ...extra })),
];

describe("success needs the current template rolled out (kubectl's rule)", () => {
  check([
    { name: 'revision 1 ready but 0 of 3 pods updated: waits', obs: rev1({ updatedReplicas: 0 }), outcome: undefined },
    { name: 'old pods pending termination: waits', obs: rev1({ replicas: 4 }), outcome: undefined },
    {
      name: 'a timeout says what is missing',
      obs: [...rev1({ replicas: 4 }), timeout(600)],
      outcome: 'timed-out',
      summary: /; 1 old pod is pending termination$/,
    },
    { name: 'updated pods not available yet (minReadySeconds): waits', obs: rev1({ availableReplicas: 1 }), outcome: undefined },
    { name: 'all updated, no old pod, all available: succeeds', obs: rev1({}), outcome: 'succeeded' },
    {
      name: '0 replicas: succeeds',
      obs: [
        up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 0, ready: 0 })),
        up('Deployment', deployment({ replicas: 0, conditions: [availableTrue] })),
      ],
      outcome: 'succeeded',
    },
  ]);
});

const crashed = (restarts: number, startedAt: number) =>
  running('app', { restarts, startedAt: iso(startedAt), last: terminatedLast(3, 'Error', 'boom', iso(startedAt - 0.5)) });
const pods2 = (s: number, c = running()): Observation[] => ['web-2-aaa', 'web-2-bbb', 'web-2-ccc'].map((n) => newPod(n, c, s));

/** web-2-aaa, Ready, fails its liveness probe at `s` (the kubelet kills it after failureThreshold). */
const livenessFailed = (s: number): Observation =>
  podEvent('web-2-aaa', 'Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 500', s);

/** web-2-aaa had a transient pull error from 3 s to 8 s. */
const cleared: Observation[] = [
  ...rollingTo2({ replicas: 3, ready: 2 }),
  ...pods2(2),
  newPod('web-2-aaa', waiting('ErrImagePull', 'rpc error: code = Unknown desc = net/http: request canceled'), 3),
  newPod('web-2-aaa', running(), 8),
  ...doneAt2(8),
];
/** ... and was not Ready for a moment at 10 s. */
const flapped: Observation[] = [
  ...cleared,
  newPod('web-2-aaa', running('app', { ready: false }), 10),
  newPod('web-2-aaa', running(), 10.5),
];

describe('a crash loop is never a success: the hold', () => {
  check([
    { name: 'healthy pods: success at once', obs: [...pods2(2), ...doneAt2(3)], outcome: 'succeeded' },
    {
      name: 'one crash, then Ready: held for the 5 s settle time',
      obs: [...pods2(2), newPod('web-2-aaa', crashed(1, 10), 10), ...doneAt2(11), tick(14.9)],
      outcome: undefined,
    },
    {
      name: 'one crash, then Ready 5 s: succeeds',
      obs: [...pods2(2), newPod('web-2-aaa', crashed(1, 10), 10), ...doneAt2(11), tick(15)],
      outcome: 'succeeded',
    },
    {
      name: 'crash-looping but Ready between restarts: held',
      obs: [...pods2(2, crashed(2, 10)), ...doneAt2(11), tick(20.9)],
      outcome: undefined,
    },
    {
      name: 'crash-looping but Ready between restarts: fails when its window ends',
      obs: [...pods2(2, crashed(2, 10)), ...doneAt2(11), tick(21)],
      outcome: 'failed',
      summary: /exited with code 3/,
    },
    {
      name: 'crash-loop action warn: no hold',
      obs: [...pods2(2, crashed(2, 10)), ...doneAt2(11)],
      policy: { classes: { 'crash-loop': { action: 'warn' } } },
      outcome: 'succeeded',
    },
    {
      name: 'settleSeconds 0: one crash then Ready succeeds at once',
      obs: [...pods2(2), newPod('web-2-aaa', crashed(1, 10), 10), ...doneAt2(11)],
      policy: { settleSeconds: 0 },
      outcome: 'succeeded',
    },
    {
      name: 'a Ready pod failing its liveness probe (flapping): held, it is about to be restarted',
      obs: [...pods2(2), livenessFailed(3), ...doneAt2(3.5), tick(7.9)],
      outcome: undefined,
    },
    {
      name: 'a liveness failure 5 s ago and Ready since: succeeds',
      obs: [...pods2(2), livenessFailed(3), ...doneAt2(3.5), tick(8)],
      outcome: 'succeeded',
    },
    { name: 'a problem that cleared holds for the settle time', obs: [...cleared, tick(12.9)], outcome: undefined },
    { name: 'a problem that cleared: success once settled', obs: [...cleared, tick(13)], outcome: 'succeeded' },
    { name: 'a settling pod seen not Ready settles again from then', obs: [...flapped, tick(14.9)], outcome: undefined },
    { name: 'a settling pod seen not Ready: success 5 s after', obs: [...flapped, tick(15)], outcome: 'succeeded' },
    {
      name: 'a terminating pod does not hold',
      obs: [...pods2(2), newPod('web-2-ddd', crashed(2, 10), 10, { deleting: true }), ...doneAt2(11)],
      outcome: 'succeeded',
    },
  ]);
  it('the held event says which pod, why, and when it settles', () => {
    const { events } = run([...pods2(2), newPod('web-2-aaa', crashed(1, 10), 10), ...doneAt2(11), tick(15)]);
    const held = ofType(events, 'held');
    assert.equal(held.length, 1);
    assert.deepEqual(held[0]?.pods, ['web-2-aaa']);
    assert.equal(held[0]?.until, T0 + 15_000);
    assert.match(
      held[0]?.message ?? '',
      /pod web-2-aaa container "app" restarted after it exited with code 3 \(1 restart\); success once it has stayed Ready 5s/,
    );
    assert.ok(events.findIndex((e) => e.type === 'held') < events.findIndex((e) => e.type === 'verdict'));
  });
  it('a crash loop held: the held event names the open problem', () => {
    const { events } = run([...pods2(2, crashed(2, 10)), ...doneAt2(11)]);
    assert.match(
      ofType(events, 'held')[0]?.message ?? '',
      /^pod web-2-aaa container "app": container exited with code 3.*\(and 2 more pods\); success waits until it clears/,
    );
  });
});

describe('template match: the whole template without pod-template-hash', () => {
  const restartedAt = { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T04:00:00Z' };
  it('kubectl rollout restart (an annotation only) is a new revision, not a rollback', () => {
    const { events } = run(
      [
        up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 0, ready: 0 })),
        up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', ready: 3, image: 'nginx:1.19', templateAnnotations: restartedAt })),
        up(
          'Deployment',
          deployment({
            revision: '2',
            generation: 2,
            image: 'nginx:1.19',
            templateAnnotations: restartedAt,
            conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-2')],
          }),
        ),
      ],
      { baselineRevision: '1' },
    );
    assert.deepEqual(
      ofType(events, 'revision').map((e) => [e.change, e.restores]),
      [['new', undefined]],
    );
    assert.doesNotMatch(verdictOf(events)?.summary ?? '', /rollback/);
  });
  it('an undo is a rollback, and the verdict names the revision whose template it restored', () => {
    const { events } = run(
      [
        up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 0, ready: 0, statusReplicas: 0 })),
        up('ReplicaSet', replicaSet({ name: 'web-1', revision: '3', ready: 3, history: '1', image: 'nginx:1.19' })),
        up(
          'Deployment',
          deployment({
            revision: '3',
            generation: 3,
            image: 'nginx:1.19',
            conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-1')],
          }),
        ),
      ],
      { baselineRevision: '2' },
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'succeeded');
    assert.equal(v?.restores, '1');
    assert.match(v?.summary ?? '', /^revision 3 \(a rollback: the template of revision 1\) rolled out: 3\/3 pods ready/);
  });
});
