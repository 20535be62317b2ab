/** An independent raw watch of one kind of workload and Pods: when each rollout completed, when failures showed. */
import { type KubeConfig, type V1Pod, Watch } from '@kubernetes/client-node';
import { type BenchKind, KINDS, type Workload } from './kinds.js';

/** The failure a pod shows, if any (waiting reason or a non-zero exit). */
function podSignal(p: V1Pod): string | undefined {
  for (const c of p.status?.containerStatuses ?? []) {
    const w = c.state?.waiting?.reason;
    if (w && w !== 'ContainerCreating') return w;
    if ((c.state?.terminated?.exitCode ?? 0) !== 0 || (c.lastState?.terminated?.exitCode ?? 0) !== 0) return 'Terminated';
  }
  return undefined;
}

/** Watches a namespace from now on; `complete` / `signal` / `failed` map names to performance.now(). */
export class RawWatch {
  /** Workload name -> when kubectl's completion test first held. */
  readonly complete = new Map<string, number>();
  /** Workload name (a pod's owner) -> first failure signal time. */
  readonly signal = new Map<string, number>();
  /** Job name -> when its `Failed` condition first showed. */
  readonly failed = new Map<string, number>();
  private readonly controllers: AbortController[] = [];
  private stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly ns: string,
    /** Deployments whose completion counts only after this generation (a rollout we started). */
    private readonly minGeneration = new Map<string, number>(),
    private readonly kind: BenchKind = 'Deployment',
  ) {}

  async start(): Promise<void> {
    const w = new Watch(this.kc);
    (w as unknown as { requestTimeoutMs: number }).requestTimeoutMs = 3_600_000; // no 30 s client abort
    const spec = KINDS[this.kind];
    const onWorkload = (_t: string, d: Workload) => {
      const name = d.metadata?.name ?? '';
      if ((d.metadata?.generation ?? 0) < (this.minGeneration.get(name) ?? 0)) return;
      if (!this.complete.has(name) && spec.complete(d)) this.complete.set(name, performance.now());
      if (!this.failed.has(name) && spec.failed?.(d)) this.failed.set(name, performance.now());
    };
    const onPod = (_t: string, p: V1Pod) => {
      const owner = spec.ownerOf(p);
      if (!this.signal.has(owner) && podSignal(p)) this.signal.set(owner, performance.now());
    };
    for (const [path, cb] of [
      [spec.path(this.ns), onWorkload],
      [`/api/v1/namespaces/${this.ns}/pods`, onPod],
    ] as const) {
      await this.follow(w, path, cb as (type: string, o: Workload & V1Pod) => void);
    }
  }

  /**
   * Watches `path` until stopped: a watch the apiserver or the network ended is opened again from
   * the last resourceVersion seen (the many200 rollout outlives a single watch).
   */
  private async follow(w: Watch, path: string, cb: (type: string, o: Workload & V1Pod) => void): Promise<void> {
    let resourceVersion: string | undefined;
    const open = async (): Promise<void> => {
      if (this.stopped) return;
      const seen = (type: string, o: Workload & V1Pod) => {
        // An ERROR (410 Gone) restarts from now: the objects come again as ADDED.
        resourceVersion = type === 'ERROR' ? undefined : (o.metadata?.resourceVersion ?? resourceVersion);
        if (type !== 'BOOKMARK' && type !== 'ERROR') cb(type, o);
      };
      const ended = () => {
        if (!this.stopped) setTimeout(() => void open().catch(ended), 200);
      };
      const query = { timeoutSeconds: 3600, allowWatchBookmarks: true, ...(resourceVersion ? { resourceVersion } : {}) };
      this.controllers.push(await w.watch(path, query, seen as never, ended));
    };
    await open();
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.controllers) c.abort();
  }
}
