/**
 * A paged list of one kind: pages of `limit` objects followed by their `continue` token, each page
 * handed over as it arrives.
 */
import type { KindToObject, WatchedKind } from '../core/index.js';
import type { KindApi } from './kinds.js';

/** What to list and how. */
export interface ListRequest {
  namespace: string;
  /** Page size. */
  limit: number;
  signal: AbortSignal;
}

/**
 * Lists every object of `api.kind`, calling `onPage` with each page (slimmed); resolves with the
 * list's resourceVersion, or undefined when `stopped()` became true midway.
 */
export async function listPages<K extends WatchedKind>(
  api: KindApi<K>,
  request: ListRequest,
  onPage: (items: KindToObject[K][]) => void,
  stopped: () => boolean,
): Promise<string | undefined> {
  let continueToken: string | undefined;
  let resourceVersion = '';
  do {
    const page = await api.listPage(request.namespace, { continueToken, limit: request.limit, signal: request.signal });
    onPage(api.slim ? page.items.map((o) => api.slim!(o)) : page.items);
    resourceVersion = page.resourceVersion;
    continueToken = page.continueToken;
  } while (continueToken && !stopped());
  return stopped() ? undefined : resourceVersion;
}
