/**
 * Cluster access: kubeconfig loading, the shared per-namespace list+watch source, log tails.
 */
export { loadKubeConfig, contextNamespace, describeTarget, type KubeConfigSource } from './kubeconfig.js';
export {
  NamespaceSource,
  acquireNamespaceSource,
  watchStats,
  openSourceCount,
  type SourceSubscriber,
  type SourceOptions,
  type WatchStats,
} from './namespace-source.js';
export { fetchLogTail, type LogTailOptions } from './logs.js';
export { checkReachable } from './reachability.js';
export { deploymentsMatching } from './select.js';
export { Backoff, type BackoffOptions } from './backoff.js';
