import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig for a local test server at `server` (`http://127.0.0.1:PORT`): no TLS, no credentials. */
export function localKubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'local', server, skipTLSVerify: true }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'local', cluster: 'local', user: 'nobody' }],
    currentContext: 'local',
  });
  return kc;
}
