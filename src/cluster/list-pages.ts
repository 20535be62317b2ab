/**
 * A paged list of one kind: pages of `limit` objects followed by their `continue` token, each page
 * handed over as it arrives (so a namespace's 45,000 Events never sit in memory at once).
 *
 * A continue token expires when etcd compacts past the list's resourceVersion (410 Gone /
 * Expired): the list restarts from its first page (a full re-list, as client-go's pager falls back
 * to a full list), at most {@link EXPIRED_RESTARTS} times before the error goes to the caller.
 */
import type { KindToObject, WatchedKind } from '../core/index.js';
import { statusOf } from './api-errors.js';
import type { KindApi } from './kinds.js';

/** What to list and how. */
export interface ListRequest {
  namespace: string;
  /** Page size. */
  limit: number;
  signal: AbortSignal;
  /** Kubernetes label selector (undefined: every object). */
  labelSelector?: string | undefined;
  /** Any version will do: see ListPageOptions.anyVersion. */
  anyVersion?: boolean | undefined;
}

/** Receives a list's pages. */
export interface PageSink<K extends WatchedKind> {
  /** One page of objects (slimmed). */
  page(items: KindToObject[K][]): void;
  /** The list starts over (an expired continue token): forget the pages so far. */
  restart(): void;
}

/** Restarts of one list after an expired continue token before giving up. */
export const EXPIRED_RESTARTS = 3;

/**
 * Lists every object of `api.kind` (those `api.listFieldSelector` selects), handing each page to
 * `sink`; resolves with the list's resourceVersion, or undefined when `stopped()` became true midway.
 */
export async function listPages<K extends WatchedKind>(
  api: KindApi<K>,
  request: ListRequest,
  sink: PageSink<K>,
  stopped: () => boolean,
): Promise<string | undefined> {
  const fieldSelector = api.listFieldSelector;
  let restarts = 0;
  restart: while (!stopped()) {
    let resourceVersion: string | undefined;
    let continueToken: string | undefined;
    do {
      let page: Awaited<ReturnType<KindApi<K>['listPage']>>;
      try {
        page = await api.listPage(request.namespace, { ...request, continueToken, fieldSelector });
      } catch (err) {
        if (continueToken === undefined || statusOf(err) !== 410 || restarts >= EXPIRED_RESTARTS || stopped()) throw err;
        restarts++;
        sink.restart();
        continue restart;
      }
      if (stopped()) return undefined;
      sink.page(api.slim ? page.items.map((o) => api.slim!(o)) : page.items);
      resourceVersion ??= page.resourceVersion;
      continueToken = page.continueToken;
    } while (continueToken);
    return stopped() ? undefined : resourceVersion;
  }
  return undefined;
}
