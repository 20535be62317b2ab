/**
 * Fault suite for StatefulSets and DaemonSets: the kube-apiserver of a private control plane
 * killed and restarted mid-rollout. The real CLI must reach the right verdict once it is back and
 * exit within 1 s of printing it.
 */
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubeconfigPath, withNamespace } from '../helpers/cluster.js';
import { expectVerdict, figure, traceCli } from '../helpers/faults.js';
import { usePrivateCluster } from '../helpers/private-cluster.js';
import { createDaemonSet, createStatefulSet } from '../helpers/workloads.js';

const cluster = usePrivateCluster();

/** Kills the apiserver, waits 2 s, restarts it; returns how long it was down. */
async function restartApiServer(): Promise<string> {
  const t0 = Date.now();
  await cluster().kill('kube-apiserver');
  await sleep(2000);
  await cluster().restart('kube-apiserver');
  return `apiserver down ${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

// One case at a time: each one takes the whole control plane down.
describe('fault: kube-apiserver restarted mid-rollout of a StatefulSet or DaemonSet', { timeout: 20 * 60_000 }, () => {
  it('StatefulSet: SUCCEEDED once the apiserver is back', async (t) => {
    const ns = await withNamespace(t, 'fault-sts-api');
    let said = '';
    const args = ['sts', 'db', '-n', ns, '--kubeconfig', kubeconfigPath(), '--timeout', '150s', '--wait-for-creation', '60s'];
    const run = await traceCli(args, [
      {
        when: /tracing rollout/,
        run: () =>
          createStatefulSet(ns, 'db', { replicas: 2, podManagementPolicy: 'Parallel', behaviour: { app: 'slow-start;seconds=30' } }),
      },
      { when: /pod db-\d \(revision db-\w+\): container-creating/, run: async () => (said = await restartApiServer()) },
    ]);
    figure(t, 'apiserver restarted mid StatefulSet rollout', run, said);
    expectVerdict(run, { code: 0, verdict: /StatefulSet \S+\/db: SUCCEEDED - revision db-\w+ rolled out: 2\/2 pods ready/ });
  });

  it('DaemonSet: SUCCEEDED once the apiserver is back', async (t) => {
    const ns = await withNamespace(t, 'fault-ds-api');
    let said = '';
    const args = ['ds', 'agent', '-n', ns, '--kubeconfig', kubeconfigPath(), '--timeout', '150s', '--wait-for-creation', '60s'];
    const run = await traceCli(args, [
      { when: /tracing rollout/, run: () => createDaemonSet(ns, 'agent', { behaviour: { app: 'slow-start;seconds=30' } }) },
      { when: /pod agent-\S+ \(revision 1\): container-creating/, run: async () => (said = await restartApiServer()) },
    ]);
    figure(t, 'apiserver restarted mid DaemonSet rollout', run, said);
    expectVerdict(run, { code: 0, verdict: /DaemonSet \S+\/agent: SUCCEEDED - revision 1 rolled out: 2\/2 pods ready/ });
  });
});
