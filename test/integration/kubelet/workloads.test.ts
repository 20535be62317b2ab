/**
 * The simulated kubelet runs what the real Job, DaemonSet and StatefulSet controllers create:
 * Job pods under `restartPolicy: Never` / `OnFailure` run to completion with their exit code (the
 * Job completes, or fails with `BackoffLimitExceeded`), and a DaemonSet gets one Ready pod per
 * schedulable node.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Job } from '@kubernetes/client-node';
import { BatchV1Api } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from './support.js';

const job = (name: string, o: { script: string; completions?: number; parallelism?: number; backoffLimit?: number }): V1Job => ({
  metadata: { name },
  spec: {
    completions: o.completions ?? 1,
    parallelism: o.parallelism ?? 1,
    backoffLimit: o.backoffLimit ?? 6,
    template: {
      spec: {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        containers: [{ name: 'migrate', image: 'busybox:1.32', command: ['sh', '-c', o.script] }],
      },
    },
  },
});

const conditionOf = (j: V1Job, type: string) => j.status?.conditions?.find((c) => c.type === type && c.status === 'True');

describe('workloads on the simulated kubelet', { concurrency: true }, () => {
  it('a Job with completions and parallelism completes (pods Succeeded, condition Complete)', async (t) => {
    const ns = await withNamespace(t, 'job-ok');
    const batch = clients().kc.makeApiClient(BatchV1Api);
    await batch.createNamespacedJob({ namespace: ns, body: job('seed', { script: 'echo seeded', completions: 3, parallelism: 2 }) });
    const done = await waitUntil(
      async () => {
        const j = await batch.readNamespacedJob({ name: 'seed', namespace: ns });
        return conditionOf(j, 'Complete') && j;
      },
      { what: 'the Job Complete', timeoutMs: 60_000 },
    );
    assert.equal(done.status?.succeeded, 3);
    const pods = await clients().core.listNamespacedPod({ namespace: ns });
    assert.deepEqual([...new Set(pods.items.map((p) => p.status?.phase))], ['Succeeded']);
    assert.equal(pods.items[0]?.status?.containerStatuses?.[0]?.state?.terminated?.reason, 'Completed');
  });

  it('a Job whose container exits 1 fails with BackoffLimitExceeded', async (t) => {
    const ns = await withNamespace(t, 'job-fail');
    const batch = clients().kc.makeApiClient(BatchV1Api);
    await batch.createNamespacedJob({ namespace: ns, body: job('migrate', { script: 'echo migration failed; exit 1', backoffLimit: 1 }) });
    const failed = await waitUntil(
      async () => {
        const j = await batch.readNamespacedJob({ name: 'migrate', namespace: ns });
        return conditionOf(j, 'Failed') && j;
      },
      { what: 'the Job Failed', timeoutMs: 90_000 },
    );
    assert.equal(conditionOf(failed, 'Failed')?.reason, 'BackoffLimitExceeded');
    const pods = await clients().core.listNamespacedPod({ namespace: ns });
    for (const p of pods.items) {
      assert.equal(p.status?.phase, 'Failed');
      assert.equal(p.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 1);
    }
  });

  it('a DaemonSet gets one Ready pod per schedulable node', async (t) => {
    const ns = await withNamespace(t, 'ds');
    const { apps } = clients();
    await apps.createNamespacedDaemonSet({
      namespace: ns,
      body: {
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'agent', image: 'registry.local/log-agent:1.0' }] },
          },
        },
      },
    });
    const ds = await waitUntil(
      async () => {
        const d = await apps.readNamespacedDaemonSet({ name: 'agent', namespace: ns });
        const s = d.status;
        return s && s.desiredNumberScheduled > 0 && s.numberReady === s.desiredNumberScheduled && d;
      },
      { what: 'every DaemonSet pod Ready', timeoutMs: 60_000 },
    );
    assert.ok((ds.status?.desiredNumberScheduled ?? 0) >= 2);
  });
});
