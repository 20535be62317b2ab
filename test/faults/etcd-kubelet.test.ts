/**
 * Fault suite on a private control plane: etcd restarted mid-rollout, a forced 410 Gone (the
 * apiserver restarted after the world moved on, so every watch must re-list), and the simulated
 * kubelet killed (its Nodes go NotReady).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { answersGone, withNamespace } from '../helpers/cluster.js';
import {
  createWhenTracing,
  deployArgs,
  expectVerdict,
  figure,
  outdateResourceVersion,
  outputOf,
  REVISION_1_CREATING,
  survivesMidRollout,
  traceCli,
} from '../helpers/faults.js';
import { usePrivateCluster } from '../helpers/private-cluster.js';

const cluster = usePrivateCluster();

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// One case at a time: each one takes part of the control plane down.
describe('fault: etcd, 410 Gone, kubelet', { timeout: 20 * 60_000 }, () => {
  it('etcd killed and restarted mid-rollout: the rollout succeeds once it is back', async (t) => {
    await survivesMidRollout(t, 'etcd killed and restarted mid-rollout', async () => {
      const t0 = Date.now();
      await cluster().kill('etcd');
      await sleep(2000);
      await cluster().restart('etcd');
      await cluster().waitHealthy('kube-apiserver');
      return `etcd down ${seconds(Date.now() - t0)}`;
    });
  });

  it('a forced 410 Gone (the watch cache restarted past our resourceVersion): re-listed, the rollout succeeds', async (t) => {
    let ns = '';
    let oldRv = '';
    await survivesMidRollout(t, 'forced 410 Gone', async (namespace) => {
      ns = namespace;
      oldRv = await outdateResourceVersion(namespace, () => cluster().restart('kube-apiserver'));
      return `apiserver restarted after resourceVersion ${oldRv}`;
    });
    assert.ok(await answersGone(ns, oldRv), `a pod watch from ${oldRv} should answer 410 Gone after the restart`);
  });

  it('the kubelet killed mid-rollout: its Nodes go NotReady and the verdict says so (node-not-ready), or names every pod', async (t) => {
    const ns = await withNamespace(t, 'fault-kubelet');
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '60s', '--wait-for-creation', '60s'), [
      createWhenTracing(ns, 'web', { replicas: 3, behaviour: { app: 'slow-start;seconds=30' } }),
      { when: REVISION_1_CREATING, run: () => cluster().kill('kubelet') },
    ]).finally(() => cluster().restart('kubelet'));
    figure(t, 'kubelet killed mid-rollout', run);
    const pods = [...new Set(run.stdout.match(/\bweb-[a-z0-9]+-[a-z0-9]{5}\b/g) ?? [])];
    assert.equal(pods.length, 3, `three pods seen: ${pods.join(', ')}`);
    const summary = run.verdictLine ? run.stdout.slice(run.stdout.indexOf(run.verdictLine)) : '';
    if (run.code === 1) {
      // Pods on a NotReady node are diagnosed, naming the node.
      expectVerdict(run, { code: 1, verdict: /FAILED/ });
      assert.ok(/node-not-ready/.test(summary), outputOf(run));
      assert.ok(/sim-node-\d/.test(summary), outputOf(run));
    } else {
      // At least: the timeout summary names every pod that is not ready.
      expectVerdict(run, { code: 70, verdict: /TIMED OUT/ });
      for (const pod of pods) assert.ok(summary.includes(pod), `the summary names ${pod}:\n${summary}`);
    }
  });
});
