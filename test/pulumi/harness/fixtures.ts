/**
 * Shared bits of the Pulumi scenarios: the kubespy nginx Deployment and a way to put a live
 * Deployment in place as an earlier `pulumi up` would have (server-side apply, same field manager).
 */
import { KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { clients, waitUntil } from '../../helpers/cluster.js';

/** The kubespy trace-deployment example's labels. */
export const appLabels = { app: 'nginx' };

/** The example's Deployment args (as a Pulumi program declares them). */
export function nginxArgs(namespace: string, image: string, replicas = 3, name?: string) {
  return {
    metadata: { ...(name ? { name } : {}), namespace },
    spec: {
      replicas,
      selector: { matchLabels: appLabels },
      template: {
        metadata: { labels: appLabels },
        spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] },
      },
    },
  };
}

/** Applies a Deployment like the kubernetes provider does and waits until it is fully ready. */
export async function applyReady(namespace: string, name: string, image: string, replicas = 3): Promise<void> {
  const { kc, apps } = clients();
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', ...nginxArgs(namespace, image, replicas, name) };
  await KubernetesObjectApi.makeApiClient(kc).patch(
    body as any,
    undefined,
    undefined,
    'pulumi-kubernetes',
    true,
    PatchStrategy.ServerSideApply,
  );
  await waitUntil(
    async () => {
      const d = await apps.readNamespacedDeployment({ name, namespace });
      return (
        d.status?.observedGeneration === d.metadata?.generation &&
        (d.status?.readyReplicas ?? 0) === replicas &&
        (d.status?.updatedReplicas ?? 0) === replicas &&
        (d.status?.replicas ?? 0) === replicas
      );
    },
    { what: `Deployment ${namespace}/${name} ready`, timeoutMs: 90_000 },
  );
}
