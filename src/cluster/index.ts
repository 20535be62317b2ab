/**
 * Cluster access: kubeconfig loading, the shared per-namespace list+watch source, log tails.
 */

export { describeFailure, forbiddenError, statusOf, unreachableError } from './api-errors.js';
export { Backoff, type BackoffOptions, sleep } from './backoff.js';
export { KindWatcher, type KindWatcherOptions } from './kind-watcher.js';
export { type KindApi, kindApis } from './kinds.js';
export { contextNamespace, describeTarget, type KubeConfigSource, loadKubeConfig } from './kubeconfig.js';
export { type FollowLogOptions, followLog, type LogStream } from './log-stream.js';
export { fetchLogTail, type LogTailOptions, POD_GONE_UNREAD } from './logs.js';
export { NamespaceSource } from './namespace-source.js';
export { rawGet } from './raw-get.js';
export { checkReachable } from './reachability.js';
export { afterReadBatch, deliveringReadBatch, drainReadBatches } from './read-batches.js';
export { workloadsMatching } from './select.js';
export { acquireNamespaceSource, openSourceCount, watchStats } from './source-registry.js';
export type { SourceOptions, SourceSubscriber } from './subscriber.js';
export { listTerminatingPods } from './terminating-pods.js';
export type { WatchStats } from './watch-stats.js';
