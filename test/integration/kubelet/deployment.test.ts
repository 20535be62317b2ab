/**
 * The real Deployment/ReplicaSet controllers and scheduler driving pods on the simulated
 * kubelet: Available, rolling update to revision 2, replaced pods, orphaned pods.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deploymentOf, editDeployment, waitRolledOut } from '../../helpers/deployments.js';
import { clients, report, took, waitEvent, waitUntil, withNamespace } from './support.js';

async function replicaSets(namespace: string, app: string) {
  const { apps } = clients();
  return (await apps.listNamespacedReplicaSet({ namespace, labelSelector: `app=${app}` })).items;
}

test('a 3-replica Deployment becomes Available with pods Running and Ready on the simulated nodes', async (t) => {
  const ns = await withNamespace(t, 'kubelet-deploy');
  const { apps, core } = clients();
  const t0 = Date.now();
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: deploymentOf('web', { replicas: 3, image: 'nginx:1.19', podSpec: { terminationGracePeriodSeconds: 5 } }),
  });
  await waitRolledOut(ns, 'web');
  report(t, `Available with 3/3 replicas after ${took(t0)}`);
  const pods = (await core.listNamespacedPod({ namespace: ns })).items;
  assert.equal(pods.length, 3);
  for (const pod of pods) {
    assert.equal(pod.status?.phase, 'Running');
    assert.match(pod.spec?.nodeName ?? '', /^sim-node-\d+$/);
    assert.equal(pod.status?.hostIP, '127.0.0.1');
    assert.match(pod.status?.podIP ?? '', /^10\.244\.\d+\.\d+$/);
    const types = (pod.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).sort();
    assert.deepEqual(types, ['ContainersReady=True', 'Initialized=True', 'PodScheduled=True', 'Ready=True']);
    const c = pod.status?.containerStatuses?.[0];
    assert.equal(c?.ready, true);
    assert.equal(c?.started, true);
    assert.equal(c?.restartCount, 0);
    assert.equal(c?.image, 'nginx:1.19');
    assert.match(c?.imageID ?? '', /^docker-pullable:\/\/nginx@sha256:[0-9a-f]{64}$/);
    assert.match(c?.containerID ?? '', /^docker:\/\/[0-9a-f]{64}$/);
    assert.ok(c?.state?.running?.startedAt);
    assert.equal(pod.status?.qosClass, 'BestEffort');
  }
  // Same image, same digest on every pod (deterministic).
  assert.equal(new Set(pods.map((p) => p.status?.containerStatuses?.[0]?.imageID)).size, 1);
});

test('a template change rolls out revision 2 and drains the old ReplicaSet to 0', async (t) => {
  const ns = await withNamespace(t, 'kubelet-rollout');
  const { apps } = clients();
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: deploymentOf('web', { replicas: 3, image: 'nginx:1.19', podSpec: { terminationGracePeriodSeconds: 5 } }),
  });
  await waitRolledOut(ns, 'web');
  const t0 = Date.now();
  await editDeployment(ns, 'web', (d) => {
    d.spec!.template.spec!.containers[0]!.image = 'nginx:1.20';
  });
  const done = await waitRolledOut(ns, 'web');
  report(t, `revision 2 rolled out in ${took(t0)}`);
  assert.equal(done.metadata?.annotations?.['deployment.kubernetes.io/revision'], '2');
  const rss = await replicaSets(ns, 'web');
  const byRevision = new Map(rss.map((rs) => [rs.metadata?.annotations?.['deployment.kubernetes.io/revision'], rs]));
  assert.equal(byRevision.get('1')?.status?.replicas ?? 0, 0, 'old ReplicaSet drained');
  assert.equal(byRevision.get('1')?.spec?.replicas, 0);
  assert.equal(byRevision.get('2')?.status?.readyReplicas, 3);
});

test('a deleted pod is finished by the kubelet within seconds and replaced without a new revision', async (t) => {
  const ns = await withNamespace(t, 'kubelet-delete');
  const { apps, core } = clients();
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: deploymentOf('web', { replicas: 2, image: 'nginx:1.19', podSpec: { terminationGracePeriodSeconds: 5 } }),
  });
  await waitRolledOut(ns, 'web');
  const [victim] = (await core.listNamespacedPod({ namespace: ns })).items;
  const name = victim.metadata!.name!;
  const t0 = Date.now();
  await core.deleteNamespacedPod({ name, namespace: ns });
  // It "hangs around for a few seconds" (Terminating) before the kubelet deletes it for good.
  const terminating = await core.readNamespacedPod({ name, namespace: ns }).catch(() => undefined);
  assert.ok(terminating?.metadata?.deletionTimestamp, 'pod is Terminating right after the delete');
  await waitUntil(async () => !(await core.readNamespacedPod({ name, namespace: ns }).catch(() => undefined)), {
    what: `pod ${name} gone`,
    timeoutMs: 20_000,
  });
  const goneAfter = Date.now() - t0;
  report(t, `deleted pod gone after ${took(t0)}`);
  assert.ok(goneAfter >= 1000, `grace period honoured (gone after ${goneAfter} ms)`);
  const d = await waitRolledOut(ns, 'web');
  report(t, `replacement Available after ${took(t0)}`);
  assert.equal(d.metadata?.annotations?.['deployment.kubernetes.io/revision'], '1');
  const pods = (await core.listNamespacedPod({ namespace: ns })).items;
  assert.equal(pods.length, 2);
  assert.ok(!pods.some((p) => p.metadata?.name === name));
  const killing = await waitEvent(ns, name, 'Killing');
  assert.equal(killing?.message, 'Stopping container app');
  assert.equal(killing?.source?.component, 'kubelet');
  assert.equal(killing?.involvedObject.fieldPath, 'spec.containers{app}');
});

test("removing a pod's labels orphans it and the ReplicaSet creates a replacement", async (t) => {
  const ns = await withNamespace(t, 'kubelet-orphan');
  const { apps, core } = clients();
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: deploymentOf('web', { replicas: 2, image: 'nginx:1.19', podSpec: { terminationGracePeriodSeconds: 5 } }),
  });
  await waitRolledOut(ns, 'web');
  const [pod] = (await core.listNamespacedPod({ namespace: ns })).items;
  const name = pod.metadata!.name!;
  const t0 = Date.now();
  await core.patchNamespacedPod({ name, namespace: ns, body: [{ op: 'replace', path: '/metadata/labels', value: { app: 'debug' } }] });
  const orphan = await waitUntil(
    async () => {
      const p = await core.readNamespacedPod({ name, namespace: ns });
      return (p.metadata?.ownerReferences ?? []).length === 0 ? p : undefined;
    },
    { what: `ownerReference removed from ${name}`, timeoutMs: 30_000 },
  );
  report(t, `RS controller released the pod after ${took(t0)}`);
  assert.equal(orphan.status?.phase, 'Running', 'the orphan keeps running');
  // The Deployment may still say 2/2 from before the relabel: wait for the replacement itself.
  const owned = await waitUntil(
    async () => {
      const pods = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web' })).items;
      const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      return ready.length === 2 ? pods : undefined;
    },
    { what: 'two Ready pods labelled app=web', timeoutMs: 30_000 },
  );
  assert.equal(owned.length, 2);
  assert.ok(!owned.some((p) => p.metadata?.name === name));
  await waitRolledOut(ns, 'web');
  report(t, `replacement Available after ${took(t0)}`);
});
