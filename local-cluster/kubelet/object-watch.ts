/**
 * List + watch of one kind across namespaces, like a client-go informer: the kubelet's apiserver
 * pod source (the pods bound to one node, `fieldSelector=spec.nodeName=<node>`) and the simulated
 * provisioner's claims and volumes, and the objects of the simulated cluster controllers
 * (`local-cluster/controllers/`). Re-watches from the last resourceVersion when a watch ends
 * (client-node 2.x ends idle watches after 30 s), re-lists after 410 Gone or errors.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';
import { errorText } from './events.js';

/** An object with the metadata a watch needs. */
interface Watched {
  metadata?: { uid?: string; resourceVersion?: string; namespace?: string; name?: string };
}

/** Receives the watched objects. */
export interface ObjectSink<T extends Watched> {
  /** An object was added or changed. */
  upsert(obj: T): void;
  /** An object is gone from the API. */
  remove(uid: string): void;
  /** UIDs currently known (to detect deletions missed while re-listing). */
  known(): string[];
}

/** What to watch. */
export interface WatchTarget<T extends Watched> {
  /** Collection path, e.g. `/api/v1/pods`. */
  path: string;
  /** What the log lines call it, e.g. `pod watch for sim-node-1`. */
  what: string;
  fieldSelector?: string;
  /** A label selector, e.g. `!sim.rollout-trace.dev/controllers` (objects that stop matching arrive as DELETED). */
  labelSelector?: string;
  /** Lists the collection (with the same selectors). */
  list(): Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>;
}

/** Watches `target` until `stop()`. */
export class ObjectWatch<T extends Watched> {
  private controller?: AbortController;
  private stopped = false;
  private resourceVersion = '';
  private timer?: NodeJS.Timeout;
  private failures = 0;

  constructor(
    private readonly kc: KubeConfig,
    private readonly target: WatchTarget<T>,
    private readonly sink: ObjectSink<T>,
    private readonly log: (line: string) => void,
  ) {}

  /** Lists and starts watching; resolves after the first list. */
  async start(): Promise<void> {
    await this.list();
    void this.watch();
  }

  /** Closes the watch. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.controller?.abort();
  }

  private async list(): Promise<void> {
    const list = await this.target.list();
    if (this.stopped) return;
    this.resourceVersion = list.metadata?.resourceVersion ?? '';
    const present = new Set<string>();
    for (const obj of list.items) {
      present.add(obj.metadata?.uid ?? '');
      this.handle(obj);
    }
    for (const uid of this.sink.known()) if (!present.has(uid)) this.sink.remove(uid);
  }

  /**
   * Hands one object to the sink. An error there is logged with the object's name and the others
   * go on: thrown inside the watch callback it would be lost (client-node's Watch drops what its
   * callback throws as a JSON parse error), and inside a list it would skip every later object.
   */
  private handle(obj: T): void {
    try {
      this.sink.upsert(obj);
    } catch (err) {
      const m = obj.metadata;
      this.log(
        `${this.target.what}: handling ${m?.namespace ? `${m.namespace}/` : ''}${m?.name ?? m?.uid ?? '?'} failed: ${errorText(err)}`,
      );
    }
  }

  private async watch(): Promise<void> {
    if (this.stopped) return;
    let relist = false;
    try {
      this.controller = await new Watch(this.kc).watch(
        this.target.path,
        {
          ...(this.target.fieldSelector ? { fieldSelector: this.target.fieldSelector } : {}),
          ...(this.target.labelSelector ? { labelSelector: this.target.labelSelector } : {}),
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
        },
        (type: string, obj: T & { code?: number }) => {
          if (this.stopped) return;
          this.failures = 0;
          if (type === 'ERROR') {
            relist = true;
            return;
          }
          if (obj?.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
          if (type === 'ADDED' || type === 'MODIFIED') this.handle(obj);
          else if (type === 'DELETED') this.sink.remove(obj.metadata?.uid ?? '');
        },
        (err: unknown) => this.ended(err, relist),
      );
      // stop() while the watch was being opened aborted nothing: a stopped kubelet must not go on
      // receiving (and running) pods.
      if (this.stopped) this.controller.abort();
    } catch (err) {
      this.ended(err, true);
    }
  }

  private ended(err: unknown, relist: boolean): void {
    if (this.stopped) return;
    const name = (err as { name?: string })?.name;
    const benign = !err || name === 'TimeoutError';
    if (!benign) {
      this.failures += 1;
      this.log(`${this.target.what} ended: ${errorText(err)}; re-listing`);
    }
    const delay = benign && !relist ? 0 : Math.min(200 * 2 ** Math.min(this.failures, 5), 5000);
    this.timer = setTimeout(() => {
      const next = benign && !relist ? Promise.resolve() : this.list();
      next.then(
        () => this.watch(),
        (e) => {
          this.failures += 1;
          this.ended(e, true);
        },
      );
    }, delay);
  }
}
