/** An independent raw watch of Deployments and Pods: when each rollout completed, when failures showed. */
import { type KubeConfig, type V1Deployment, type V1Pod, Watch } from '@kubernetes/client-node';

/** kubectl's completion predicate (all replicas updated and available, generation observed). */
export function isComplete(d: V1Deployment): boolean {
  const want = d.spec?.replicas ?? 1;
  const s = d.status;
  return (
    (s?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    (s?.updatedReplicas ?? 0) === want &&
    (s?.replicas ?? 0) === want &&
    (s?.availableReplicas ?? 0) === want
  );
}

/** The failure a pod shows, if any (waiting reason or a non-zero exit). */
function podSignal(p: V1Pod): string | undefined {
  for (const c of p.status?.containerStatuses ?? []) {
    const w = c.state?.waiting?.reason;
    if (w && w !== 'ContainerCreating') return w;
    if ((c.state?.terminated?.exitCode ?? 0) !== 0 || (c.lastState?.terminated?.exitCode ?? 0) !== 0) return 'Terminated';
  }
  return undefined;
}

/** Watches a namespace from now on; `complete` / `signal` map names to performance.now(). */
export class RawWatch {
  readonly complete = new Map<string, number>();
  /** Deployment name prefix of a pod -> first failure signal time. */
  readonly signal = new Map<string, number>();
  private readonly controllers: AbortController[] = [];
  private stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly ns: string,
    /** Deployments whose completion counts only after this generation (a rollout we started). */
    private readonly minGeneration = new Map<string, number>(),
  ) {}

  async start(): Promise<void> {
    const w = new Watch(this.kc);
    (w as unknown as { requestTimeoutMs: number }).requestTimeoutMs = 3_600_000; // no 30 s client abort
    const onDeployment = (_t: string, d: V1Deployment) => {
      const name = d.metadata?.name ?? '';
      if ((d.metadata?.generation ?? 0) < (this.minGeneration.get(name) ?? 0)) return;
      if (!this.complete.has(name) && isComplete(d)) this.complete.set(name, performance.now());
    };
    const onPod = (_t: string, p: V1Pod) => {
      const owner = p.metadata?.ownerReferences?.[0]?.name?.replace(/-[^-]+$/, '') ?? '';
      if (!this.signal.has(owner) && podSignal(p)) this.signal.set(owner, performance.now());
    };
    for (const [path, cb] of [
      [`/apis/apps/v1/namespaces/${this.ns}/deployments`, onDeployment],
      [`/api/v1/namespaces/${this.ns}/pods`, onPod],
    ] as const) {
      await this.follow(w, path, cb as (type: string, o: V1Deployment & V1Pod) => void);
    }
  }

  /**
   * Watches `path` until stopped: a watch the apiserver or the network ended is opened again from
   * the last resourceVersion seen (the many200 rollout outlives a single watch).
   */
  private async follow(w: Watch, path: string, cb: (type: string, o: V1Deployment & V1Pod) => void): Promise<void> {
    let resourceVersion: string | undefined;
    const open = async (): Promise<void> => {
      if (this.stopped) return;
      const seen = (type: string, o: V1Deployment & V1Pod) => {
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
