/**
 * A Node with no kubelet at all: the test writes its pods' status by hand, in the shapes newer
 * kubelets write (1.25-1.34: test/fixtures/modern-pods.ts) that the simulated 1.20 kubelet never
 * does. The embedded apiserver accepts them (any condition type, any container state). The Node
 * is Ready (its Lease renewed every 5 s, so the node lifecycle controller leaves it alone) and
 * tainted so that only the test's pods, which select and tolerate it, land there. Its pods are
 * force-deleted and the Node and Lease removed when the test ends.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { CoordinationV1Api, PatchStrategy, setHeaderOptions, type V1Pod, type V1PodSpec } from '@kubernetes/client-node';
import { clients } from './cluster.js';

const TAINT_KEY = 'rollout-trace.dev/bare-node';

/** A kubelet-less Node and how to put pods on it. */
export interface BareNode {
  name: string;
  /** Merge into a pod spec: selects this node and tolerates its taint. */
  podSpec: Pick<V1PodSpec, 'nodeSelector' | 'tolerations'>;
  /** Replaces pod `namespace/name`'s status (a JSON merge patch of `status`). */
  writeStatus(namespace: string, name: string, status: Record<string, unknown>): Promise<V1Pod>;
}

/** Registers a bare Node for this test. */
export async function startBareNode(t: TestContext): Promise<BareNode> {
  const { core, kc } = clients();
  const leases = kc.makeApiClient(CoordinationV1Api);
  const name = `bare-${randomBytes(3).toString('hex')}`;
  const now = () => new Date().toISOString() as unknown as Date;
  const ready = { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' };
  await core.createNode({
    body: {
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
      spec: { taints: [{ key: TAINT_KEY, value: name, effect: 'NoSchedule' }] },
      status: {
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        conditions: [{ ...ready, lastHeartbeatTime: now(), lastTransitionTime: now() }],
      },
    },
  });
  const renew = async () => {
    const renewTime = new Date().toISOString();
    await leases
      .patchNamespacedLease(
        { name, namespace: 'kube-node-lease', body: { spec: { renewTime } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )
      .catch(() =>
        leases.createNamespacedLease({
          namespace: 'kube-node-lease',
          body: { metadata: { name }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: renewTime as unknown as Date } },
        }),
      )
      .catch(() => undefined);
  };
  await renew();
  const timer = setInterval(() => void renew(), 5000);
  t.after(async () => {
    clearInterval(timer);
    const pods = await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${name}` }).catch(() => undefined);
    for (const p of pods?.items ?? []) {
      await core
        .deleteNamespacedPod({ name: p.metadata!.name!, namespace: p.metadata!.namespace!, gracePeriodSeconds: 0 })
        .catch(() => undefined);
    }
    await core.deleteNode({ name }).catch(() => undefined);
    await leases.deleteNamespacedLease({ name, namespace: 'kube-node-lease' }).catch(() => undefined);
  });
  return {
    name,
    podSpec: {
      nodeSelector: { 'kubernetes.io/hostname': name },
      tolerations: [{ key: TAINT_KEY, operator: 'Exists', effect: 'NoSchedule' }],
    },
    writeStatus: (namespace, pod, status) =>
      core.patchNamespacedPodStatus({ name: pod, namespace, body: { status } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)),
  };
}
