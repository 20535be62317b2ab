/**
 * A simulated node of a test's own: a separate in-process kubelet (startKubelet) registering one
 * Node with a taint that keeps every other test's pods off it. Its pods select it by hostname and
 * tolerate the taint. Stopping its kubelet stops the heartbeats: ~40 s later (the
 * controller-manager's node-monitor-grace-period) the Node goes NotReady/Unknown. The Node and its
 * Lease are deleted when the test ends.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { CoordinationV1Api, type KubeConfig, type V1PodSpec } from '@kubernetes/client-node';
import { type Kubelet, startKubelet } from '../../local-cluster/kubelet/index.js';
import { clients } from './cluster.js';

const TAINT_KEY = 'rollout-trace.dev/test-node';

/** A private node and how to put pods on it. */
export interface PrivateNode {
  name: string;
  kubelet: Kubelet;
  /** Merge into a pod spec: selects this node and tolerates its taint. */
  podSpec: Pick<V1PodSpec, 'nodeSelector' | 'tolerations'>;
}

/** A name prefix for {@link startPrivateNode}, known before the node starts (its taint's value). */
export function privateNodePrefix(): string {
  return `t-${randomBytes(3).toString('hex')}`;
}

/**
 * Starts a one-node kubelet through `kubeconfig` (default: the test cluster's admin kubeconfig).
 * Its Node is `${prefix}-1`, tainted `rollout-trace.dev/test-node=${prefix}:NoSchedule`.
 * `maxGraceSeconds`: how long a terminating pod's containers may take (the shared nodes cut every
 * grace period to 2 s).
 */
export async function startPrivateNode(
  t: TestContext,
  kubeconfig?: KubeConfig,
  prefix = privateNodePrefix(),
  o: { maxGraceSeconds?: number } = {},
): Promise<PrivateNode> {
  const { core, kc } = clients();
  const name = `${prefix}-1`;
  const kubelet = await startKubelet({
    kubeconfig: kubeconfig ?? kc,
    nodes: 1,
    namePrefix: prefix,
    taints: [{ key: TAINT_KEY, value: prefix, effect: 'NoSchedule' }],
    ...(o.maxGraceSeconds !== undefined ? { maxGraceSeconds: o.maxGraceSeconds } : {}),
  });
  t.after(async () => {
    // Stop first: a running kubelet re-registers a deleted Node, as a real one does.
    await kubelet.stop();
    await core.deleteNode({ name }).catch(() => undefined);
    await kc
      .makeApiClient(CoordinationV1Api)
      .deleteNamespacedLease({ name, namespace: 'kube-node-lease' })
      .catch(() => undefined);
  });
  return {
    name,
    kubelet,
    podSpec: {
      nodeSelector: { 'kubernetes.io/hostname': name },
      tolerations: [{ key: TAINT_KEY, operator: 'Exists', effect: 'NoSchedule' }],
    },
  };
}
