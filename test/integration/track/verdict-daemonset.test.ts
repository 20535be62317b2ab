/**
 * DaemonSets on the real control plane (the real DaemonSet controller and scheduler; simulated
 * kubelets): success once every node that should run a pod runs the current template, available;
 * a broken image fails naming the pod; a node whose taint the pods do not tolerate is named; a
 * node under disk pressure refuses the pods the controller recreates (they tolerate the pressure
 * taints) until the pressure ends, and the rollout then succeeds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { privateNodePrefix, startPrivateNode } from '../../helpers/private-node.js';
import { createDaemonSet, editDaemonSet } from '../../helpers/workloads.js';
import { assertStillRunning, clients, describeVerdict, eventSeen, namespaceFor, trace, waitUntil } from './helpers.js';

/** Waits until the DaemonSet controller reports every scheduled pod updated and available. */
async function waitDaemonSetReady(ns: string, name: string): Promise<V1DaemonSet> {
  return waitUntil(
    async () => {
      const d = await clients().apps.readNamespacedDaemonSet({ name, namespace: ns });
      const s = d.status;
      const done =
        !!s &&
        (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        s.desiredNumberScheduled > 0 &&
        s.updatedNumberScheduled === s.desiredNumberScheduled &&
        s.numberAvailable === s.desiredNumberScheduled;
      return done ? d : undefined;
    },
    { what: `DaemonSet ${ns}/${name} ready`, timeoutMs: 90_000, intervalMs: 250 },
  );
}

describe('DaemonSet verdicts', { concurrency: true }, () => {
  it('an update succeeds once every node runs a pod of the new template', async (t) => {
    const ns = await namespaceFor(t, 'ds-ok');
    await createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0' });
    await waitDaemonSetReady(ns, 'agent');
    const updated = await editDaemonSet(ns, 'agent', (d) => {
      d.spec!.template.spec!.containers[0]!.image = 'registry.local/log-agent:1.1';
    });
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 120, minGeneration: updated.metadata?.generation ?? 0 });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.equal(r.verdict.kind, 'DaemonSet');
    assert.equal(r.verdict.revision, '2', 'the template generation of the update');
    const d = await clients().apps.readNamespacedDaemonSet({ name: 'agent', namespace: ns });
    assert.equal(d.status?.updatedNumberScheduled, d.status?.desiredNumberScheduled);
    const pods = await clients().core.listNamespacedPod({ namespace: ns });
    const live = pods.items.filter((p) => !p.metadata?.deletionTimestamp);
    assert.ok(live.some((p) => p.spec?.containers[0]?.image === 'registry.local/log-agent:1.1'));
    assert.ok(r.events.every((e) => e.kind === 'DaemonSet'));
  });

  it('OnDelete: an update is blocked until pods are deleted, said at once', async (t) => {
    const ns = await namespaceFor(t, 'ds-ondelete');
    await createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0', updateStrategy: { type: 'OnDelete' } });
    await waitDaemonSetReady(ns, 'agent');
    const updated = await editDaemonSet(ns, 'agent', (d) => {
      d.spec!.template.spec!.containers[0]!.image = 'registry.local/log-agent:1.1';
    });
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 60, minGeneration: updated.metadata?.generation ?? 0 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    assert.equal(r.verdict.problems[0]?.class, 'rollout-blocked');
    assert.match(
      r.verdict.problems[0]?.explanation ?? '',
      /OnDelete update strategy: \d+ of \d+ nodes still run a pod of the previous template/,
    );
    assert.ok(r.ms < 30_000, `said at once (${r.ms} ms)`);
  });

  it('a broken image fails naming the pod', async (t) => {
    const ns = await namespaceFor(t, 'ds-image');
    await createDaemonSet(ns, 'agent', { image: 'nginx:1.99-does-not-exist' });
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 90 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'image-pull-not-found');
    assert.equal(p?.object.kind, 'Pod');
    assert.match(p?.object.name ?? '', /^agent-/);
    assert.match(r.verdict.summary, /^pod agent-\S+ container "app"/);
  });

  it('a pod its node has no room for fails naming the node', async (t) => {
    const ns = await namespaceFor(t, 'ds-cpu');
    await createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0', container: { resources: { requests: { cpu: '64' } } } });
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 90 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'unschedulable');
    assert.match(p?.explanation ?? '', /^node \S+ cannot run its DaemonSet pod: no node can run the pod: .*Insufficient cpu/);
  });

  it('a node that joins mid-rollout is waited for: success only once it runs a pod too', async (t) => {
    const ns = await namespaceFor(t, 'ds-join');
    // Tolerates the joining node's taint only: other tests' private nodes (some with a stopped
    // kubelet) come and go meanwhile, and must not count.
    const prefix = privateNodePrefix();
    const tolerateJoining = { tolerations: [{ key: 'rollout-trace.dev/test-node', value: prefix, effect: 'NoSchedule' }] };
    // Slow enough that the rollout on the shared nodes is still under way once the node joined.
    await createDaemonSet(ns, 'agent', { behaviour: { app: 'slow-start;seconds=40' }, podSpec: tolerateJoining });
    let joined = '';
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 180 }, async (events) => {
      await eventSeen(events, (e) => e.type === 'progress', 'a progress event');
      joined = (await startPrivateNode(t, undefined, prefix)).name;
      const { core } = clients();
      await waitUntil(async () => (await core.listNamespacedPod({ namespace: ns })).items.some((p) => p.spec?.nodeName === joined), {
        what: `a DaemonSet pod on ${joined}`,
        timeoutMs: 60_000,
      });
      assertStillRunning(events, `the pod on ${joined} was created`);
    });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    const d = await clients().apps.readNamespacedDaemonSet({ name: 'agent', namespace: ns });
    assert.equal(r.verdict.replicas.desired, d.status?.desiredNumberScheduled, 'the verdict counts the joined node');
    const pods = await clients().core.listNamespacedPod({ namespace: ns });
    const onJoined = pods.items.find((p) => p.spec?.nodeName === joined);
    assert.ok(
      onJoined?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      'the joined node runs a Ready pod',
    );
  });

  it('a node whose taint the pods do not tolerate is named, and the rollout succeeds on the others', async (t) => {
    const node = await startPrivateNode(t);
    const ns = await namespaceFor(t, 'ds-taint');
    await createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0' });
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 120 });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    const note = r.of('note').find((e) => e.object === `Node/${node.name}`);
    assert.ok(note, `a note names ${node.name}: ${JSON.stringify(r.of('note'))}`);
    assert.match(
      note.message,
      new RegExp(
        `DaemonSet agent runs no pod on node ${node.name}: its pods do not tolerate the node's taint rollout-trace.dev/test-node=`,
      ),
    );
  });

  it('a node under disk pressure refuses the recreated pod until the pressure ends: SUCCEEDED, never failed', async (t) => {
    const ns = await namespaceFor(t, 'ds-pressure');
    const prefix = privateNodePrefix();
    const tolerate = { tolerations: [{ key: 'rollout-trace.dev/test-node', value: prefix, effect: 'NoSchedule' }] };
    const node = await startPrivateNode(t, undefined, prefix);
    // Ready 5 s after start: the rollout is under way when the pod on the private node is evicted.
    await createDaemonSet(ns, 'agent', {
      podSpec: tolerate,
      container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5 } },
    });
    const { core } = clients();
    const podsOnNode = async () => (await core.listNamespacedPod({ namespace: ns })).items.filter((p) => p.spec?.nodeName === node.name);
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 120 }, async (events) => {
      const running = await waitUntil(
        async () => (await podsOnNode()).find((p) => p.status?.containerStatuses?.some((c) => c.state?.running)),
        { what: `a running pod on ${node.name}`, timeoutMs: 30_000, intervalMs: 100 },
      );
      assertStillRunning(events, 'the eviction');
      await node.kubelet.evict(ns, running.metadata!.name!, { resource: 'ephemeral-storage', usage: '2Gi', pressureSeconds: 10 });
    });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    const events = await core.listNamespacedEvent({ namespace: ns });
    const refusals = events.items.filter((e) => e.reason === 'Evicted' && e.message === 'The node had condition: [DiskPressure]. ');
    assert.ok(refusals.length >= 1, 'the DaemonSet controller recreated the pod while the node reported disk pressure, and it was refused');
    assert.ok(
      (await podsOnNode()).some((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')),
      `${node.name} runs a Ready pod once the pressure ended`,
    );
  });
});
