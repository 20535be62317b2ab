/**
 * Readiness gates on the real control plane (the simulated kubelet computes Ready as the kubelet's
 * status/generate.go does: containers ready and every gate's condition True): a gate nobody sets
 * holds the rollout, reported as `readiness-gate` after 30 s and named by the timeout; a gate a
 * controller sets True lets it succeed, and nothing succeeds before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { assertStillRunning, clients, createDeployment, describeVerdict, eventSeen, namespaceFor, trace, waitUntil } from './helpers.js';

const GATE = 'target-health.elbv2.k8s.aws/k8s-web-tg';

describe('readiness gates', { concurrency: true }, () => {
  it('a gate nobody sets holds the rollout; the timeout names it', async (t) => {
    const ns = await namespaceFor(t, 'gate-unset');
    await createDeployment(ns, 'web', { podSpec: { readinessGates: [{ conditionType: GATE }] } });
    const r = await trace(ns, 'web', { timeoutSeconds: 45 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'timed-out');
    const p = r.verdict.problems.find((x) => x.class === 'readiness-gate');
    assert.match(p?.explanation ?? '', new RegExp(`^its containers are ready, but readiness gate "${GATE}" is not set`));
    assert.equal(p?.reason, 'ReadinessGatesNotReady');
  });

  it('a gate a controller sets True lets the rollout succeed, not before', async (t) => {
    const ns = await namespaceFor(t, 'gate-set');
    await createDeployment(ns, 'web', { podSpec: { readinessGates: [{ conditionType: GATE }] } });
    const r = await trace(ns, 'web', { timeoutSeconds: 90 }, async (events) => {
      // The load balancer controller marks the target healthy once the containers are ready.
      const pod = await waitUntil(
        async () =>
          (await clients().core.listNamespacedPod({ namespace: ns })).items.find((p) =>
            p.status?.conditions?.some((c) => c.type === 'ContainersReady' && c.status === 'True'),
          ),
        { what: 'the containers ready', timeoutMs: 60_000 },
      );
      // The trace saw it running, not ready (its gate unset): no verdict may have come.
      const name = pod.metadata!.name!;
      await eventSeen(events, (e) => e.type === 'pod' && e.name === name && e.state === 'running', 'the pod seen running, not ready');
      assertStillRunning(events, 'the gate was set');
      await clients().core.patchNamespacedPodStatus(
        {
          name,
          namespace: ns,
          body: { status: { conditions: [{ type: GATE, status: 'True', lastTransitionTime: new Date() }] } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      );
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
  });
});
