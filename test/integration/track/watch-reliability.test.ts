/**
 * The list+watch loop against the real apiserver: server-side watch ends, client-node's 30 s
 * inactivity abort, and a real 410 Gone (a resourceVersion older than the watch cache) that must
 * trigger a re-list emitting deletes for vanished objects.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { acquireNamespaceSource } from '../../../src/cluster/index.js';
import { KindWatcher, type KindWatcherOptions } from '../../../src/cluster/kind-watcher.js';
import { kindApis } from '../../../src/cluster/kinds.js';
import type { Observation } from '../../../src/core/types.js';
import { answersGone } from '../../helpers/cluster.js';
import { clients, createDeployment, kubeConfig, namespaceFor, waitRolledOut, waitUntil } from './helpers.js';

function podWatcher(ns: string, opts: KindWatcherOptions = {}) {
  const changes: { type: 'upsert' | 'delete'; name: string }[] = [];
  const retries: string[] = [];
  let fatal: unknown;
  const kc = kubeConfig();
  const w = new KindWatcher(
    kc,
    ns,
    kindApis(kc).Pod,
    {
      change: (type, obj) => changes.push({ type, name: obj.metadata?.name ?? '' }),
      synced: () => undefined,
      contact: () => undefined,
      fatal: (e) => (fatal = e),
      retry: (what, err) => retries.push(`${what}: ${String((err as Error)?.message ?? err)}`),
    },
    opts,
  );
  return { w, changes, retries, fatal: () => fatal };
}

/** Probes until a pod watch from revision 1 gets 410 Gone, touching a pod meanwhile; returns the probe count. */
async function untilGone(ns: string): Promise<number> {
  const { core } = clients();
  const deadline = Date.now() + 180_000;
  for (let probe = 1; Date.now() < deadline; probe++) {
    if (await answersGone(ns, '1')) return probe;
    const pods = await core.listNamespacedPod({ namespace: ns });
    const name = pods.items[0]?.metadata?.name;
    for (let i = 0; name && i < 50; i++) {
      const pod = await core.readNamespacedPod({ name, namespace: ns });
      pod.metadata!.annotations = { ...(pod.metadata!.annotations ?? {}), 'rollout-trace.dev/churn': String(i) };
      await core.replaceNamespacedPod({ name, namespace: ns, body: pod }).catch(() => undefined);
    }
  }
  throw new Error('the pod watch cache still holds revision 1 after 180 s of churn');
}

describe('watch loop reliability', { concurrency: true }, () => {
  it('re-watches from the last resourceVersion when the server ends the watch (no re-list)', async (t) => {
    const ns = await namespaceFor(t, 'rewatch');
    const { w, changes, fatal } = podWatcher(ns, { watchTimeoutSeconds: 1 });
    w.start();
    try {
      await waitUntil(() => w.opened >= 4, { what: '4 watches opened', timeoutMs: 20_000 });
      await createDeployment(ns, 'web');
      await waitUntil(() => changes.some((c) => c.type === 'upsert' && c.name.startsWith('web-')), {
        what: 'pod upsert after re-watches',
        timeoutMs: 20_000,
      });
      t.diagnostic(`opened ${w.opened} watches, ${w.lists} list(s)`);
      assert.equal(w.lists, 1, 'clean server-side ends never re-list');
      assert.equal(fatal(), undefined);
    } finally {
      w.stop();
    }
  });

  it('a watch the apiserver cannot resume (410 Gone) re-lists and emits deletes for objects that vanished', async (t) => {
    const ns = await namespaceFor(t, 'gone');
    await createDeployment(ns, 'web');
    // The pods must exist before the first list, or "real pods stay cached" races the ReplicaSet controller.
    await waitRolledOut(ns, 'web');
    const { w, changes } = podWatcher(ns);
    w.start();
    try {
      await waitUntil(() => w.isSynced && w.active === 1, { what: 'synced and watching' });
      // Revision 1 is older than the pod watch cache's window once that window moved on (the
      // apiserver then answers 410 Gone). A young cluster's cache may still start at revision 1:
      // make pod events until it has moved on.
      const probes = await untilGone(ns);
      t.diagnostic(`revision 1 answered 410 Gone after ${probes} probe(s)`);
      // A pod we "missed" the deletion of while disconnected.
      w.cache.set('ghost-uid', { metadata: { name: 'ghost', uid: 'ghost-uid', resourceVersion: '1' } } as V1Pod);
      w.rewatchFrom('1');
      await waitUntil(() => w.lists >= 2, { what: 're-list after the refused watch', timeoutMs: 30_000 });
      await waitUntil(() => changes.some((c) => c.type === 'delete' && c.name === 'ghost'), { what: 'delete for the vanished pod' });
      await waitUntil(() => w.active === 1, { what: 'watching again' });
      t.diagnostic(`lists ${w.lists}, opened ${w.opened}`);
      assert.ok(!w.cache.has('ghost-uid'));
      assert.ok(
        [...w.cache.values()].some((p) => p.metadata?.name?.startsWith('web-')),
        'real pods stay cached',
      );
    } finally {
      w.stop();
    }
  });

  it('a quiet watch lives until the server ends it, kept alive by bookmarks, and resumes without a re-list', async (t) => {
    const ns = await namespaceFor(t, 'quiet');
    await createDeployment(ns, 'web');
    await waitRolledOut(ns, 'web');
    const { w, changes, retries, fatal } = podWatcher(ns, { watchTimeoutSeconds: 70 });
    const started = Date.now();
    w.start();
    try {
      await waitUntil(() => w.isSynced && w.active === 1, { what: 'synced and watching' });
      const listed = changes.length;
      // client-node alone would abort this silent watch after 30 s and open a second one.
      await waitUntil(() => w.opened >= 2 || Date.now() - started > 45_000, { what: '45 s of a quiet watch', timeoutMs: 60_000 });
      assert.equal(w.opened, 1, 'no re-open after 30 s of silence');
      await waitUntil(() => w.opened >= 2, { what: 'the server-side end (70 s) and a re-watch', timeoutMs: 60_000 });
      t.diagnostic(`opened ${w.opened}, lists ${w.lists}, bookmarks ${w.bookmarks}, after ${Date.now() - started} ms`);
      assert.ok(w.bookmarks >= 1, 'the apiserver sent a bookmark');
      assert.equal(w.lists, 1, 'a clean end resumes from the resourceVersion: no re-list');
      assert.equal(changes.length, listed, 'nothing re-delivered');
      assert.deepEqual(retries, [], 'a server-side end is not a failure');
      assert.equal(fatal(), undefined);
    } finally {
      w.stop();
    }
  });

  it('a watch parked on a resourceVersion the apiserver never reaches re-lists after silence', async (t) => {
    const ns = await namespaceFor(t, 'parked');
    await createDeployment(ns, 'web');
    const { w, changes, retries } = podWatcher(ns, { silentWatchesBeforeRelist: 1, inactivitySeconds: 30 });
    w.start();
    try {
      await waitUntil(() => w.isSynced && w.active === 1, { what: 'synced and watching' });
      // As after an etcd restore: our resourceVersion is far ahead of the server's, so the
      // apiserver accepts the watch but never sends anything on it.
      const rv = Number(w.resumeVersion);
      w.cache.set('ghost-uid', { metadata: { name: 'ghost', uid: 'ghost-uid', resourceVersion: '1' } } as V1Pod);
      w.rewatchFrom(String(rv + 1e9));
      await waitUntil(() => w.lists >= 2, { what: 're-list after a silent watch', timeoutMs: 60_000 });
      await waitUntil(() => changes.some((c) => c.type === 'delete' && c.name === 'ghost'), { what: 'delete for the vanished pod' });
      t.diagnostic(`lists ${w.lists}, opened ${w.opened}, retries ${retries.length}`);
    } finally {
      w.stop();
    }
  });

  it('the PVC watch opens only for a Deployment whose template mounts a claim', async (t) => {
    const ns = await namespaceFor(t, 'pvc');
    await createDeployment(ns, 'plain');
    await createDeployment(ns, 'stateful', {
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
      container: { volumeMounts: [{ name: 'data', mountPath: '/data' }] },
    });
    await clients().core.createNamespacedPersistentVolumeClaim({
      namespace: ns,
      body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    });
    const source = acquireNamespaceSource(kubeConfig(), ns);
    const plain: Observation[] = [];
    const unsubPlain = source.subscribe({
      workloadName: 'plain',
      kind: 'Deployment',
      onObservation: (o) => plain.push(o),
      onError: () => undefined,
    });
    await waitUntil(() => plain.some((o) => o.type === 'synced'), { what: 'plain synced' });
    assert.equal(source.stats().opened.PersistentVolumeClaim, 0, 'no PVC watch for a Deployment without claims');
    const stateful: Observation[] = [];
    const unsubStateful = source.subscribe({
      workloadName: 'stateful',
      kind: 'Deployment',
      onObservation: (o) => stateful.push(o),
      onError: () => undefined,
    });
    await waitUntil(() => stateful.some((o) => o.type === 'synced'), { what: 'stateful synced' });
    const pvcSeen = stateful.findIndex((o) => o.type === 'upsert' && o.kind === 'PersistentVolumeClaim');
    const syncedAt = stateful.findIndex((o) => o.type === 'synced');
    assert.ok(pvcSeen >= 0 && pvcSeen < syncedAt, 'the claim is delivered before synced');
    assert.equal(source.stats().active.PersistentVolumeClaim, 1);
    assert.ok(
      !stateful.some((o) => o.type === 'upsert' && o.kind === 'Deployment' && o.object.metadata?.name !== 'stateful'),
      'only its own Deployment',
    );
    unsubPlain();
    assert.equal(source.isClosed, false, 'still shared by the other subscriber');
    unsubStateful();
    assert.equal(source.isClosed, true, 'closed with the last subscriber');
  });
});
