/**
 * A DaemonSet or Job whose pod template mounts a PersistentVolumeClaim: its trace watches PVCs (a
 * trace of one without claims does not, and needs no RBAC on them), so a claim that never binds is
 * `pvc-pending`, as for Deployments.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeploymentShape } from '../../helpers/deployment-shape.js';
import { createDaemonSet, createJob } from '../../helpers/workloads.js';
import { clients, describeVerdict, namespaceFor, trace } from './helpers.js';

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
});
