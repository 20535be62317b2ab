/**
 * The simulated kubelet: Nodes that look, through the API, like real Kubernetes 1.20 kubelets
 * (Node status and Lease heartbeats, pod status, events, container logs), for the embedded
 * control plane. Conventions: local-cluster/simulated-kubelet.md.
 */
import { CoordinationV1Api, CoreV1Api, KubeConfig, StorageV1Api, type V1Taint } from '@kubernetes/client-node';
import { type EvictOptions, KubeletNode, type KubeletTiming } from './kubelet-node.js';

export { BEHAVIOUR_ANNOTATION_PREFIX } from './behaviour.js';

import { SimProvisioner } from './provisioner.js';

export type { EvictOptions } from './kubelet-node.js';
export { BROKEN_MESSAGE, BROKEN_PROVISIONER, SIM_PROVISIONER } from './provisioner.js';

/** Options of {@link startKubelet}. */
export interface KubeletOptions {
  /** Kubeconfig (loaded, or a file path) with rights to write Nodes, Leases, pods/status and Events. */
  kubeconfig: KubeConfig | string;
  /** Number of Nodes (default 2). */
  nodes?: number;
  /** Node name prefix; Nodes are `<prefix>-1`, `<prefix>-2`, ... (default `sim-node`). */
  namePrefix?: string;
  /** CPU capacity per Node (default "4"). */
  cpu?: string;
  /** Memory capacity per Node (default "8Gi"). */
  memory?: string;
  /** Pod capacity per Node (default 110). */
  maxPods?: number;
  /**
   * Initial container-restart and image-pull back-off in seconds (the kubelet's is 10; doubles up
   * to 30 times this, i.e. 300 s). Default: env `ROLLOUT_TRACE_SIM_BACKOFF_SECONDS`, else 10.
   */
  backoffSeconds?: number;
  /**
   * Seconds between re-syncs of a pod whose last sync failed (missing ConfigMap, back-off...).
   * Default: env `ROLLOUT_TRACE_SIM_SYNC_SECONDS`, else 3.
   */
  syncRetrySeconds?: number;
  /** Taints every Node registers with (like the kubelet's `--register-with-taints`). */
  taints?: V1Taint[];
  /** Upper bound on the termination grace period actually waited (default 2 s). */
  maxGraceSeconds?: number;
  /** Where diagnostic lines go (default: nowhere). */
  log?: (line: string) => void;
  /**
   * Also run the cluster's simulated volume provisioner (StorageClasses `sim-local`, which binds,
   * and `sim-broken`, which never does: provisioner.ts). One per cluster: the control plane's
   * kubelet runs it; a test's private kubelet does not. Default false.
   */
  provisioner?: boolean;
}

/** A running simulated kubelet. */
export interface Kubelet {
  /** Names of the registered, Ready Nodes. */
  nodes: string[];
  /**
   * Evicts the pod `namespace/name` for node pressure, as its node's eviction manager would (see
   * {@link EvictOptions}). Rejects when no node of this kubelet runs that pod.
   */
  evict(namespace: string, name: string, opts?: EvictOptions): Promise<void>;
  /** Closes every watch, timer and HTTPS server. Nodes stay registered (and go NotReady later). */
  stop(): Promise<void>;
}

/**
 * Nodes one simulated kubelet process runs at most: each has its own pod watch, HTTPS log server,
 * status and Lease heartbeats (every 10 s), and a `/24` of `10.244.0.0/16` for its pods.
 */
const MAX_NODES = 250;

function envNumber(name: string): number | undefined {
  const v = process.env[name];
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * Starts the simulated kubelet and resolves once every Node is registered, Ready and free of the
 * `node.kubernetes.io/not-ready` taint (so the scheduler can place pods at once).
 */
export async function startKubelet(opts: KubeletOptions): Promise<Kubelet> {
  const kc = typeof opts.kubeconfig === 'string' ? loadFile(opts.kubeconfig) : opts.kubeconfig;
  const count = opts.nodes ?? 2;
  if (!Number.isInteger(count) || count < 1 || count > MAX_NODES) {
    throw new Error(`invalid nodes ${opts.nodes}: expected a whole number from 1 to ${MAX_NODES}`);
  }
  const log = opts.log ?? (() => undefined);
  const core = kc.makeApiClient(CoreV1Api);
  const coordination = kc.makeApiClient(CoordinationV1Api);
  const backoff = (opts.backoffSeconds ?? envNumber('ROLLOUT_TRACE_SIM_BACKOFF_SECONDS') ?? 10) * 1000;
  const timing: KubeletTiming = {
    backoffBaseMs: backoff,
    backoffMaxMs: backoff * 30,
    syncRetryMs: (opts.syncRetrySeconds ?? envNumber('ROLLOUT_TRACE_SIM_SYNC_SECONDS') ?? 3) * 1000,
    maxGraceMs: (opts.maxGraceSeconds ?? 2) * 1000,
    mountTimeoutMs: 123_000,
  };
  const prefix = opts.namePrefix ?? 'sim-node';
  const kubelets = Array.from(
    { length: count },
    (_, i) =>
      new KubeletNode({
        kc,
        core,
        coordination,
        name: `${prefix}-${i + 1}`,
        index: i,
        cpu: opts.cpu ?? '4',
        memory: opts.memory ?? '8Gi',
        maxPods: opts.maxPods ?? 110,
        taints: opts.taints,
        timing,
        log,
      }),
  );
  const provisioner = opts.provisioner ? new SimProvisioner(kc, core, kc.makeApiClient(StorageV1Api), log) : undefined;
  const stop = async () => {
    provisioner?.stop();
    await Promise.all(kubelets.map((k) => k.stop()));
  };
  try {
    await Promise.all(kubelets.map((k) => k.start()));
    await provisioner?.start();
    await waitSchedulable(
      core,
      kubelets.map((k) => k.name),
      log,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const evict = async (namespace: string, name: string, evictOpts?: EvictOptions) => {
    for (const k of kubelets) if (await k.evict(namespace, name, evictOpts)) return;
    throw new Error(`pod ${namespace}/${name} is not running on ${kubelets.map((k) => k.name).join(', ')}`);
  };
  return { nodes: kubelets.map((k) => k.name), evict, stop };
}

function loadFile(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

/** Waits (up to 30 s) until the node lifecycle controller has removed the not-ready taint. */
async function waitSchedulable(core: CoreV1Api, names: string[], log: (line: string) => void): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < 30_000) {
    const nodes = await Promise.all(names.map((name) => core.readNode({ name })));
    const blocked = nodes.filter(
      (n) =>
        n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True' ||
        (n.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/not-ready' || t.key === 'node.kubernetes.io/unreachable'),
    );
    if (blocked.length === 0) {
      log(`nodes schedulable after ${Date.now() - started} ms`);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log('nodes still carry a not-ready taint after 30 s (is the controller-manager running?); continuing');
}
