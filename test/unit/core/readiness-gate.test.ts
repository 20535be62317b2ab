/**
 * A pod whose containers are ready but whose readiness gate (a load balancer controller's target
 * health) is not True: reported as `readiness-gate` once its containers have been ready 30 s, with
 * the gate's own reason and message; a warning by default, cleared once the gate is True.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { resolvePolicy } from '../../../src/core/index.js';
import { iso, ofType, pod, run, tick, up, verdictOf } from './builders.js';
import { rollingTo2, UPDATE } from './scenario.js';

const GATE = 'target-health.elbv2.k8s.aws/k8s-web-tg';

/** Pod web-2-done1 of the new ReplicaSet: containers ready since second `since`, its gate `gate` (absent: not set). */
function gated(since: number, gate?: Partial<V1PodCondition>): V1Pod {
  const p = pod({ name: 'web-2-done1', rs: 'web-2' });
  p.spec!.readinessGates = [{ conditionType: GATE }];
  const ready = gate?.status === 'True';
  p.status!.conditions = [
    ...(p.status!.conditions ?? []).filter((c) => c.type !== 'Ready' && c.type !== 'ContainersReady'),
    { type: 'ContainersReady', status: 'True', lastTransitionTime: iso(since) as unknown as Date },
    ready
      ? { type: 'Ready', status: 'True' }
      : {
          type: 'Ready',
          status: 'False',
          reason: 'ReadinessGatesNotReady',
          message: `the status of pod readiness gate "${GATE}" is not "True", but False`,
        },
    ...(gate ? [{ type: GATE, status: 'False', ...gate }] : []),
  ];
  return p;
}

describe('readiness-gate', () => {
  it("is reported once the containers have been ready 30 s, with the gate's reason and message, as a warning", () => {
    const failing = { reason: 'Target.FailedHealthChecks', message: 'Health checks failed' };
    const early = run([...rollingTo2(), up('Pod', gated(2, failing), 3), tick(31)], UPDATE);
    assert.deepEqual(ofType(early.events, 'problem'), [], 'not at 29 s');
    const { events } = run([...rollingTo2(), up('Pod', gated(2, failing), 3), tick(31), tick(33), tick(300)], UPDATE);
    const reported = ofType(events, 'problem').filter((e) => e.problem.class === 'readiness-gate');
    assert.equal(reported.length, 1);
    assert.equal(
      reported[0]!.problem.explanation,
      `its containers are ready, but readiness gate "${GATE}" is False (Target.FailedHealthChecks: Health checks failed): the controller that owns the gate has not marked the pod ready`,
    );
    assert.equal(reported[0]!.failsAt, undefined, 'a warning: registration and health checks may take minutes');
    assert.equal(verdictOf(events), undefined);
  });

  it('a gate never set says so; a window of its own fails the rollout', () => {
    const policy = resolvePolicy({ classes: { 'readiness-gate': { action: 'fail', afterSeconds: 30 } } });
    const v = verdictOf(run([...rollingTo2(), up('Pod', gated(2), 3), tick(33), tick(64)], UPDATE, policy).events);
    assert.equal(v?.outcome, 'failed');
    assert.match(v.summary, new RegExp(`^pod web-2-done1: its containers are ready, but readiness gate "${GATE}" is not set`));
  });

  it('the warning clears when the gate turns True', () => {
    const open = [...rollingTo2(), up('Pod', gated(2, {}), 3), tick(40), up('Pod', gated(2, { status: 'True' }), 41)];
    const { events } = run(open, UPDATE);
    assert.equal(ofType(events, 'problem').length, 1);
    assert.equal(ofType(events, 'problem-cleared').length, 1);
  });
});
