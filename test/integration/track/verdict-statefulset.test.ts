/**
 * StatefulSets on the real control plane (the real StatefulSet and PersistentVolume controllers):
 * success only once every pod runs the update revision (or, with a partition, the ordinals at or
 * above it); OnDelete is a `rollout-blocked` failure, never a silent wait; an OrderedReady
 * StatefulSet stuck behind a failing pod names it and the ordinals that wait; a claim of its
 * volumeClaimTemplates that cannot bind is `pvc-pending` with the StorageClass and the provisioner's words;
 * a crashing pod of a template rolled back is `forced-rollback` under OrderedReady (someone must delete
 * it), and replaced by the controller under Parallel.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1StatefulSet } from '@kubernetes/client-node';
import { BROKEN_MESSAGE } from '../../../local-cluster/kubelet/index.js';
import { RolloutTraceError } from '../../../src/errors.js';
import { READ, serviceAccountKubeConfig } from '../../helpers/rbac.js';
import { createStatefulSet, editStatefulSet, type StatefulSetShape } from '../../helpers/workloads.js';
import { clients, describeVerdict, namespaceFor, trace, waitUntil } from './helpers.js';

/** Waits until the StatefulSet controller reports every pod Ready at one revision. */
async function waitStatefulSetReady(ns: string, name: string): Promise<V1StatefulSet> {
  return waitUntil(
    async () => {
      const s = await clients().apps.readNamespacedStatefulSet({ name, namespace: ns });
      const st = s.status;
      const want = s.spec?.replicas ?? 1;
      const done =
        (st?.observedGeneration ?? 0) >= (s.metadata?.generation ?? 0) &&
        st?.readyReplicas === want &&
        !!st.currentRevision &&
        st.currentRevision === st.updateRevision;
      return done ? s : undefined;
    },
    { what: `StatefulSet ${ns}/${name} ready`, timeoutMs: 90_000, intervalMs: 250 },
  );
}

/** Pod name -> its controller-revision-hash label. */
async function podRevisions(ns: string): Promise<Record<string, string>> {
  const pods = await clients().core.listNamespacedPod({ namespace: ns });
  return Object.fromEntries(pods.items.map((p) => [p.metadata?.name ?? '', p.metadata?.labels?.['controller-revision-hash'] ?? '']));
}

const setImage = (image: string) => (s: V1StatefulSet) => {
  s.spec!.template.spec!.containers[0]!.image = image;
};

async function created(ns: string, shape: StatefulSetShape): Promise<void> {
  await createStatefulSet(ns, 'db', shape);
  await waitStatefulSetReady(ns, 'db');
}

const CRASH = 'sim.rollout-trace.dev/app';

/**
 * A forced rollback: a 3-replica StatefulSet updated to a template whose container crashes before
 * its readiness probe passes, then, once `db-2` of that template has crashed, restored to the
 * template it had (a `rollout undo`).
 * @returns the generation of the restored template and the broken revision.
 */
async function brokenThenRestored(
  ns: string,
  podManagementPolicy: 'OrderedReady' | 'Parallel',
): Promise<{ generation: number; broken: string }> {
  // Ready 2 s after it starts: the crashing container exits after 1 s, never Ready.
  const readinessProbe = { tcpSocket: { port: 80 }, initialDelaySeconds: 2, periodSeconds: 1 };
  await created(ns, { replicas: 3, image: 'nginx:1.19', podManagementPolicy, container: { readinessProbe } });
  const updated = await editStatefulSet(ns, 'db', (s) => {
    s.spec!.template.metadata!.annotations = { [CRASH]: 'crash;exitCode=1;message=boom;after=1' };
  });
  const broken = await waitUntil(
    async () => {
      const s = await clients().apps.readNamespacedStatefulSet({ name: 'db', namespace: ns });
      const rev = (s.status?.observedGeneration ?? 0) >= (updated.metadata?.generation ?? 0) ? s.status?.updateRevision : undefined;
      const pod = await clients()
        .core.readNamespacedPod({ name: 'db-2', namespace: ns })
        .catch(() => undefined);
      const crashed = (pod?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1;
      return rev && pod?.metadata?.labels?.['controller-revision-hash'] === rev && crashed ? rev : undefined;
    },
    { what: `db-2 of the broken template crashed in ${ns}`, timeoutMs: 90_000, intervalMs: 250 },
  );
  const restored = await editStatefulSet(ns, 'db', (s) => {
    s.spec!.template.metadata!.annotations = {};
  });
  return { generation: restored.metadata?.generation ?? 0, broken };
}

describe('StatefulSet verdicts', { concurrency: true }, () => {
  it('an update succeeds once every pod runs the update revision', async (t) => {
    const ns = await namespaceFor(t, 'sts-ok');
    await created(ns, { replicas: 3, image: 'nginx:1.19', podManagementPolicy: 'Parallel' });
    const updated = await editStatefulSet(ns, 'db', setImage('nginx:1.20'));
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 120, minGeneration: updated.metadata?.generation ?? 0 });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.equal(r.verdict.kind, 'StatefulSet');
    const s = await clients().apps.readNamespacedStatefulSet({ name: 'db', namespace: ns });
    assert.equal(r.verdict.revision, s.status?.updateRevision);
    assert.equal(s.status?.currentRevision, s.status?.updateRevision);
    assert.deepEqual(Object.values(await podRevisions(ns)), [r.verdict.revision, r.verdict.revision, r.verdict.revision]);
    assert.ok(r.events.every((e) => e.kind === 'StatefulSet'));
    assert.ok(r.of('pod').some((e) => e.name === 'db-0' && e.revision === r.verdict.revision));
  });

  it('OnDelete: the update is blocked until pods are deleted, said at once', async (t) => {
    const ns = await namespaceFor(t, 'sts-ondelete');
    await created(ns, { replicas: 2, image: 'nginx:1.19', updateStrategy: { type: 'OnDelete' } });
    const updated = await editStatefulSet(ns, 'db', setImage('nginx:1.20'));
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 60, minGeneration: updated.metadata?.generation ?? 0 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'rollout-blocked');
    assert.equal(p?.reason, 'OnDelete');
    assert.match(p?.explanation ?? '', /2 of 2 pods still run the previous template.*only when someone deletes it/);
    assert.ok(r.ms < 30_000, `said at once, not after a timeout (${r.ms} ms)`);
  });

  it('a partition rolls out only the ordinals at or above it (kubectl rule)', async (t) => {
    const ns = await namespaceFor(t, 'sts-partition');
    await created(ns, {
      replicas: 3,
      image: 'nginx:1.19',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
    });
    const before = await podRevisions(ns);
    const updated = await editStatefulSet(ns, 'db', setImage('nginx:1.20'));
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 120, minGeneration: updated.metadata?.generation ?? 0 });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    const after = await podRevisions(ns);
    assert.equal(after['db-2'], r.verdict.revision, 'ordinal 2 (at the partition) runs the update');
    assert.equal(after['db-0'], before['db-0'], 'ordinal 0 (below the partition) keeps its revision');
    assert.equal(after['db-1'], before['db-1'], 'ordinal 1 (below the partition) keeps its revision');
  });

  it('OrderedReady stuck behind a failing pod names it and the ordinals that wait', async (t) => {
    const ns = await namespaceFor(t, 'sts-ordered');
    await createStatefulSet(ns, 'db', { replicas: 3, image: 'nginx:1.99-does-not-exist' });
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 90 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'image-pull-not-found');
    assert.equal(p?.object.name, 'db-0');
    assert.match(p?.explanation ?? '', /db-1, db-2 wait for it: podManagementPolicy OrderedReady/);
    assert.match(r.verdict.summary, /^pod db-0 container "app"/);
  });

  it('a volumeClaimTemplates claim that cannot bind is pvc-pending with its StorageClass and the provisioner message', async (t) => {
    const ns = await namespaceFor(t, 'sts-pvc');
    await createStatefulSet(ns, 'db', { replicas: 1, image: 'postgres:13', claims: { name: 'data', storageClassName: 'sim-broken' } });
    const r = await trace(ns, 'db', {
      kind: 'StatefulSet',
      timeoutSeconds: 90,
      policy: { classes: { 'pvc-pending': { afterSeconds: 6 } } },
    });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const claim = r.verdict.problems.find((p) => p.object.kind === 'PersistentVolumeClaim');
    assert.equal(claim?.class, 'pvc-pending');
    assert.equal(claim?.object.name, 'data-db-0');
    assert.match(claim?.explanation ?? '', /StorageClass "sim-broken"/);
    assert.ok(claim?.explanation.includes(BROKEN_MESSAGE), claim?.explanation);
  });

  it('a claim whose StorageClass does not exist fails as storage-class-not-found within its 10 s window, not pvc-pending after 60 s', async (t) => {
    const ns = await namespaceFor(t, 'sts-nosc');
    await createStatefulSet(ns, 'db', { replicas: 1, image: 'postgres:13', claims: { name: 'data', storageClassName: 'no-such-class' } });
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 90 });
    t.diagnostic(`${describeVerdict(r)} in ${(r.ms / 1000).toFixed(1)} s`);
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const claim = r.verdict.problems[0];
    assert.equal(claim?.class, 'storage-class-not-found', describeVerdict(r));
    assert.equal(claim?.object.name, 'data-db-0');
    // The real PV controller's words.
    assert.match(claim?.message ?? '', /storageclass\.storage\.k8s\.io "no-such-class" not found/);
    assert.match(claim?.explanation ?? '', /StorageClass "no-such-class", which does not exist/);
    assert.ok(r.ms < 40_000, `within the 10 s window of its first Warning, not pvc-pending's 60 s (${r.ms} ms)`);
  });

  it('credentials that may not list StatefulSets: forbidden naming the verb and resource', async (t) => {
    const ns = await namespaceFor(t, 'sts-rbac');
    await createStatefulSet(ns, 'db', { replicas: 1, image: 'postgres:13' });
    const kc = await serviceAccountKubeConfig(ns, 'no-sts', [
      { apiGroups: [''], resources: ['pods', 'pods/log', 'events', 'persistentvolumeclaims'], verbs: READ },
    ]);
    const err = await trace(ns, 'db', { kind: 'StatefulSet', kubeconfig: kc, timeoutSeconds: 60 }).then(
      (r) => assert.fail(`expected forbidden, got ${describeVerdict(r)}`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof RolloutTraceError, String(err));
    assert.equal(err.code, 'forbidden');
    assert.match(err.message, /may not list statefulsets in namespace/);
  });

  it('forced rollback: a crashing pod of the rolled-back template is forced-rollback within its window, naming it and the delete; deleted, it succeeds', async (t) => {
    const ns = await namespaceFor(t, 'sts-forced');
    const { generation, broken } = await brokenThenRestored(ns, 'OrderedReady');
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 120, minGeneration: generation });
    const p = r.verdict.problems[0];
    const opened = r.of('problem').find((e) => e.problem.class === 'forced-rollback');
    const window = opened ? r.verdict.finishedAt - opened.at : Number.NaN;
    t.diagnostic(`${describeVerdict(r)}; ${(window / 1000).toFixed(1)} s from its first signal to the verdict`);
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    assert.equal(p?.class, 'forced-rollback');
    assert.match(
      p?.explanation ?? '',
      new RegExp(`^pod db-2 container "app": container exited with code 1 \\("boom"\\), \\d+ restarts; db-2 runs revision ${broken}, `),
    );
    assert.match(p?.explanation ?? '', /forced rollback/);
    assert.equal(p?.hints[0], `kubectl -n ${ns} delete pod db-2`);
    assert.ok(window >= 9_000 && window < 15_000, `its 10 s window from its first signal (${window} ms)`);
    assert.ok(r.ms < 60_000, `within seconds, not the 120 s timeout (${r.ms} ms)`);
    // As the hint says: the controller then creates db-2 from the restored template.
    await clients().core.deleteNamespacedPod({ name: 'db-2', namespace: ns });
    const again = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 90, minGeneration: generation });
    assert.equal(again.verdict.outcome, 'succeeded', describeVerdict(again));
    assert.deepEqual(Object.values(await podRevisions(ns)), [again.verdict.revision, again.verdict.revision, again.verdict.revision]);
  });

  it('forced rollback under Parallel: the controller replaces the crashing pod itself, and the rollback succeeds', async (t) => {
    const ns = await namespaceFor(t, 'sts-forced-par');
    const { generation } = await brokenThenRestored(ns, 'Parallel');
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 90, minGeneration: generation });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.ok(!r.of('problem').some((e) => e.problem.class === 'forced-rollback'));
    assert.deepEqual(Object.values(await podRevisions(ns)), [r.verdict.revision, r.verdict.revision, r.verdict.revision]);
  });
});
