/**
 * The namespace's terminating pods, for a quota's refusal (src/core/quota-holders.ts says why):
 * one list from the API server's watch cache (`resourceVersion=0`), pods that ended left out by
 * the server, only the pods with a `deletionTimestamp` kept.
 */
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import type { TerminatingPod } from '../core/index.js';
import { rawGet } from './raw-get.js';

/** Lists the pods of `namespace` that are terminating (the same `list pods` the trace's Role grants). */
export async function listTerminatingPods(kc: KubeConfig, namespace: string, signal?: AbortSignal): Promise<TerminatingPod[]> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;
  const query = { resourceVersion: '0', fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' };
  const list = await rawGet<{ items?: V1Pod[] }>(kc, path, query, signal);
  const out: TerminatingPod[] = [];
  for (const pod of list.items ?? []) {
    // Plain JSON: the timestamp is the API server's string.
    const deletion = pod.metadata?.deletionTimestamp as unknown;
    if (typeof deletion !== 'string') continue;
    out.push({ name: pod.metadata?.name ?? '', deletionTimestamp: deletion, ...(pod.status?.phase ? { phase: pod.status.phase } : {}) });
  }
  return out;
}
