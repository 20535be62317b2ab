/**
 * List + watch of the pods bound to one node (`fieldSelector=spec.nodeName=<node>`), like the
 * kubelet's apiserver pod source: re-watches from the last resourceVersion when a watch ends
 * (client-node 2.x ends idle watches after 30 s), re-lists after 410 Gone or errors.
 */
import type { CoreV1Api, KubeConfig, V1Pod } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';
import { errorText } from './events.js';

/** Receives the node's pods. */
export interface PodSink {
  /** A pod was added or changed. */
  upsert(pod: V1Pod): void;
  /** A pod is gone from the API. */
  remove(uid: string): void;
  /** UIDs currently known (to detect deletions missed while re-listing). */
  known(): string[];
}

/** Watches the pods bound to `nodeName` until `stop()`. */
export class PodWatch {
  private controller?: AbortController;
  private stopped = false;
  private resourceVersion = '';
  private timer?: NodeJS.Timeout;
  private failures = 0;

  constructor(
    private readonly kc: KubeConfig,
    private readonly core: CoreV1Api,
    private readonly nodeName: string,
    private readonly sink: PodSink,
    private readonly log: (line: string) => void,
  ) {}

  /** Lists the node's pods and starts watching; resolves after the first list. */
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

  private get fieldSelector(): string {
    return `spec.nodeName=${this.nodeName}`;
  }

  private async list(): Promise<void> {
    const list = await this.core.listPodForAllNamespaces({ fieldSelector: this.fieldSelector });
    if (this.stopped) return;
    this.resourceVersion = list.metadata?.resourceVersion ?? '';
    const present = new Set<string>();
    for (const pod of list.items) {
      present.add(pod.metadata?.uid ?? '');
      this.sink.upsert(pod);
    }
    for (const uid of this.sink.known()) if (!present.has(uid)) this.sink.remove(uid);
  }

  private async watch(): Promise<void> {
    if (this.stopped) return;
    let relist = false;
    try {
      this.controller = await new Watch(this.kc).watch(
        '/api/v1/pods',
        { fieldSelector: this.fieldSelector, resourceVersion: this.resourceVersion, allowWatchBookmarks: true },
        (type: string, obj: V1Pod & { code?: number }) => {
          if (this.stopped) return;
          this.failures = 0;
          if (type === 'ERROR') {
            relist = true;
            return;
          }
          if (obj?.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
          if (type === 'ADDED' || type === 'MODIFIED') this.sink.upsert(obj);
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
      this.log(`pod watch for ${this.nodeName} ended: ${errorText(err)}; re-listing`);
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
