/**
 * A DaemonSet or Job whose pod template mounts a PersistentVolumeClaim: its trace watches PVCs (a
 * trace of one without claims does not, and needs no RBAC on them), so a claim that never binds is
 * `pvc-pending`, as for Deployments; a subscriber that joins a running source starts it too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acquireNamespaceSource } from '../../../src/cluster/index.js';
import type { Observation } from '../../../src/core/types.js';
import type { DeploymentShape } from '../../helpers/deployment-shape.js';
import { createDaemonSet, createJob } from '../../helpers/workloads.js';
import { clients, describeVerdict, kubeConfig, namespaceFor, trace, waitUntil } from './helpers.js';

const MOUNTS_DATA: DeploymentShape = {
  podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
  container: { volumeMounts: [{ name: 'data', mountPath: '/data' }] },
};

const KINDS = [
  { kind: 'DaemonSet', create: (ns: string) => createDaemonSet(ns, 'app', MOUNTS_DATA) },
  { kind: 'Job', create: (ns: string) => createJob(ns, 'app', MOUNTS_DATA) },
] as const;

describe('claims of DaemonSets and Jobs', { concurrency: true }, () => {
  for (const k of KINDS) {
    it(`${k.kind}: a template claim that never binds is pvc-pending`, async (t) => {
      const ns = await namespaceFor(t, `claims-${k.kind.toLowerCase()}`);
      // No storageClassName and no default StorageClass: the claim stays Pending.
      await clients().core.createNamespacedPersistentVolumeClaim({
        namespace: ns,
        body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      });
      await k.create(ns);
      const r = await trace(ns, 'app', { kind: k.kind, timeoutSeconds: 60, policy: { classes: { 'pvc-pending': { afterSeconds: 3 } } } });
      t.diagnostic(`${k.kind} claim: ${describeVerdict(r)} in ${(r.ms / 1000).toFixed(1)} s`);
      assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
      const p = r.verdict.problems.find((x) => x.class === 'pvc-pending');
      assert.ok(p, `a pvc-pending problem in ${describeVerdict(r)}`);
      // From the PVC watch: the claim itself is named Pending (without it, only the pod's Unschedulable condition).
      assert.match(`${p.explanation} ${p.message}`, /PersistentVolumeClaim "data" is Pending/, describeVerdict(r));
    });
  }

  it('a DaemonSet traced late, on a running DaemonSet watch, starts the PVC watch when it uses claims', async (t) => {
    const ns = await namespaceFor(t, 'claims-late');
    await Promise.all([createDaemonSet(ns, 'plain'), createDaemonSet(ns, 'app', MOUNTS_DATA)]);
    const source = acquireNamespaceSource(kubeConfig(), ns);
    const synced = (name: string) => {
      const seen: Observation[] = [];
      const unsubscribe = source.subscribe({
        kind: 'DaemonSet',
        workloadName: name,
        onObservation: (o) => seen.push(o),
        onError: () => undefined,
      });
      return { unsubscribe, done: waitUntil(() => seen.some((o) => o.type === 'synced'), { what: `${name} synced` }) };
    };
    const plain = synced('plain');
    await plain.done;
    assert.equal(source.stats().opened.PersistentVolumeClaim, 0, 'no PVC watch for a DaemonSet without claims');
    const app = synced('app');
    await app.done;
    assert.equal(source.stats().active.PersistentVolumeClaim, 1, 'the PVC watch of the late DaemonSet with a claim');
    app.unsubscribe();
    plain.unsubscribe();
  });
});
