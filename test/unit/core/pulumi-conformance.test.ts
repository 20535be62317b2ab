/**
 * Conformance with pulumi-kubernetes' Deployment awaiter (provider/pkg/await/deployment.go: its
 * per-event processing, `checkAndLogStatus` and `errorMessages`):
 * one row per rule; each asserts the same outcome Pulumi reaches (success, or still waiting at
 * timeout) and the same sub-error strings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, TrackTarget } from '../../../src/core/index.js';
import {
  availableFalse,
  availableTrue,
  del,
  deployment,
  NS,
  ofType,
  pod,
  progressing,
  pvc,
  replicaSet,
  run,
  T0,
  up,
  verdictOf,
  waiting,
} from './builders.js';

const timeout: Observation = { type: 'timeout', at: T0 + 600_000, timeoutSeconds: 600 };
const LIVE = 'Minimum number of live Pods was not attained';
const CONSIDER = 'Minimum number of Pods to consider the application live was not attained';
const ROLL = 'Attempted to roll forward to new ReplicaSet, but minimum number of Pods did not become live';
const UNAVAILABLE = '[MinimumReplicasUnavailable] Deployment does not have minimum availability.';

interface Row {
  rule: string;
  target?: Partial<TrackTarget>;
  obs: Observation[];
  /** 'succeeded', or the Pulumi sub-errors printed at timeout. */
  expect: 'succeeded' | string[];
  /** Where we deliberately differ from Pulumi (we fail early; Pulumi waits for its timeout). */
  ours?: 'failed';
}

const rs1Ready = replicaSet({ name: 'web-1', revision: '1', ready: 3 });
const rs2 = (ready: number | null, o: { available?: number } = {}) => replicaSet({ name: 'web-2', revision: '2', ready, ...o });
const v2Done = [availableTrue, progressing('NewReplicaSetAvailable', 'web-2')];

const rows: Row[] = [
  {
    rule: 'Phase A: waits until metadata.generation == status.observedGeneration',
    obs: [up('ReplicaSet', rs1Ready), up('Deployment', deployment({ generation: 2, observedGeneration: 1, conditions: [availableTrue] }))],
    expect: [LIVE],
  },
  {
    rule: 'Phase A: a Deployment without status.observedGeneration is ignored',
    obs: [up('ReplicaSet', rs1Ready), up('Deployment', deployment({ observedGeneration: null, conditions: [availableTrue] }))],
    expect: [LIVE],
  },
  {
    rule: 'missing revision annotation: the controller has not created a ReplicaSet yet',
    obs: [up('ReplicaSet', rs1Ready), up('Deployment', deployment({ revision: null, conditions: [availableTrue] }))],
    expect: [LIVE],
  },
  {
    rule: 'Available=False records [reason] message and blocks',
    obs: [
      up('ReplicaSet', rs1Ready),
      up('Deployment', deployment({ conditions: [availableFalse, progressing('NewReplicaSetAvailable', 'web-1')] })),
    ],
    expect: [UNAVAILABLE, LIVE],
  },
  {
    rule: 'revision 1 needs no Progressing condition',
    obs: [up('ReplicaSet', rs1Ready), up('Deployment', deployment({ conditions: [availableTrue] }))],
    expect: 'succeeded',
  },
  {
    rule: 'revision 2 needs Progressing=True/NewReplicaSetAvailable',
    obs: [
      up('ReplicaSet', rs2(3)),
      up(
        'Deployment',
        deployment({ revision: '2', generation: 2, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')] }),
      ),
    ],
    expect: [CONSIDER],
  },
  {
    rule: 'revision 2 with NewReplicaSetAvailable and a ready ReplicaSet succeeds',
    obs: [up('ReplicaSet', rs2(3)), up('Deployment', deployment({ revision: '2', generation: 2, conditions: v2Done }))],
    expect: 'succeeded',
  },
  {
    rule: 'Progressing=False/ProgressDeadlineExceeded is a sub-error (Pulumi never fails on it)',
    obs: [
      up('ReplicaSet', rs2(1)),
      up(
        'Deployment',
        deployment({
          revision: '2',
          generation: 2,
          conditions: [availableTrue, progressing('ProgressDeadlineExceeded', 'web-2', 'False')],
        }),
      ),
    ],
    expect: ['[ProgressDeadlineExceeded] ReplicaSet "web-2" has timed out progressing.', CONSIDER],
    ours: 'failed',
  },
  {
    rule: 'RS readyReplicas counts, not availableReplicas (ready 3, available 0 succeeds)',
    obs: [up('ReplicaSet', rs2(3, { available: 0 })), up('Deployment', deployment({ revision: '2', generation: 2, conditions: v2Done }))],
    expect: 'succeeded',
  },
  {
    rule: 'RS readyReplicas below spec.replicas blocks',
    obs: [up('ReplicaSet', rs2(2, { available: 3 })), up('Deployment', deployment({ revision: '2', generation: 2, conditions: v2Done }))],
    expect: [ROLL],
  },
  {
    rule: 'RS is matched by owner UID, not by name',
    obs: [
      up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', ready: 3, ownerUid: 'someone-else' })),
      up('Deployment', deployment({ conditions: [availableTrue] })),
    ],
    expect: [CONSIDER],
  },
  {
    rule: 'metadata-only update (baselineRevision == revision) succeeds without a new ReplicaSet',
    target: { baselineRevision: '2' },
    obs: [up('ReplicaSet', rs2(3)), up('Deployment', deployment({ revision: '2', generation: 5, conditions: v2Done }))],
    expect: 'succeeded',
  },
  {
    rule: 'template change (revision != baseline) needs the new revision ReplicaSet ready',
    target: { baselineRevision: '1' },
    obs: [
      up('ReplicaSet', rs1Ready),
      up('ReplicaSet', rs2(0)),
      up('Deployment', deployment({ revision: '2', generation: 2, conditions: v2Done })),
    ],
    expect: [ROLL],
  },
  {
    rule: 'with a baseline, the old revision being ready is not success',
    target: { baselineRevision: '1', minGeneration: 2 },
    obs: [
      up('ReplicaSet', rs1Ready),
      up('Deployment', deployment({ revision: '1', generation: 2, observedGeneration: 1, conditions: [availableTrue] })),
    ],
    expect: [LIVE],
  },
  {
    rule: 'an unbound PVC referenced by the template blocks',
    obs: [
      up('PersistentVolumeClaim', pvc('data', 'Pending')),
      up('ReplicaSet', rs1Ready),
      up('Deployment', deployment({ pvcs: ['data'], conditions: [availableTrue] })),
    ],
    expect: ['Failed to bind PersistentVolumeClaim(s): "data"'],
  },
  {
    rule: 'a Bound PVC does not block',
    obs: [
      up('PersistentVolumeClaim', pvc('data', 'Bound')),
      up('ReplicaSet', rs1Ready),
      up('Deployment', deployment({ pvcs: ['data'], conditions: [availableTrue] })),
    ],
    expect: 'succeeded',
  },
  {
    rule: 'replicas 0: absent readyReplicas with spec 0 is done',
    obs: [
      up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', replicas: 0, ready: null })),
      up('Deployment', deployment({ replicas: 0, conditions: [availableTrue] })),
    ],
    expect: 'succeeded',
  },
  {
    rule: 'absent readyReplicas with spec 3 is not done',
    obs: [
      up('ReplicaSet', replicaSet({ name: 'web-1', revision: '1', ready: null })),
      up('Deployment', deployment({ conditions: [availableTrue] })),
    ],
    expect: [CONSIDER],
  },
  {
    rule: 'a stale generation (below minGeneration) is ignored',
    target: { minGeneration: 2 },
    obs: [up('ReplicaSet', rs1Ready), up('Deployment', deployment({ generation: 1, conditions: [availableTrue] }))],
    expect: [LIVE],
  },
  {
    rule: 'condition errors reset on every Deployment event',
    obs: [
      up('ReplicaSet', rs1Ready),
      up('Deployment', deployment({ conditions: [availableFalse] }), 1),
      up('Deployment', deployment({ conditions: [availableTrue] }), 2),
    ],
    expect: 'succeeded',
  },
];

describe('Pulumi await conformance', () => {
  for (const row of rows) {
    it(row.rule, () => {
      const { events } = run([...row.obs, timeout], row.target);
      const verdict = verdictOf(events);
      assert.ok(verdict, 'a verdict');
      if (row.expect === 'succeeded') {
        assert.equal(verdict.outcome, 'succeeded', verdict.summary);
        assert.deepEqual(verdict.pulumiMessages, []);
      } else {
        assert.equal(verdict.outcome, row.ours ?? 'timed-out', verdict.summary);
        assert.deepEqual(verdict.pulumiMessages, row.expect);
      }
    });
  }

  it('a Deployment whose deletionTimestamp is set (a foreground delete) fails as deleted before it is gone', () => {
    const d = deployment({ conditions: [availableFalse] });
    const deleting = { ...d, metadata: { ...d.metadata, deletionTimestamp: new Date(T0 + 2000) } };
    const { events } = run([up('ReplicaSet', rs1Ready), up('Deployment', d, 1), up('Deployment', deleting, 2)]);
    const verdict = verdictOf(events);
    assert.equal(verdict?.outcome, 'failed');
    assert.equal(verdict?.problems[0]?.class, 'workload-deleted');
    assert.equal(verdict?.finishedAt, T0 + 2000);
  });

  it('the Deleted Deployment event is ignored by Pulumi, but we fail at once', () => {
    const d = deployment({ conditions: [availableFalse] });
    const { events } = run([up('ReplicaSet', rs1Ready), up('Deployment', d, 1), del('Deployment', d, 2)]);
    const verdict = verdictOf(events);
    assert.equal(verdict?.outcome, 'failed');
    assert.equal(verdict?.problems[0]?.class, 'workload-deleted');
    assert.equal(verdict?.finishedAt, T0 + 2000);
    assert.deepEqual(verdict?.problems[0]?.hints, [
      `kubectl -n ${NS} get deployment web`,
      `kubectl -n ${NS} get events --field-selector involvedObject.name=web`,
    ]);
    // Pulumi reset its condition errors on the Deleted event and keeps its flags.
    assert.deepEqual(verdict?.pulumiMessages, [LIVE]);
  });

  it("progress events carry Pulumi's line (ready/spec of the revision ReplicaSet)", () => {
    const { events } = run([
      up('ReplicaSet', rs2(1, { available: 0 })),
      up(
        'Deployment',
        deployment({ revision: '2', generation: 2, conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')] }),
      ),
    ]);
    const progress = ofType(events, 'progress');
    assert.equal(progress.at(-1)?.message, 'Waiting for app ReplicaSet to be available (1/3 Pods available)');
  });

  it('pod sub-errors use the pod checker format (namespace shown unless default)', () => {
    const p = pod({
      name: 'web-2-abc',
      rs: 'web-2',
      containers: [waiting('ImagePullBackOff', 'Back-off pulling image "nginx:nope"', { image: 'nginx:nope' })],
    });
    const { events } = run([
      up('ReplicaSet', rs2(0)),
      up('Pod', p),
      up(
        'Deployment',
        deployment({ revision: '2', generation: 2, conditions: [availableFalse, progressing('ReplicaSetUpdated', 'web-2')] }),
      ),
      timeout,
    ]);
    assert.deepEqual(verdictOf(events)?.pulumiMessages, [
      UNAVAILABLE,
      LIVE,
      '[Pod apps/web-2-abc]: containers with unready status: [app][ImagePullBackOff] Back-off pulling image "nginx:nope"',
    ]);
  });
});

describe('Pulumi pod checker messages (provider/pkg/await/checker/pod/check.go)', async () => {
  const { pulumiPodMessage, trimImagePullMsg } = await import('../../../src/core/index.js');
  const { running, terminatedLast } = await import('./builders.js');
  const base = { name: 'web-2-abc', rs: 'web-2' };
  it('unscheduled pods yield nothing (Info severity is dropped)', () => {
    assert.equal(
      pulumiPodMessage(pod({ ...base, scheduled: { status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available' } })),
      undefined,
    );
  });
  it('a pod without an Initialized condition yields nothing', () => {
    const p = pod({ ...base });
    p.status!.conditions = p.status!.conditions!.filter((c) => c.type === 'PodScheduled');
    assert.equal(pulumiPodMessage(p), undefined);
  });
  it('ContainerCreating is suppressed, the Ready condition message remains', () => {
    assert.equal(
      pulumiPodMessage(pod({ ...base, containers: [waiting('ContainerCreating', undefined)] })),
      '[Pod apps/web-2-abc]: containers with unready status: [app]',
    );
  });
  it('CrashLoopBackOff plus the last termination, newline-joined, RFC 3339 UTC', () => {
    const p = pod({
      ...base,
      containers: [
        waiting('CrashLoopBackOff', 'back-off 20s restarting failed container=app pod=web-2-abc_apps(pod-web-2-abc)', {
          restarts: 2,
          last: terminatedLast(1, 'Error', 'boom'),
        }),
      ],
    });
    assert.equal(
      pulumiPodMessage(p),
      '[Pod apps/web-2-abc]: containers with unready status: [app][CrashLoopBackOff] back-off 20s restarting failed container=app pod=web-2-abc_apps(pod-web-2-abc)\n' +
        'container "app" terminated at 2026-11-22T04:00:20Z (Error: exit code 1)\nboom',
    );
  });
  it('the namespace is omitted for `default`', () => {
    const p = pod({
      ...base,
      containers: [
        waiting(
          'ErrImagePull',
          'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:nope not found: manifest unknown',
        ),
      ],
    });
    p.metadata!.namespace = 'default';
    assert.equal(
      pulumiPodMessage(p),
      '[Pod web-2-abc]: containers with unready status: [app][ErrImagePull] manifest for nginx:nope not found',
    );
  });
  it('init failures: Initialized=False with the main container waiting PodInitializing', () => {
    const p = pod({
      ...base,
      initSpecs: [{ name: 'migrate', image: 'busybox:1.32' }],
      initContainers: [waiting('CrashLoopBackOff', 'back-off', { name: 'migrate', restarts: 1, last: terminatedLast(2) })],
      containers: [waiting('PodInitializing', undefined)],
    });
    assert.equal(pulumiPodMessage(p), '[Pod apps/web-2-abc]: containers with incomplete status: [migrate][PodInitializing] ');
  });
  it('ready and succeeded pods yield nothing; trimImagePullMsg strips the daemon prefix and suffix', () => {
    assert.equal(pulumiPodMessage(pod({ ...base, containers: [running()] })), undefined);
    assert.equal(trimImagePullMsg('rpc error: code = Unknown desc = Error response from daemon: x: manifest unknown'), 'x');
  });
});
