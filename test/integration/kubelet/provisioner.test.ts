/**
 * The simulated volume provisioner with the real PersistentVolume controller: a claim of
 * StorageClass `sim-local` is provisioned and bound (and its volume deleted with it), one of
 * `sim-broken` stays Pending with the provisioner's `ProvisioningFailed` message, and a
 * StatefulSet's volumeClaimTemplates bind so its pods run (the real StatefulSet controller).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BROKEN_MESSAGE } from '../../../local-cluster/kubelet/index.js';
import { clients, eventsFor, waitUntil, withNamespace } from './support.js';

const claim = (name: string, storageClassName: string) => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage: '1Gi' } } },
});

describe('the simulated volume provisioner', { concurrency: true }, () => {
  it('sim-local: provisioned, bound, and the volume deleted with its claim', async (t) => {
    const ns = await withNamespace(t, 'pv-local');
    const { core } = clients();
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('data', 'sim-local') });
    const bound = await waitUntil(
      async () => {
        const pvc = await core.readNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns });
        return pvc.status?.phase === 'Bound' && pvc;
      },
      { what: 'the claim Bound', timeoutMs: 30_000 },
    );
    const volume = bound.spec?.volumeName ?? '';
    assert.equal(volume, `pvc-${bound.metadata?.uid}`);
    // Events are recorded asynchronously; the claim can be Bound before the last one is written.
    await waitUntil(
      async () => {
        const reasons = (await eventsFor(ns, 'data')).map((e) => e.reason);
        return ['ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded'].every((r) => reasons.includes(r));
      },
      { what: 'ExternalProvisioning, Provisioning and ProvisioningSucceeded Events', timeoutMs: 30_000 },
    );
    await core.deleteNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns });
    await waitUntil(async () => !(await core.readPersistentVolume({ name: volume }).catch(() => undefined)), {
      what: 'the released volume deleted',
      timeoutMs: 30_000,
    });
  });

  it('sim-broken: Pending, with the provisioner saying why', async (t) => {
    const ns = await withNamespace(t, 'pv-broken');
    const { core } = clients();
    await core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: claim('data', 'sim-broken') });
    const failed = await waitUntil(async () => (await eventsFor(ns, 'data')).find((e) => e.reason === 'ProvisioningFailed'), {
      what: 'ProvisioningFailed',
      timeoutMs: 30_000,
    });
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.message, `failed to provision volume with StorageClass "sim-broken": ${BROKEN_MESSAGE}`);
    assert.equal((await core.readNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns })).status?.phase, 'Pending');
  });

  it("a StatefulSet's volumeClaimTemplates bind and its pods run", async (t) => {
    const ns = await withNamespace(t, 'pv-sts');
    const { apps, core } = clients();
    await apps.createNamespacedStatefulSet({
      namespace: ns,
      body: {
        metadata: { name: 'db' },
        spec: {
          serviceName: 'db',
          replicas: 2,
          selector: { matchLabels: { app: 'db' } },
          template: {
            metadata: { labels: { app: 'db' } },
            spec: {
              terminationGracePeriodSeconds: 1,
              containers: [{ name: 'db', image: 'postgres:13', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }],
            },
          },
          volumeClaimTemplates: [claim('data', 'sim-local')],
        },
      },
    });
    await waitUntil(async () => (await apps.readNamespacedStatefulSet({ name: 'db', namespace: ns })).status?.readyReplicas === 2, {
      what: 'the StatefulSet 2/2 ready',
      timeoutMs: 60_000,
    });
    const claims = await core.listNamespacedPersistentVolumeClaim({ namespace: ns });
    assert.deepEqual(claims.items.map((c) => `${c.metadata?.name} ${c.status?.phase}`).sort(), ['data-db-0 Bound', 'data-db-1 Bound']);
  });
});
