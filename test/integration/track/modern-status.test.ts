/**
 * Pod status that only 1.25-1.34 kubelets and schedulers write, on the real control plane: the
 * pods run on a Node with no kubelet and the test writes their status by hand (the 1.20 apiserver
 * accepts any condition type and container state). `PodReadyToStartContainers=False` is on the
 * pod's line; a `DisruptionTarget` on a live pod and a container whose state its node lost
 * (`ContainerStatusUnknown`, exit 137) are notes, not crash problems; the rollout succeeds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { preemptionTarget, readyToStart, running129, statusUnknown } from '../../fixtures/modern-pods.js';
import { startBareNode } from '../../helpers/bare-node.js';
import { clients, createDeployment, describeVerdict, eventSeen, namespaceFor, trace, waitUntil } from './helpers.js';

const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('pod status newer than 1.20', () => {
  it('sandbox not ready, a disruption target, a container state the node lost: notes and pod lines, then SUCCEEDED', async (t) => {
    const ns = await namespaceFor(t, 'modern');
    const node = await startBareNode(t);
    await createDeployment(ns, 'web', { replicas: 2, podSpec: node.podSpec });
    const bound = await waitUntil(
      async () => {
        const pods = (await clients().core.listNamespacedPod({ namespace: ns })).items.filter((p) => p.spec?.nodeName === node.name);
        return pods.length === 2 && (pods as [V1Pod, V1Pod]);
      },
      { what: 'two pods bound to the bare node', timeoutMs: 20_000 },
    );
    const [a, b] = bound.map((p) => p.metadata!.name!) as [string, string];
    const r = await trace(ns, 'web', { timeoutSeconds: 45 }, async (events) => {
      const creating = {
        phase: 'Pending',
        conditions: [readyToStart('False', isoNow()), { type: 'PodScheduled', status: 'True' }],
        containerStatuses: [{ ...statusUnknown(), state: { waiting: { reason: 'ContainerCreating' } } }],
      };
      await node.writeStatus(ns, a, creating);
      await eventSeen(events, (e) => e.type === 'pod' && e.name === a && /sandbox not ready/.test(e.detail ?? ''), 'the sandbox line');
      const runningA = running129(bound[0], isoNow(), '10.250.0.2');
      await node.writeStatus(ns, a, runningA);
      await node.writeStatus(ns, a, { conditions: [...(runningA.conditions as object[]), preemptionTarget(isoNow())] });
      await eventSeen(events, (e) => e.type === 'note' && /about to be disrupted/.test(e.message), 'the disruption note');
      const runningB = running129(bound[1], isoNow(), '10.250.0.3') as { containerStatuses: Array<Record<string, unknown>> };
      const lost = { ...statusUnknown('app', isoNow()), state: { waiting: { reason: 'ContainerCreating' } } };
      await node.writeStatus(ns, b, {
        ...runningB,
        conditions: [readyToStart('True', isoNow()), { type: 'Ready', status: 'False', reason: 'ContainersNotReady' }],
        containerStatuses: [{ ...lost, restartCount: 1, lastState: statusUnknown('app', isoNow()).state }],
      });
      await eventSeen(events, (e) => e.type === 'note' && /ContainerStatusUnknown/.test(e.message), 'the lost-container note');
      await node.writeStatus(ns, b, {
        ...runningB,
        containerStatuses: [{ ...runningB.containerStatuses[0], restartCount: 1, lastState: statusUnknown('app', isoNow()).state }],
      });
    });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.deepEqual(
      r.of('problem').map((e) => e.problem.class),
      [],
      'a container state the node lost is not a crash',
    );
    const notes = r.of('note').map((e) => e.message);
    assert.ok(
      notes.some(
        (m) =>
          m ===
          `pod ${a} is about to be disrupted (DisruptionTarget: PreemptionByScheduler): default-scheduler: preempting to accommodate a higher priority pod`,
      ),
      notes.join('\n'),
    );
    assert.ok(
      notes.some((m) => m.startsWith(`pod ${b} container "app": the node lost its state (ContainerStatusUnknown, exit code 137)`)),
      notes.join('\n'),
    );
  });
});
