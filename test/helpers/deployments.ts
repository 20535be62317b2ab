/**
 * Creating and updating the tests' Deployments (built by `deploymentOf`, deployment-shape.ts) in the test
 * cluster, and the one "rolled out" waiter. Simulated-kubelet behaviours are pod annotations
 * (`behaviour: { app: 'crash;exitCode=3' }`, see local-cluster/simulated-kubelet.md).
 */
import type { V1Deployment } from '@kubernetes/client-node';
import { clients, waitUntil } from './cluster.js';
import { type DeploymentShape, deploymentOf } from './deployment-shape.js';

export { type DeploymentShape, deploymentOf, podTemplateOf } from './deployment-shape.js';

/** Creates the Deployment and returns it as stored. */
export async function createDeployment(namespace: string, name: string, shape: DeploymentShape = {}): Promise<V1Deployment> {
  return clients().apps.createNamespacedDeployment({ namespace, body: deploymentOf(name, shape) });
}

/**
 * Replaces the Deployment's spec with the given shape (a new template → a new revision), retrying
 * on 409 Conflict like {@link editDeployment}: the controller writes its status meanwhile.
 */
export async function updateDeployment(namespace: string, name: string, shape: DeploymentShape): Promise<V1Deployment> {
  const spec = deploymentOf(name, shape).spec;
  return editDeployment(namespace, name, (cur) => {
    cur.spec = spec;
  });
}

/**
 * Reads the Deployment, applies `edit` and writes it back, retrying on 409 Conflict (the
 * controller writes its status meanwhile): `kubectl rollout pause/resume`, `set image`, `scale`.
 */
export async function editDeployment(namespace: string, name: string, edit: (d: V1Deployment) => void): Promise<V1Deployment> {
  const { apps } = clients();
  for (let attempt = 0; ; attempt++) {
    const cur = await apps.readNamespacedDeployment({ name, namespace });
    edit(cur);
    try {
      return await apps.replaceNamespacedDeployment({ name, namespace, body: cur });
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}

/**
 * Waits until the Deployment controller reports the rollout complete (generation observed, every
 * replica updated and available, `Available=True`): for test set-up, not as the thing under test.
 */
export async function waitRolledOut(namespace: string, name: string, timeoutMs = 60_000): Promise<V1Deployment> {
  const { apps } = clients();
  return waitUntil(
    async () => {
      const d = await apps.readNamespacedDeployment({ name, namespace });
      const want = d.spec?.replicas ?? 1;
      const s = d.status ?? {};
      const available = s.conditions?.some((c) => c.type === 'Available' && c.status === 'True') ?? false;
      const done =
        available &&
        (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        (s.updatedReplicas ?? 0) === want &&
        (s.availableReplicas ?? 0) === want &&
        (s.replicas ?? 0) === want;
      return done ? d : undefined;
    },
    { what: `Deployment ${namespace}/${name} rolled out`, timeoutMs, intervalMs: 250 },
  );
}
