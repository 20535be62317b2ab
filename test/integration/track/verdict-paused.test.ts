/**
 * A paused rollout on the real control plane is its own verdict (never a success, never a silent
 * wait): paused before the change, paused mid-rollout, and resumed within the window.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyOverrides } from '../../../src/core/types.js';
import { assertRolledOut } from '../../helpers/rolled-out.js';
import {
  assertStillRunning,
  createDeployment,
  describeVerdict,
  editDeployment,
  eventSeen,
  namespaceFor,
  type Traced,
  trace,
  updateDeployment,
  waitRolledOut,
} from './helpers.js';

const pause = (paused: boolean) => (d: { spec?: { paused?: boolean } }) => {
  d.spec = { ...d.spec, paused } as typeof d.spec;
};
const WAIT_FOR_RESUME: PolicyOverrides = { classes: { paused: { action: 'warn' } } };
/** Slow enough (10 s per pod, one at a time) for a pause to land mid-rollout, even on a loaded machine. */
const SLOW = {
  replicas: 3,
  image: 'nginx:1.20',
  behaviour: { app: 'slow-start;seconds=10' },
  strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
};

const pausedSeen = (r: Traced['events']) =>
  eventSeen(r, (e) => e.type === 'problem' && e.problem.class === 'paused', 'the paused problem', 60_000);

/** `kubectl rollout pause deploy/web`, then `kubectl set image deploy/web app=IMAGE`. */
async function pauseThenSetImage(ns: string, image: string): Promise<void> {
  await editDeployment(ns, 'web', pause(true));
  await editDeployment(ns, 'web', (d) => {
    d.spec!.template.spec!.containers[0]!.image = image;
  });
}

function assertPausedVerdict(r: Traced, ns: string): void {
  assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
  assert.equal(r.verdict.problems[0]?.class, 'paused');
  assert.match(r.verdict.summary, new RegExp(`spec\\.paused=true.*kubectl rollout resume deployment/web -n ${ns}`));
  assert.equal(r.verdict.hints[0], `kubectl -n ${ns} rollout resume deployment/web`);
  assert.ok(
    r.verdict.replicas.updated < r.verdict.replicas.desired || /old pods? (is|are) pending/.test(r.verdict.summary),
    r.verdict.summary,
  );
  assert.equal(r.of('verdict').length, 1);
}

describe('paused rollouts', { concurrency: true }, () => {
  it('paused before the change: the paused verdict, not "SUCCEEDED revision 1" with 0 updated', async (t) => {
    const ns = await namespaceFor(t, 'pause-before');
    await createDeployment(ns, 'web', { replicas: 3 });
    await waitRolledOut(ns, 'web');
    await pauseThenSetImage(ns, 'nginx:1.13-alpine');
    const r = await trace(ns, 'web', { timeoutSeconds: 180 });
    t.diagnostic(describeVerdict(r));
    assertPausedVerdict(r, ns);
    assert.match(r.verdict.summary, /0 of 3 pods run the current template/);
    assert.equal(r.verdict.replicas.updated, 0);
    assert.ok(r.ms >= 9_000 && r.ms < 120_000, `the 10 s window, not the timeout: ${r.ms} ms`);
  });

  it('paused before the change, resumed while traced (action warn): succeeds once rolled out', async (t) => {
    const ns = await namespaceFor(t, 'pause-resume');
    await createDeployment(ns, 'web', { replicas: 3 });
    await waitRolledOut(ns, 'web');
    await pauseThenSetImage(ns, 'nginx:1.20');
    const r = await trace(ns, 'web', { timeoutSeconds: 180, policy: WAIT_FOR_RESUME }, async (events) => {
      await pausedSeen(events);
      await editDeployment(ns, 'web', pause(false));
    });
    t.diagnostic(describeVerdict(r));
    await assertRolledOut(ns, 'web', r.verdict, r.events);
    assert.equal(r.verdict.revision, '2');
    assert.ok(r.of('problem-cleared').some((e) => e.problem.class === 'paused'));
  });

  it('paused mid-rollout: the paused verdict with the updated count', async (t) => {
    const ns = await namespaceFor(t, 'pause-mid');
    await createDeployment(ns, 'web', { replicas: 3 });
    const before = await waitRolledOut(ns, 'web');
    const updated = await updateDeployment(ns, 'web', SLOW);
    const r = await trace(
      ns,
      'web',
      {
        timeoutSeconds: 180,
        baselineRevision: before.metadata?.annotations?.['deployment.kubernetes.io/revision'],
        minGeneration: updated.metadata?.generation,
      },
      async (events) => {
        await eventSeen(events, (e) => e.type === 'replicaset' && e.role === 'new', 'the new ReplicaSet');
        assertStillRunning(events, 'the pause');
        await editDeployment(ns, 'web', pause(true));
      },
    );
    t.diagnostic(describeVerdict(r));
    assertPausedVerdict(r, ns);
    assert.ok(r.of('paused').length >= 1, 'the pause itself is announced');
  });

  it('paused mid-rollout, resumed within the window: succeeds once rolled out', async (t) => {
    const ns = await namespaceFor(t, 'pause-mid-resume');
    await createDeployment(ns, 'web', { replicas: 3 });
    await waitRolledOut(ns, 'web');
    const updated = await updateDeployment(ns, 'web', SLOW);
    const r = await trace(
      ns,
      'web',
      { timeoutSeconds: 180, policy: { classes: { paused: { afterSeconds: 60 } } }, minGeneration: updated.metadata?.generation },
      async (events) => {
        await eventSeen(events, (e) => e.type === 'replicaset' && e.role === 'new', 'the new ReplicaSet');
        assertStillRunning(events, 'the pause');
        await editDeployment(ns, 'web', pause(true));
        await pausedSeen(events);
        await editDeployment(ns, 'web', pause(false));
      },
    );
    t.diagnostic(describeVerdict(r));
    await assertRolledOut(ns, 'web', r.verdict, r.events);
  });
});
