/**
 * The few read-only API calls the Pulumi integration makes itself (everything else goes through
 * the tracker): read the live Deployment before the provider changes it, and find an auto-named
 * Deployment from its prefix.
 */
import { AppsV1Api, type KubeConfig, type V1Deployment } from '@kubernetes/client-node';
import { AUTONAMED, isAutoNameOf, type PlannedDeployment } from './plan.js';

/** The namespace of the kubeconfig's current context, else `default` (kubectl's rule). */
export function contextNamespace(kc: KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}

function statusCode(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown } | undefined;
  const code = typeof e?.code === 'number' ? e.code : e?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Reads one Deployment; undefined when it does not exist. */
export async function readDeployment(kc: KubeConfig, namespace: string, name: string): Promise<V1Deployment | undefined> {
  try {
    return await kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name, namespace });
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw err;
  }
}

/**
 * The live Deployments the plan can refer to: the one named `plan.name`, or every object the
 * provider auto-named from `plan.namePrefix` (newest first). A selector that disagrees rules a
 * candidate out.
 */
export async function findDeployments(kc: KubeConfig, namespace: string, plan: PlannedDeployment): Promise<V1Deployment[]> {
  if (plan.name) {
    const one = await readDeployment(kc, namespace, plan.name);
    return one ? [one] : [];
  }
  let items: V1Deployment[];
  try {
    items = (await kc.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace })).items;
  } catch (err) {
    if (statusCode(err) === 404) return [];
    throw err;
  }
  return items
    .filter((d) => isAutoNameOf(plan.namePrefix, d.metadata?.name ?? ''))
    .filter((d) => d.metadata?.annotations?.[AUTONAMED] === 'true')
    .filter((d) => selectorAgrees(plan.selector, d.spec?.selector?.matchLabels))
    .sort((a, b) => time(b) - time(a));
}

function time(d: V1Deployment): number {
  const t = d.metadata?.creationTimestamp;
  return t ? new Date(t).getTime() : 0;
}

function selectorAgrees(planned: Record<string, string> | undefined, live: Record<string, string> | undefined): boolean {
  if (!planned) return true;
  return Object.entries(planned).every(([k, v]) => live?.[k] === v);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
