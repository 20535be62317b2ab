/**
 * Shared bits of the Pulumi scenarios: the kubespy nginx Deployment as a Pulumi program declares
 * it, and a way to put a live Deployment in place as an earlier `pulumi up` would have
 * (server-side apply, same field manager). Both are built on the tests' one Deployment builder
 * and "rolled out" waiter (test/helpers/deployments.ts).
 */
import { KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { clients } from '../../helpers/cluster.js';
import { deploymentOf, waitRolledOut } from '../../helpers/deployments.js';

/** The kubespy trace-deployment example's labels. */
export const appLabels = { app: 'nginx' };

type Labels = Record<string, string>;

/** Deployment args as a program declares them (plain JSON): namespace, maybe a name, a full spec. */
export interface NginxArgs {
  metadata: { name?: string; namespace: string };
  spec: {
    replicas: number;
    selector: { matchLabels: Labels };
    template: {
      metadata: { labels: Labels; annotations?: Labels };
      spec: { terminationGracePeriodSeconds?: number; containers: ({ name: string; image: string } & Record<string, any>)[] };
    };
  };
}

/**
 * The example's Deployment args: `deploymentOf` with the example's labels (or `labels`) and its
 * container `nginx` serving port 80. Without `name` the provider auto-names the object.
 */
export function nginxArgs(
  namespace: string,
  image: string,
  replicas = 3,
  name?: string,
  labels = appLabels,
  behaviour?: string,
): NginxArgs {
  const { spec } = deploymentOf(name ?? 'nginx', {
    image,
    replicas,
    labels,
    container: { name: 'nginx', ports: [{ containerPort: 80 }] },
    ...(behaviour !== undefined ? { behaviour: { nginx: behaviour } } : {}),
  });
  return { metadata: { ...(name ? { name } : {}), namespace }, spec: spec as unknown as NginxArgs['spec'] };
}

/**
 * Applies a Deployment like the kubernetes provider does and waits until it is rolled out
 * (`behaviour`: the simulated kubelet's, for its container `nginx`).
 */
export async function applyReady(namespace: string, name: string, image: string, replicas = 3, behaviour?: string): Promise<void> {
  const body = { apiVersion: 'apps/v1', kind: 'Deployment', ...nginxArgs(namespace, image, replicas, name, appLabels, behaviour) };
  await KubernetesObjectApi.makeApiClient(clients().kc).patch(
    body as any,
    undefined,
    undefined,
    'pulumi-kubernetes',
    true,
    PatchStrategy.ServerSideApply,
  );
  await waitRolledOut(namespace, name, 90_000);
}
