/**
 * The process-wide registry of shared namespace sources: one per (cluster, credentials,
 * namespace), created on first use and forgotten when it closes; and the process's watch counters.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { NamespaceSource } from './namespace-source.js';
import type { SourceOptions } from './subscriber.js';
import { ALL_KINDS, type WatchStats, zeroPerKind } from './watch-stats.js';

const registry = new Map<string, NamespaceSource>();
/** Counters of closed sources. */
const totals: Pick<WatchStats, 'opened' | 'lists' | 'received'> = { opened: zeroPerKind(), lists: zeroPerKind(), received: zeroPerKind() };

/**
 * The shared source for `namespace` of the cluster and credentials in `kc` (same server, same
 * user credentials → same source), created on first use.
 */
export function acquireNamespaceSource(kc: KubeConfig, namespace: string, options?: SourceOptions): NamespaceSource {
  const key = sourceKey(kc, namespace);
  let source = registry.get(key);
  if (!source || source.isClosed) {
    const created = new NamespaceSource(kc, namespace, options, (stats) => {
      if (registry.get(key) === created) registry.delete(key);
      for (const k of ALL_KINDS) {
        totals.opened[k] += stats.opened[k];
        totals.lists[k] += stats.lists[k];
        totals.received[k] += stats.received[k];
      }
    });
    source = created;
    registry.set(key, source);
  }
  return source;
}

/**
 * Watch counters of this process: per kind, watches opened and lists done by every source ever
 * (closed ones included), and watches open right now.
 */
export function watchStats(): WatchStats {
  const s: WatchStats = {
    opened: { ...totals.opened },
    lists: { ...totals.lists },
    received: { ...totals.received },
    active: zeroPerKind(),
    cached: zeroPerKind(),
  };
  for (const source of registry.values()) {
    const st = source.stats();
    for (const k of ALL_KINDS) {
      s.opened[k] += st.opened[k];
      s.lists[k] += st.lists[k];
      s.active[k] += st.active[k];
      s.cached[k] += st.cached[k];
      s.received[k] += st.received[k];
    }
  }
  return s;
}

/** Sources open right now (for tests: 0 after every tracker finished). */
export function openSourceCount(): number {
  return registry.size;
}

/**
 * Which trackers may share a source: same apiserver, trust, credentials and namespace. The key is
 * only held in the registry's Map (never printed); loading node:crypto to hash it cost ~10 ms of
 * a start-up.
 */
function sourceKey(kc: KubeConfig, namespace: string): string {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  return JSON.stringify([cluster?.server, cluster?.caData, cluster?.caFile, cluster?.skipTLSVerify, user, namespace]);
}

/**
 * The process's watch counters, for an in-process probe that cannot import this module (the
 * bench's lag probe beside the bundled CLI): `globalThis[Symbol.for('rollout-trace.watchStats')]()`.
 */
(globalThis as Record<symbol, unknown>)[Symbol.for('rollout-trace.watchStats')] = watchStats;
