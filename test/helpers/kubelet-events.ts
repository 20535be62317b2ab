/**
 * Events written as the kubelet writes them, for the cases the simulated kubelet does not play
 * (a liveness failure on a pod that stays Ready).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { clients } from './cluster.js';

/**
 * Writes the Warning a kubelet writes when `pod`'s liveness probe fails (the pod stays Ready until
 * the kill), named `name` (the kubelet's own names are `<pod>.<hex time>`).
 */
export async function writeLivenessFailure(namespace: string, pod: V1Pod, name = `${pod.metadata?.name}.liveness`): Promise<void> {
  const now = new Date();
  await clients().core.createNamespacedEvent({
    namespace,
    body: {
      metadata: { name },
      involvedObject: {
        kind: 'Pod',
        namespace,
        name: pod.metadata?.name,
        uid: pod.metadata?.uid,
        apiVersion: 'v1',
        fieldPath: 'spec.containers{app}',
      },
      reason: 'Unhealthy',
      message: 'Liveness probe failed: HTTP probe failed with statuscode: 500',
      type: 'Warning',
      source: { component: 'kubelet', host: pod.spec?.nodeName },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    },
  });
}
