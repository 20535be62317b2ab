/** Policy windows on a simulated clock (ticks), scopes, tolerance, timeouts and validation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, PolicyOverrides } from '../../../src/core/index.js';
import { defaultPolicy, resolvePolicy } from '../../../src/core/index.js';
import { RolloutTraceError } from '../../../src/errors.js';
import {
  availableTrue,
  deployment,
  event,
  ofType,
  pod,
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
import { doneAt2, newPod, rollingTo2, UPDATE } from './scenario.js';

const NOT_FOUND =
  'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:nope not found: manifest unknown: manifest unknown';
const TRANSIENT =
  'rpc error: code = Unknown desc = Error response from daemon: Get https://registry.invalid/v2/: dial tcp: lookup registry.invalid: no such host';

describe('policy windows', () => {
  it('image-pull-not-found fails exactly 10 s after the first signal', () => {
    const base = [...rollingTo2(), newPod('web-2-aaa', waiting('ErrImagePull', NOT_FOUND, { image: 'nginx:nope' }), 1)];
    assert.equal(verdictOf(run([...base, tick(10.9)], UPDATE).events), undefined);
    const { events } = run([...base, tick(5), tick(11)], UPDATE);
    const problem = ofType(events, 'problem')[0];
    assert.equal(problem?.failsAt, T0 + 11_000);
    const verdict = verdictOf(events);
    assert.equal(verdict?.outcome, 'failed');
    assert.equal(verdict?.finishedAt, T0 + 11_000);
    assert.equal(verdict?.summary, 'pod web-2-aaa container "app": image "nginx:nope" not found (ErrImagePull)');
    assert.equal(verdict?.problems[0]?.class, 'image-pull-not-found');
    assert.ok(
      verdict?.pulumiMessages.some((m) =>
        m.startsWith('[Pod apps/web-2-aaa]: containers with unready status: [app][ErrImagePull] manifest for nginx:nope not found'),
      ),
    );
  });

  it('a pull first seen as a bare back-off, then proven "not found" by its event, fails 10 s after the first sighting', () => {
    const { events } = run(
      [
        ...rollingTo2(),
        newPod('web-2-aaa', waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"', { image: 'nginx:nope' }), 1),
        up(
          'Event',
          event({
            kind: 'Pod',
            name: 'web-2-aaa',
            reason: 'Failed',
            message: `Failed to pull image "nginx:nope": ${NOT_FOUND}`,
            type: 'Warning',
            at: 4,
          }),
          4,
        ),
        tick(8),
        tick(11),
      ],
      UPDATE,
    );
    const classes = ofType(events, 'problem').map((e) => e.problem.class);
    assert.deepEqual(classes, ['image-pull-transient', 'image-pull-not-found']);
    const verdict = verdictOf(events);
    assert.equal(verdict?.outcome, 'failed');
    assert.equal(verdict?.finishedAt, T0 + 11_000);
    assert.equal(verdict?.problems[0]?.class, 'image-pull-not-found');
  });

  it('a transient pull error that recovers never fails and is cleared', () => {
    const { events } = run(
      [
        ...rollingTo2({ replicas: 3 }),
        newPod('web-2-aaa', waiting('ErrImagePull', TRANSIENT), 1),
        tick(30),
        tick(60),
        newPod('web-2-aaa', running(), 70),
        ...doneAt2(75),
      ],
      UPDATE,
    );
    assert.equal(ofType(events, 'problem')[0]?.problem.class, 'image-pull-transient');
    assert.equal(ofType(events, 'problem-cleared')[0]?.id, 'image-pull-transient/Pod/web-2-aaa/app');
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });

  it('a transient pull error that persists 120 s fails', () => {
    const { events } = run([...rollingTo2(), newPod('web-2-aaa', waiting('ErrImagePull', TRANSIENT), 1), tick(100), tick(121)], UPDATE);
    assert.equal(verdictOf(events)?.outcome, 'failed');
    assert.equal(verdictOf(events)?.finishedAt, T0 + 121_000);
  });

  it('a single crash followed by Ready does not fail', () => {
    const { events } = run(
      [
        ...rollingTo2({ replicas: 3 }),
        newPod(
          'web-2-aaa',
          waiting('CrashLoopBackOff', 'back-off 10s restarting failed container=app', { restarts: 1, last: terminatedLast(1) }),
          1,
        ),
        tick(20),
        tick(40),
        newPod('web-2-aaa', running('app', { restarts: 1, last: terminatedLast(1) }), 41),
        tick(60),
        ...doneAt2(62),
      ],
      UPDATE,
    );
    const problem = ofType(events, 'problem')[0];
    assert.equal(problem?.problem.class, 'crash-loop');
    assert.equal(problem?.failsAt, undefined, 'one restart is below minRestarts');
    assert.equal(ofType(events, 'problem-cleared').length, 1);
    assert.equal(verdictOf(events)?.outcome, 'succeeded');
  });

  it('a crash loop fails at the second restart once the window passed', () => {
    const { events } = run(
      [
        ...rollingTo2(),
        newPod('web-2-aaa', waiting('CrashLoopBackOff', 'back-off 10s', { restarts: 1, last: terminatedLast(1, 'Error', 'boom') }), 1),
        tick(10),
        newPod('web-2-aaa', waiting('CrashLoopBackOff', 'back-off 20s', { restarts: 2, last: terminatedLast(1, 'Error', 'boom') }), 15),
      ],
      UPDATE,
    );
    const verdict = verdictOf(events);
    assert.equal(verdict?.outcome, 'failed');
    assert.equal(verdict?.finishedAt, T0 + 15_000);
    assert.equal(verdict?.summary, 'pod web-2-aaa container "app": container exited with code 1 ("boom"), 2 restarts (CrashLoopBackOff)');
    assert.equal(verdict?.hints[0], 'kubectl -n apps logs web-2-aaa -c app --previous');
  });

  it('scope all-new-pods waits until every pod of the new ReplicaSet fails', () => {
    const policy = resolvePolicy({ classes: { 'image-pull-not-found': { scope: 'all-new-pods' } } });
    const bad = (n: string, s: number) => newPod(n, waiting('ErrImagePull', NOT_FOUND, { image: 'nginx:nope' }), s);
    const ok = up('Pod', pod({ name: 'web-2-bbb', rs: 'web-2', containers: [waiting('ContainerCreating', undefined)] }), 1);
    const partial = run([...rollingTo2({ replicas: 2 }), bad('web-2-aaa', 1), ok, tick(30)], UPDATE, policy);
    assert.equal(verdictOf(partial.events), undefined);
    const all = run([...rollingTo2({ replicas: 2 }), bad('web-2-aaa', 1), ok, tick(30), bad('web-2-bbb', 31), tick(42)], UPDATE, policy);
    assert.equal(verdictOf(all.events)?.outcome, 'failed');
    assert.equal(verdictOf(all.events)?.finishedAt, T0 + 42_000);
  });

  it('tolerate 1 lets one pod have the problem; a second failing pod fails the rollout', () => {
    const policy = resolvePolicy({ classes: { 'image-pull-not-found': { tolerate: 1 } } });
    const bad = (n: string, s: number) => newPod(n, waiting('ErrImagePull', NOT_FOUND, { image: 'nginx:nope' }), s);
    const one = run([...rollingTo2({ replicas: 3 }), bad('web-2-aaa', 1), tick(60)], UPDATE, policy);
    assert.equal(verdictOf(one.events), undefined, 'one failing pod is tolerated');
    assert.equal(ofType(one.events, 'problem')[0]?.tolerated, 1);
    const two = run(
      [...rollingTo2({ replicas: 3 }), bad('web-2-aaa', 1), tick(30), bad('web-2-bbb', 31), tick(40), tick(42)],
      UPDATE,
      policy,
    );
    const verdict = verdictOf(two.events);
    assert.equal(verdict?.outcome, 'failed');
    assert.equal(verdict?.finishedAt, T0 + 42_000, 'the second pod still needs its own 10 s window');
    assert.deepEqual(
      verdict?.problems
        .slice(0, 2)
        .map((p) => p.object.name)
        .sort(),
      ['web-2-aaa', 'web-2-bbb'],
    );
    const untolerated = run([...rollingTo2({ replicas: 3 }), bad('web-2-aaa', 1), tick(12)], UPDATE);
    assert.equal(verdictOf(untolerated.events)?.outcome, 'failed', 'the default (0) fails on the first pod');
    assert.equal(ofType(untolerated.events, 'problem')[0]?.tolerated, undefined);
  });

  it('tolerate does not apply to ReplicaSet problems (they are not counted in pods)', () => {
    const policy = resolvePolicy({ classes: { 'replica-failure': { tolerate: 5 } } });
    const failure = {
      reason: 'FailedCreate',
      message: 'pods "web-2-x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3',
    };
    const rs = replicaSet({ name: 'web-2', revision: '2', replicas: 3, ready: 0, failure });
    const { events } = run([...rollingTo2({ replicas: 3 }), up('ReplicaSet', rs, 1), tick(12)], UPDATE, policy);
    assert.equal(verdictOf(events)?.outcome, 'failed');
    assert.equal(verdictOf(events)?.problems[0]?.class, 'replica-failure');
  });

  it('problems of old ReplicaSet pods never fail the new rollout', () => {
    const oldPod = up(
      'Pod',
      pod({ name: 'web-1-old', rs: 'web-1', containers: [waiting('CrashLoopBackOff', 'x', { restarts: 9, last: terminatedLast(1) })] }),
      1,
    );
    const { events } = run([...rollingTo2(), oldPod, tick(60)], UPDATE);
    assert.equal(ofType(events, 'problem').length, 0);
    assert.equal(verdictOf(events), undefined);
  });

  it('action warn reports the problem without failsAt and never fails', () => {
    const policy = resolvePolicy({ classes: { 'image-pull-not-found': { action: 'warn' } } });
    const { events } = run([...rollingTo2(), newPod('web-2-aaa', waiting('ErrImagePull', NOT_FOUND), 1), tick(100)], UPDATE, policy);
    assert.equal(ofType(events, 'problem')[0]?.failsAt, undefined);
    assert.equal(verdictOf(events), undefined);
  });

  it('action ignore neither reports nor fails: no problem event, no marker, absent from the verdict', () => {
    const policy = resolvePolicy({ classes: { 'image-pull-not-found': { action: 'ignore' } } });
    const { events } = run(
      [
        ...rollingTo2(),
        newPod('web-2-aaa', waiting('ErrImagePull', NOT_FOUND), 1),
        tick(100),
        { type: 'timeout', at: T0 + 200_000, timeoutSeconds: 200 },
      ],
      UPDATE,
      policy,
    );
    assert.equal(ofType(events, 'problem').length, 0);
    const verdict = verdictOf(events);
    assert.equal(verdict?.outcome, 'timed-out');
    assert.deepEqual(verdict?.problems, []);
  });

  it('readiness-probe window = initialDelay + period * failureThreshold + slack, from not-ready', () => {
    const probe = { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5, failureThreshold: 3 };
    const notReady = (s: number, count: number): Observation[] => [
      up('Pod', pod({ name: 'web-2-aaa', rs: 'web-2', readinessProbe: probe, containers: [running('app', { ready: false })] }), s),
      podEvent('web-2-aaa', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', s, {
        count,
        uid: 'unhealthy-1',
      }),
    ];
    const base = [...rollingTo2(), ...notReady(2, 1), ...notReady(12, 3)];
    assert.equal(verdictOf(run([...base, tick(26.9)], UPDATE).events), undefined);
    const { events } = run([...base, tick(27)], UPDATE);
    assert.equal(ofType(events, 'problem')[0]?.failsAt, T0 + 27_000);
    assert.equal(verdictOf(events)?.outcome, 'failed');
    assert.equal(verdictOf(events)?.problems[0]?.probe?.failures, 3);
  });

  it('an unschedulable pod with an autoscaler scale-up gets the longer grace', () => {
    const msg = '0/1 nodes are available: 1 Insufficient cpu.';
    const p = up('Pod', pod({ name: 'web-2-aaa', rs: 'web-2', scheduled: { status: 'False', reason: 'Unschedulable', message: msg } }), 1);
    const plain = run([...rollingTo2(), p, tick(11)], UPDATE);
    assert.equal(verdictOf(plain.events)?.problems[0]?.class, 'unschedulable');
    const scaleUp = up(
      'Event',
      event({
        kind: 'Pod',
        name: 'web-2-aaa',
        reason: 'TriggeredScaleUp',
        type: 'Normal',
        message: 'pod triggered scale-up: [{pool 1->2 (max: 3)}]',
        at: 2,
      }),
      2,
    );
    const waitingForNode = run([...rollingTo2(), p, scaleUp, tick(60)], UPDATE);
    assert.equal(verdictOf(waitingForNode.events), undefined);
    assert.equal(verdictOf(run([...rollingTo2(), p, scaleUp, tick(301)], UPDATE).events)?.outcome, 'failed');
  });

  it('ProgressDeadlineExceeded fails at once', () => {
    const d = deployment({
      revision: '2',
      generation: 2,
      conditions: [availableTrue, progressing('ProgressDeadlineExceeded', 'web-2', 'False')],
    });
    const { events } = run([...rollingTo2(), up('Deployment', d, 3)], UPDATE);
    assert.equal(verdictOf(events)?.problems[0]?.class, 'progress-deadline');
    assert.equal(verdictOf(events)?.finishedAt, T0 + 3000);
  });

  it('ReplicaFailure on the new ReplicaSet fails after 10 s', () => {
    const rs = replicaSet({
      name: 'web-2',
      revision: '2',
      replicas: 1,
      ready: 0,
      statusReplicas: 0,
      failure: { reason: 'FailedCreate', message: 'pods "web-2-x" is forbidden: exceeded quota: compute' },
    });
    const { events } = run([...rollingTo2(), up('ReplicaSet', rs, 1), tick(10), tick(11)], UPDATE);
    const v = verdictOf(events);
    assert.equal(v?.problems[0]?.class, 'replica-failure');
    assert.equal(
      v?.summary,
      'replicaset web-2: pods cannot be created: pods "web-2-x" is forbidden: exceeded quota: compute (FailedCreate)',
    );
    assert.equal(v?.finishedAt, T0 + 11_000);
  });

  // A create the API server failed (overload, timeouts, an unreachable webhook) is retried by the
  // controller: 120 s, not 10. A refusal keeps its 10 s even when its text has a transient word.
  const CREATE_FAILURES: Array<[string, 'transient' | 'refusal']> = [
    ['Internal error occurred: resource quota evaluation timed out', 'transient'],
    ['The POST operation against Pod could not be completed at this time, please try again.', 'transient'],
    ['Too many requests, please try again later.', 'transient'],
    [
      'pods "web-2-x" is forbidden: no API token found for service account ns/default, retry after the token is automatically created and added to the service account',
      'transient',
    ],
    [
      'Internal error occurred: failed calling webhook "pods.example.com": Post "https://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused',
      'transient',
    ],
    ['Timeout: request did not complete within requested timeout 34s', 'transient'],
    ['etcdserver: request timed out', 'transient'],
    ['pods "web-2-x" is forbidden: error looking up service account ns/default: serviceaccount "default" not found', 'transient'],
    ['pods "web-2-x" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=3, limited: pods=3', 'refusal'],
    ['admission webhook "policy.example.com" denied the request: request timed out waiting for approval', 'refusal'],
    ['pods "web-2-x" is forbidden: maximum cpu usage per Container is 1, but limit is 2', 'refusal'],
  ];
  for (const [message, kind] of CREATE_FAILURES) {
    it(`FailedCreate ${kind === 'transient' ? 'the server caused fails after 120 s' : 'refusal fails after 10 s'}: ${message.slice(0, 60)}`, () => {
      const failure = { reason: 'FailedCreate', message };
      const rs = replicaSet({ name: 'web-2', revision: '2', replicas: 1, ready: 0, statusReplicas: 0, failure });
      const at = kind === 'transient' ? [11, 119, 121] : [11];
      const { events } = run([...rollingTo2(), up('ReplicaSet', rs, 1), ...at.map((s) => tick(s))], UPDATE);
      const v = verdictOf(events);
      assert.equal(v?.outcome, 'failed');
      assert.equal(v?.problems[0]?.class, 'replica-failure');
      assert.equal(v?.problems[0]?.transient, kind === 'transient' ? true : undefined);
      assert.equal(v?.finishedAt, T0 + (kind === 'transient' ? 121_000 : 11_000));
    });
  }

  it('a transient FailedCreate that clears never fails the rollout', () => {
    const failure = { reason: 'FailedCreate', message: 'Internal error occurred: resource quota evaluation timed out' };
    const failing = replicaSet({ name: 'web-2', revision: '2', replicas: 1, ready: 0, statusReplicas: 0, failure });
    const created = replicaSet({ name: 'web-2', revision: '2', replicas: 1, ready: 0, statusReplicas: 1 });
    const { events } = run([...rollingTo2(), up('ReplicaSet', failing, 1), tick(30), up('ReplicaSet', created, 40), tick(130)], UPDATE);
    assert.equal(verdictOf(events), undefined, 'no verdict: the rollout goes on');
    assert.equal(ofType(events, 'problem-cleared').length, 1);
  });
});

describe('timeout, cancel, verdict once', () => {
  it('timeout gives timed-out with Pulumi messages, problems and timeoutSeconds', () => {
    const policy = resolvePolicy({ classes: { 'image-pull-transient': { action: 'warn' } } });
    const { events } = run(
      [
        ...rollingTo2(),
        newPod('web-2-aaa', waiting('ErrImagePull', TRANSIENT), 1),
        { type: 'timeout', at: T0 + 600_000, timeoutSeconds: 600 },
      ],
      UPDATE,
      policy,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'timed-out');
    assert.equal(v?.timeoutSeconds, 600);
    assert.equal(v?.problems[0]?.class, 'image-pull-transient');
    assert.ok(v?.summary.startsWith('timed out after 600s waiting for revision 2: 0/3 pods ready; pod web-2-aaa'));
    assert.ok(v?.pulumiMessages.includes('Minimum number of Pods to consider the application live was not attained'));
  });

  it('cancel gives cancelled', () => {
    const { events } = run([...rollingTo2(), { type: 'cancel', at: T0 + 5000, reason: 'SIGINT' }], UPDATE);
    assert.equal(verdictOf(events)?.outcome, 'cancelled');
    assert.match(verdictOf(events)?.summary ?? '', /^cancelled \(SIGINT\)/);
  });

  it('emits exactly one verdict; later observations emit nothing and keep the state', () => {
    const { state, events } = run([...rollingTo2({ replicas: 3 }), ...doneAt2(5)], UPDATE);
    assert.equal(ofType(events, 'verdict').length, 1);
    assert.equal(verdictOf(events)?.summary, 'revision 2 rolled out: 3/3 pods ready in 5.0s');
    const again = run(
      [...rollingTo2({ replicas: 3 }), ...doneAt2(5), tick(6), { type: 'timeout', at: T0 + 9000, timeoutSeconds: 9 }],
      UPDATE,
    );
    assert.equal(ofType(again.events, 'verdict').length, 1);
    assert.equal(again.state.verdict, again.state.verdict);
    assert.equal(state.verdict?.outcome, 'succeeded');
  });
});

describe('success criteria', () => {
  /** Every desired pod created from the current template (updatedReplicas 4 unless told), `ready` of them ready. */
  const four = (ready: number, updatedReplicas = 4): Observation[] => [
    up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: updatedReplicas, ready }), 1),
    up(
      'Deployment',
      deployment({
        revision: '2',
        generation: 2,
        replicas: 4,
        conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')],
        status: { updatedReplicas, replicas: updatedReplicas + 1 },
      }),
      1,
    ),
  ];
  it('partial modes wait until as many pods as they need run the current template (updatedReplicas), never counting older ones', () => {
    // [mode, ready pods the ReplicaSet reports, updatedReplicas the controller reports, succeeds?]
    const table = [
      [{ mode: 'maxUnavailable' }, 3, 2, false], // needs 3 (4 - 25%): only 2 run the current template
      [{ mode: 'maxUnavailable' }, 3, 3, true],
      [{ mode: 'percent', percent: 50 }, 3, 1, false], // needs 2
      [{ mode: 'percent', percent: 50 }, 2, 2, true],
      [{ mode: 'pods', pods: 1 }, 3, 0, false], // e.g. paused: the controller made no pod of the current template
      [{ mode: 'pods', pods: 1 }, 1, 1, true], // e.g. a quota holding the rollout to 1 pod
    ] as const;
    for (const [success, ready, updated, succeeds] of table) {
      const outcome = verdictOf(run(four(ready, updated), UPDATE, resolvePolicy({ success })).events)?.outcome;
      assert.equal(outcome, succeeds ? 'succeeded' : undefined, `${JSON.stringify(success)} ready ${ready} updated ${updated}`);
    }
  });
  it('maxUnavailable (krane): ready >= desired - maxUnavailable (25% of 4 = 1)', () => {
    const policy = resolvePolicy({ success: { mode: 'maxUnavailable' } });
    assert.equal(verdictOf(run(four(2), UPDATE, policy).events), undefined);
    assert.equal(verdictOf(run(four(3), UPDATE, policy).events)?.outcome, 'succeeded');
    assert.equal(verdictOf(run(four(3), UPDATE).events), undefined, 'full (Pulumi) still waits');
  });
  it('percent: ready >= ceil(desired * percent / 100)', () => {
    const policy = resolvePolicy({ success: { mode: 'percent', percent: 50 } });
    assert.equal(verdictOf(run(four(1), UPDATE, policy).events), undefined);
    assert.equal(verdictOf(run(four(2), UPDATE, policy).events)?.outcome, 'succeeded');
  });
  it('pods: ready >= min(pods, desired)', () => {
    const three = resolvePolicy({ success: { mode: 'pods', pods: 3 } });
    assert.equal(verdictOf(run(four(2), UPDATE, three).events), undefined);
    assert.equal(verdictOf(run(four(3), UPDATE, three).events)?.outcome, 'succeeded');
    const nine = resolvePolicy({ success: { mode: 'pods', pods: 9 } });
    assert.equal(verdictOf(run(four(3), UPDATE, nine).events), undefined);
    assert.equal(verdictOf(run(four(4), UPDATE, nine).events)?.outcome, 'succeeded', 'more pods than desired means all of them');
  });
});

describe('resolvePolicy', () => {
  it('returns the defaults without overrides', () => assert.deepEqual(resolvePolicy(), defaultPolicy()));
  it('accepts deployment-deleted as the former name of workload-deleted', () => {
    const p = resolvePolicy({ classes: { 'deployment-deleted': { action: 'warn' } } });
    assert.equal(p.classes['workload-deleted'].action, 'warn');
    assert.equal((p.classes as Record<string, unknown>)['deployment-deleted'], undefined);
  });
  it('merges overrides per class', () => {
    const p = resolvePolicy({ classes: { 'crash-loop': { afterSeconds: 30 } } });
    assert.deepEqual(p.classes['crash-loop'], { action: 'fail', afterSeconds: 30, scope: 'any-pod', minRestarts: 2 });
  });
  const bad: Array<[string, unknown, RegExp]> = [
    ['unknown class', { classes: { 'image-pull': { action: 'warn' } } }, /unknown failure class "image-pull".*"image-pull-not-found"/],
    ['negative seconds', { classes: { 'crash-loop': { afterSeconds: -1 } } }, /afterSeconds is -1.*>= 0/],
    ['NaN seconds', { classes: { 'crash-loop': { afterSeconds: Number.NaN } } }, /afterSeconds is NaN/],
    ['bad action', { classes: { 'crash-loop': { action: 'explode' } } }, /action is "explode".*"fail", "warn" and "ignore"/],
    ['bad scope', { classes: { 'crash-loop': { scope: 'some' } } }, /scope is "some".*"any-pod" and "all-new-pods"/],
    ['percent 0', { success: { mode: 'percent', percent: 0 } }, /percent is 0.*1 to 100/],
    ['percent 101', { success: { mode: 'percent', percent: 101 } }, /percent is 101/],
    ['bad mode', { success: { mode: 'most' } }, /mode is "most".*"pods"/],
    ['pods 0', { success: { mode: 'pods', pods: 0 } }, /success.pods is 0.*integer >= 1/],
    ['pods 1.5', { success: { mode: 'pods', pods: 1.5 } }, /success.pods is 1.5/],
    ['negative tolerate', { classes: { 'crash-loop': { tolerate: -1 } } }, /tolerate is -1.*integer >= 0/],
    ['fractional tolerate', { classes: { 'crash-loop': { tolerate: 0.5 } } }, /"crash-loop"\]\.tolerate is 0.5/],
  ];
  for (const [name, overrides, re] of bad) {
    it(`rejects ${name}`, () => {
      assert.throws(
        () => resolvePolicy(overrides as PolicyOverrides),
        (err: unknown) => err instanceof RolloutTraceError && err.code === 'bad-input' && re.test(err.message),
      );
    });
  }
});

describe('pvc-pending', () => {
  it("a referenced Pending PVC fails after 60 s, and Pulumi's bind line is in the verdict", async () => {
    const { pvc } = await import('./builders.js');
    const d = deployment({
      revision: '2',
      generation: 2,
      pvcs: ['data'],
      conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')],
    });
    const obs: Observation[] = [
      ...rollingTo2(),
      up('Deployment', d, 0),
      up('PersistentVolumeClaim', pvc('data', 'Pending'), 1),
      up(
        'Event',
        event({
          kind: 'PersistentVolumeClaim',
          name: 'data',
          reason: 'FailedBinding',
          message: 'no persistent volumes available for this claim and no storage class is set',
        }),
        1,
      ),
    ];
    assert.equal(verdictOf(run([...obs, tick(60)], UPDATE).events), undefined);
    const v = verdictOf(run([...obs, tick(61)], UPDATE).events);
    assert.equal(v?.problems[0]?.class, 'pvc-pending');
    assert.equal(
      v?.summary,
      'persistentvolumeclaim data: PersistentVolumeClaim "data" is Pending: no persistent volumes available for this claim and no storage class is set (FailedBinding)',
    );
    assert.ok(v?.pulumiMessages.includes('Failed to bind PersistentVolumeClaim(s): "data"'));
  });
});
