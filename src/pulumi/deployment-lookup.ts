/**
 * Finding a program's workload (Deployment, StatefulSet, DaemonSet, Job) in the cluster: the few
 * read-only API calls the Pulumi integration makes itself (everything else goes through the
 * tracker): read the live object before the provider changes it, and find an auto-named one from
 * its prefix.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { forbiddenError, rawGet, statusOf } from '../cluster/index.js';
import type { WorkloadKind } from '../core/index.js';
import { AUTONAMED, isAutoNameOf, type PlannedDeployment } from './plan.js';
import { type LiveWorkload, workloadsPath } from './workload-kinds.js';

/** A 401/403 becomes the RBAC explanation; anything else is rethrown as is. */
function refusal(kc: KubeConfig, verb: string, namespace: string, err: unknown): unknown {
  const status = statusOf(err);
  return status === 401 || status === 403 ? forbiddenError(kc, verb, 'deployments', namespace, err) : err;
}

/**
 * Recent namespace lists, shared by the traces of one program run (see run-state.ts): a stack
 * with many auto-named Deployments in one namespace lists it once, not once per Deployment.
 */
export type ListCache = Map<string, { startedAt: number; items: Promise<LiveWorkload[]> }>;

/** How a lookup may be served: `signal` aborts the request; `maxAgeMs` reuses a list from `cache`. */
export interface LookupOptions {
  signal?: AbortSignal;
  /** Reuse a list of the namespace started at most this long ago (0: always a fresh list). */
  maxAgeMs?: number;
  /** Where recent lists are kept (one per program run); without it every lookup lists afresh. */
  cache?: ListCache;
  /**
   * Also accept an auto-named Deployment created since this time (ms) whatever its name pattern:
   * the engine's `pulumi:autonaming` config names objects by its own pattern (pk: naming.go
   * AssignNameIfAutonamable still marks them autonamed). Only the search for a new object sets it.
   */
  autonamedSince?: number;
}

/** The longest one shared namespace list may take (callers time out on their own too). */
const LIST_TIMEOUT_MS = 15_000;

function listWorkloads(
  kc: KubeConfig,
  kind: WorkloadKind,
  namespace: string,
  maxAgeMs: number,
  recentLists: ListCache = new Map(),
): Promise<LiveWorkload[]> {
  const key = JSON.stringify([kc.getCurrentCluster()?.server, kc.getCurrentUser()?.name, kind, namespace]);
  const recent = recentLists.get(key);
  if (recent && Date.now() - recent.startedAt <= maxAgeMs) return recent.items;
  const items = rawGet<{ items?: LiveWorkload[] }>(kc, workloadsPath(kind, namespace), {}, AbortSignal.timeout(LIST_TIMEOUT_MS)).then(
    (list) => list.items ?? [],
  );
  const entry = { startedAt: Date.now(), items };
  recentLists.set(key, entry);
  // A failed list is never reused.
  items.catch(() => recentLists.get(key) === entry && recentLists.delete(key));
  return items;
}

/** Reads one workload of `kind` (default Deployment); undefined when it does not exist. */
export async function readWorkload(
  kc: KubeConfig,
  namespace: string,
  name: string,
  signal: AbortSignal | undefined,
  kind: WorkloadKind,
): Promise<LiveWorkload | undefined> {
  try {
    return await rawGet<LiveWorkload>(kc, `${workloadsPath(kind, namespace)}/${encodeURIComponent(name)}`, {}, signal);
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    throw refusal(kc, 'get', namespace, err);
  }
}

/**
 * The live workloads of the plan's kind it can refer to: the one named `plan.name`, or every object the
 * provider auto-named from `plan.namePrefix` (newest first). A selector that disagrees rules a
 * candidate out.
 */
export async function findWorkloads(
  kc: KubeConfig,
  namespace: string,
  plan: PlannedDeployment,
  options: LookupOptions = {},
): Promise<LiveWorkload[]> {
  if (plan.name) {
    const one = await readWorkload(kc, namespace, plan.name, options.signal, plan.kind);
    return one ? [one] : [];
  }
  let items: LiveWorkload[];
  try {
    items = await listWorkloads(kc, plan.kind, namespace, options.maxAgeMs ?? 0, options.cache);
  } catch (err) {
    if (statusOf(err) === 404) return [];
    throw refusal(kc, 'list', namespace, err);
  }
  const since = options.autonamedSince;
  // creationTimestamp has a resolution of one second.
  const named = (d: LiveWorkload) =>
    isAutoNameOf(plan.namePrefix, d.metadata?.name ?? '') || (since !== undefined && time(d) >= since - 1000);
  // An object named from generateName keeps that field (and is not marked autonamed).
  const ours = plan.generateName
    ? (d: LiveWorkload) => d.metadata?.generateName === plan.generateName && (since === undefined || time(d) >= since - 1000)
    : (d: LiveWorkload) => named(d) && d.metadata?.annotations?.[AUTONAMED] === 'true';
  return items
    .filter(ours)
    .filter((d) => selectorAgrees(plan.selector, d.spec?.selector?.matchLabels))
    .sort((a, b) => time(b) - time(a));
}

function time(d: LiveWorkload): number {
  const t = d.metadata?.creationTimestamp;
  return t ? new Date(t).getTime() : 0;
}

function selectorAgrees(planned: Record<string, string> | undefined, live: Record<string, string> | undefined): boolean {
  if (!planned) return true;
  return Object.entries(planned).every(([k, v]) => live?.[k] === v);
}

/** The workloads of `kind` in `namespace` that helm installed (release.ts `HELM_MANAGED_SELECTOR`). */
export async function listHelmManaged(
  kc: KubeConfig,
  kind: WorkloadKind,
  namespace: string,
  signal?: AbortSignal,
): Promise<LiveWorkload[]> {
  const query = { labelSelector: 'app.kubernetes.io/managed-by=Helm' };
  const list = await rawGet<{ items?: LiveWorkload[] }>(
    kc,
    workloadsPath(kind, namespace),
    query,
    signal ?? AbortSignal.timeout(LIST_TIMEOUT_MS),
  ).catch((err: unknown) => {
    throw refusal(kc, 'list', namespace, err);
  });
  return list.items ?? [];
}
