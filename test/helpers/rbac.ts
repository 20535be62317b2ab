/** RBAC-limited credentials for tests against the embedded control plane. */
import { KubeConfig, type V1PolicyRule } from '@kubernetes/client-node';
import { clients, kubeConfig, waitUntil } from './cluster.js';

/** The read verbs a tracker needs on a resource. */
export const READ = ['get', 'list', 'watch'];

/**
 * Creates ServiceAccount `name` in `ns`, bound to a Role `name` with `rules` (`[]`: no permission),
 * and returns a token kubeconfig for it (context namespace `ns`): the one ServiceAccount-token
 * kubeconfig builder of the tests (`kc.exportConfig()` gives its text).
 */
export async function serviceAccountKubeConfig(ns: string, name: string, rules: V1PolicyRule[]): Promise<KubeConfig> {
  const { core, rbac } = clients();
  await core.createNamespacedServiceAccount({ namespace: ns, body: { metadata: { name } } });
  await rbac.createNamespacedRole({ namespace: ns, body: { metadata: { name }, rules } });
  await rbac.createNamespacedRoleBinding({
    namespace: ns,
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: ns }],
    },
  });
  // Kubernetes 1.20 creates the token Secret for a ServiceAccount by itself.
  const token = await waitUntil(
    async () => {
      const sa = await core.readNamespacedServiceAccount({ name, namespace: ns });
      const secretName = sa.secrets?.[0]?.name;
      if (!secretName) return undefined;
      const secret = await core.readNamespacedSecret({ name: secretName, namespace: ns });
      return secret.data?.token ? Buffer.from(secret.data.token, 'base64').toString('utf8') : undefined;
    },
    { what: `token of ServiceAccount ${ns}/${name}`, timeoutMs: 20_000 },
  );
  const admin = kubeConfig().getCurrentCluster()!;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'test', server: admin.server, caData: admin.caData, caFile: admin.caFile, skipTLSVerify: admin.skipTLSVerify }],
    users: [{ name: `sa-${name}`, token }],
    contexts: [{ name: `sa-${name}`, cluster: 'test', user: `sa-${name}`, namespace: ns }],
    currentContext: `sa-${name}`,
  });
  return kc;
}
