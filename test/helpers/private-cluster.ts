/**
 * A control plane of one test file's own, for fault tests that kill, freeze or restart a
 * component: doing that to the shared cluster of `npm test` would break the other test files.
 */
import { after, before } from 'node:test';
import { type LocalCluster, startLocalCluster } from '../../local-cluster/index.js';

/**
 * Starts a private cluster (free ports, its own temp dir) before the file's tests and stops it
 * after them. While it runs, `ROLLOUT_TRACE_KUBECONFIG` and `KUBECONFIG` point at it, so the
 * helpers of test/helpers/cluster.ts (`clients`, `withNamespace`, `kubeconfigPath`...) and the
 * Deployment builders use it. node:test runs each file in a process of its own, so this never
 * leaks into another file. Returns a getter for the running cluster.
 */
export function usePrivateCluster(options: { nodes?: number } = {}): () => LocalCluster {
  let cluster: LocalCluster | undefined;
  before(
    async () => {
      const t0 = Date.now();
      cluster = await startLocalCluster({ nodes: options.nodes ?? 2, log: () => undefined });
      process.env.ROLLOUT_TRACE_KUBECONFIG = cluster.kubeconfigPath;
      process.env.KUBECONFIG = cluster.kubeconfigPath;
      process.stderr.write(`[fault] private control plane ready in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    },
    { timeout: 300_000 },
  );
  after(() => cluster?.stop());
  return () => {
    if (!cluster) throw new Error('the private cluster is not running (usePrivateCluster must be called at the top of the file)');
    return cluster;
  };
}
