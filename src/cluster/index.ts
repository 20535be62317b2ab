/**
 * Cluster access: kubeconfig loading, the shared per-namespace list+watch source, log tails.
 */

export { Backoff, type BackoffOptions } from './backoff.js';
export { KindWatcher, type KindWatcherOptions } from './kind-watcher.js';
export { type KindApi, kindApis } from './kinds.js';
export { contextNamespace, describeTarget, type KubeConfigSource, loadKubeConfig } from './kubeconfig.js';
export { type FollowLogOptions, followLog, type LogStream } from './log-stream.js';
export { fetchLogTail, type LogTailOptions } from './logs.js';
export {
  acquireNamespaceSource,
  NamespaceSource,
  openSourceCount,
  type SourceOptions,
  type SourceSubscriber,
  type WatchStats,
  watchStats,
} from './namespace-source.js';
export { checkReachable } from './reachability.js';
export { deploymentsMatching } from './select.js';

import { watchStats as statsOfThisProcess } from './namespace-source.js';

/**
 * The process's watch counters, for an in-process probe that cannot import this module (the
 * bench's lag probe beside the bundled CLI): `globalThis[Symbol.for('rollout-trace.watchStats')]()`.
 */
(globalThis as Record<symbol, unknown>)[Symbol.for('rollout-trace.watchStats')] = statsOfThisProcess;
