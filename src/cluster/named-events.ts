/**
 * The traced workloads' own Events, listed by name: the Event backlog's second shortcut beside the
 * replay (backlog-replay.ts), for the case the replay cannot prove: a workload whose last Event
 * came before the trace started, so that no later Event shows the replay caught up.
 *
 * Kubernetes names an Event after the object it is about: `<object name>.<hex time>` (client-go's
 * recorders, as the kubelet, the scheduler and the controllers use them). A workload's pods,
 * ReplicaSets and claims-free revisions are named after the workload; a generated name keeps at
 * most its first {@link NAME_PREFIX_MAX} characters. etcd keeps a namespace's Events sorted by
 * name, so a workload's Events are one short key range, and a list page can start there instead of
 * scanning the whole namespace (seconds beside 45,000 Events).
 *
 * Where a page starts is what its `continue` token says: base64url JSON with the version
 * `meta.k8s.io/v1`, the revision read at and the key to start from (`DecodeContinue`,
 * k8s.io/apiserver/pkg/storage). The token is written here with the traced workload list's
 * revision L; that list, then a watch of the namespace's Events from L, is as complete as the
 * Event list and its watch for every Event named after its object. An apiserver that refuses the
 * token (or has compacted L away) leaves the trace to the replay and the Event list. An Event some
 * other tool named otherwise comes with the Event list, later.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KindToObject } from '../core/index.js';
import { etcdRevision } from './backlog-replay.js';
import { kindApis } from './kinds.js';
import { type LineSkip, LineWatch } from './line-watch.js';
import { abortWith, runSideWatch } from './side-watch.js';
import { streamOnce } from './watch-stream.js';

/** The longest name prefix a generated name keeps (kube-apiserver: 63 minus 5 random characters). */
export const NAME_PREFIX_MAX = 58;
/**
 * The most key ranges listed: past that (a source shared by many traced workloads), the replay and
 * the Event list decide, as one list costs less than that many requests.
 */
export const MAX_PREFIXES = 20;
/**
 * Events asked for by a named list's first page, then by each later one. A page runs on past the
 * workload's own Events into those of every name after its own (a namespace's Events sort by
 * name), which are read and dropped: the first page is small, as most workloads have a few dozen
 * Events; one with more reads on in larger pages.
 */
export const FIRST_PAGE = 100;
const PAGE = 500;

type Event = KindToObject['Event'];

/** What the named list tells its source. */
export interface NamedEventsHandlers {
  /** A listed or watched Event change. */
  event(type: 'upsert' | 'delete', event: Event): void;
  /** Every Event named after these workloads up to L is delivered; the watch from L is opening. */
  listed(names: readonly string[]): void;
}

/** The `continue` token that starts a list of `namespace`'s Events at `prefix`, read at `revision`. */
export function continueAt(prefix: string, revision: bigint): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(revision), start: prefix })).toString('base64url');
}

/**
 * The key prefixes that cover the Events of the workloads `names`: each name cut to
 * {@link NAME_PREFIX_MAX}, dropping those another prefix already covers.
 */
export function namePrefixes(names: readonly string[]): string[] {
  const cut = [...new Set(names.map((n) => n.slice(0, NAME_PREFIX_MAX)).filter((n) => /^[a-z0-9]/.test(n)))].sort();
  return cut.filter((p, i) => !cut.slice(0, i).some((q) => p.startsWith(q)));
}

/** The named list and its watch for one namespace; see the module comment. */
export class NamedEvents {
  /** Lists (pages) and watches opened. */
  lists = 0;
  opened = 0;
  private stopped = false;
  private readonly lifetime = new AbortController();
  private readonly watch: LineWatch;
  private controller: AbortController | undefined;
  private resuming = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    /** L: the traced workload list's revision. */
    private readonly at: bigint,
    private readonly handlers: NamedEventsHandlers,
    private readonly skip: LineSkip,
  ) {
    this.watch = new LineWatch(kc);
  }

  /** Lists the Events of `names` at L, then watches from L; tells `listed` once the list is in. */
  start(names: readonly string[]): void {
    void this.listThenWatch(names);
  }

  /** Re-opens the watch at once (a watch of the source was found silent). */
  resume(): void {
    if (!this.controller) return;
    this.resuming = true;
    this.controller.abort();
  }

  /** Stops listing and watching. */
  stop(): void {
    this.stopped = true;
    this.lifetime.abort();
  }

  private async listThenWatch(names: readonly string[]): Promise<void> {
    const prefixes = namePrefixes(names);
    if (prefixes.length === 0 || prefixes.length > MAX_PREFIXES) return;
    const events: Event[] = [];
    try {
      for (const prefix of prefixes) events.push(...(await this.listFrom(prefix)));
    } catch {
      return; // refused token, compacted revision, no access: the Event list decides
    }
    if (this.stopped) return;
    for (const e of events) this.handlers.event('upsert', e);
    // The watch from L brings what comes after, as the Event watcher's does after its list.
    void this.watchFrom(this.at);
    this.handlers.listed(names);
  }

  /** The Events whose names start with `prefix`, at L (those an Event list returns). */
  private async listFrom(prefix: string): Promise<Event[]> {
    const api = kindApis(this.kc).Event;
    const found: Event[] = [];
    let continueToken: string | undefined = continueAt(prefix, this.at);
    for (let pages = 0; continueToken && !this.stopped; pages++) {
      this.lists++;
      const limit = pages === 0 ? FIRST_PAGE : PAGE;
      const page = await api.listPage(this.namespace, { continueToken, limit, signal: this.lifetime.signal });
      const mine = page.items.filter((e) => e.metadata?.name?.startsWith(prefix));
      found.push(...mine.filter((e) => api.listed?.(e) ?? true));
      continueToken = mine.length === page.items.length ? page.continueToken : undefined;
    }
    return found;
  }

  /** Watches the namespace's Events from `from` until stopped (or it gives up: the Event list decides). */
  private async watchFrom(from: bigint): Promise<void> {
    const path = `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/events`;
    let version = from;
    const once = () =>
      streamOnce<'Event'>(
        this.watch,
        path,
        { resourceVersion: version.toString(), timeoutSeconds: 60, skip: this.skip },
        {
          live: () => !this.stopped,
          heard: () => undefined,
          event: (type, obj) => {
            version = etcdRevision(obj?.metadata?.resourceVersion) ?? version;
            if (type === 'ADDED' || type === 'MODIFIED') this.handlers.event('upsert', obj);
            else if (type === 'DELETED') this.handlers.event('delete', obj);
          },
          accepted: (controller) => {
            this.opened++;
            this.controller = controller;
            abortWith(controller, this.lifetime.signal);
          },
          ended: () => {
            this.controller = undefined;
          },
        },
      );
    const takeResume = () => {
      const resuming = this.resuming;
      this.resuming = false;
      return resuming;
    };
    await runSideWatch({ stopped: () => this.stopped, once, takeResume, signal: this.lifetime.signal });
  }
}
