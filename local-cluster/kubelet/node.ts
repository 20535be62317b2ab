/**
 * Registers one Node the way a 1.20 kubelet does (labels, annotations, capacity, allocatable,
 * nodeInfo, the four conditions, InternalIP 127.0.0.1, the kubelet endpoint port), re-adopts an
 * existing Node of the same name, and keeps it alive: conditions' heartbeats and the Lease in
 * `kube-node-lease` are renewed every 10 s.
 */
import { createHash } from 'node:crypto';
import type { CoordinationV1Api, CoreV1Api, V1Lease, V1Node, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions, V1MicroTime } from '@kubernetes/client-node';
import type { EventRecorder } from './events.js';
import { errorText } from './events.js';
import { parseQuantity, toCpu, toKi } from './quantity.js';

/** Kubelet version the simulated nodes report. */
export const KUBELET_VERSION = 'v1.20.2';
/** Container runtime the simulated nodes report (dockershim, the 1.20 default). */
export const CONTAINER_RUNTIME = 'docker://19.3.13';

const HEARTBEAT_MS = 10_000;
const LEASE_DURATION_SECONDS = 40;
/** The kubelet's default hard eviction threshold `memory.available<100Mi`. */
const EVICTION_MEMORY_BYTES = 100 * 2 ** 20;
const EPHEMERAL_STORAGE_BYTES = 100 * 2 ** 30;

/** Settings for one simulated Node. */
export interface NodeSpec {
  name: string;
  cpu: string;
  memory: string;
  maxPods: number;
  kubeletPort: number;
  /** Taints the Node registers with (the kubelet's `--register-with-taints`). */
  taints?: V1Taint[];
}

/** A registered Node whose heartbeats run until `stop()`. */
export class SimNode {
  /** The Node's podCIDR (`spec.podCIDR`, or a fallback of our own). */
  podCidr = '';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private conditions: V1NodeCondition[] = [];
  private nodeUid = '';

  constructor(
    readonly spec: NodeSpec,
    private readonly index: number,
    private readonly core: CoreV1Api,
    private readonly coordination: CoordinationV1Api,
    private readonly recorder: EventRecorder,
    private readonly log: (line: string) => void,
  ) {}

  /** Registers (or re-adopts) the Node, posts Ready status and the Lease. */
  async register(): Promise<void> {
    const name = this.spec.name;
    const nodeRef = { kind: 'Node', name, uid: name, namespace: '' };
    this.recorder.event(nodeRef, 'Normal', 'Starting', 'Starting kubelet.');
    let node: V1Node;
    try {
      node = await this.core.createNode({ body: this.initialNode() });
      this.log(`registered node ${name}`);
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
      // Re-adopt: a real kubelet reconciles labels/annotations of an existing Node of its name.
      node = await this.core.patchNode(
        { name, body: { metadata: { labels: this.labels(), annotations: this.annotations() } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      this.log(`re-adopted existing node ${name}`);
    }
    this.nodeUid = node.metadata?.uid ?? '';
    this.podCidr = node.spec?.podCIDR ?? `10.244.${this.index}.0/24`;
    const now = new Date().toISOString();
    const previous = new Map((node.status?.conditions ?? []).map((c) => [c.type, c]));
    this.conditions = this.desiredConditions().map((c) => ({
      ...c,
      lastHeartbeatTime: now as unknown as Date,
      lastTransitionTime: (previous.get(c.type)?.status === c.status ? previous.get(c.type)!.lastTransitionTime : now) as unknown as Date,
    }));
    await this.patchStatus(true);
    for (const reason of ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']) {
      this.recorder.event(nodeRef, 'Normal', reason, `Node ${name} status is now: ${reason}`);
    }
    this.recorder.event(nodeRef, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    if (previous.get('Ready')?.status !== 'True') {
      this.recorder.event(nodeRef, 'Normal', 'NodeReady', `Node ${name} status is now: NodeReady`);
    }
    await this.renewLease();
    this.schedule();
  }

  /** What pod admission compares requests with: allocatable millicores, bytes of memory, pods. */
  allocatable(): { cpu: number; memory: number; pods: number } {
    const memory = parseQuantity(this.spec.memory);
    return {
      cpu: Math.round(parseQuantity(this.spec.cpu) * 1000),
      memory: Math.max(0, memory - EVICTION_MEMORY_BYTES),
      pods: this.spec.maxPods,
    };
  }

  /** The Node's labels (what a pod's nodeSelector is matched against). */
  nodeLabels(): Record<string, string> {
    return this.labels();
  }

  /** The pressure conditions now True, in the eviction manager's order (`MemoryPressure` first). */
  pressures(): string[] {
    return this.conditions.filter((c) => c.type !== 'Ready' && c.status === 'True').map((c) => c.type);
  }

  /**
   * Reports memory or disk pressure on or off, as the eviction manager does: the condition (the
   * node lifecycle controller then taints the Node `node.kubernetes.io/memory-pressure:NoSchedule`)
   * and its Event (`NodeHasInsufficientMemory`, then `NodeHasSufficientMemory`).
   */
  async setPressure(type: 'MemoryPressure' | 'DiskPressure', on: boolean): Promise<void> {
    const words =
      type === 'MemoryPressure'
        ? on
          ? ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', 'NodeHasInsufficientMemory']
          : ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available', 'NodeHasSufficientMemory']
        : on
          ? ['KubeletHasDiskPressure', 'kubelet has disk pressure', 'NodeHasDiskPressure']
          : ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure', 'NodeHasNoDiskPressure'];
    const [reason, message, event] = words as [string, string, string];
    const status = on ? 'True' : 'False';
    const now = new Date().toISOString() as unknown as Date;
    this.conditions = this.conditions.map((c) =>
      c.type === type
        ? { ...c, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: c.status === status ? c.lastTransitionTime : now }
        : c,
    );
    this.recorder.event(
      { kind: 'Node', name: this.spec.name, uid: this.spec.name, namespace: '' },
      'Normal',
      event,
      `Node ${this.spec.name} status is now: ${event}`,
    );
    await this.patchStatus(false);
  }

  /** Stops the heartbeats (the Node object stays, like a stopped kubelet's). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.heartbeat().finally(() => this.schedule());
    }, HEARTBEAT_MS);
  }

  private async heartbeat(): Promise<void> {
    try {
      const now = new Date().toISOString();
      this.conditions = this.conditions.map((c) => ({ ...c, lastHeartbeatTime: now as unknown as Date }));
      await this.patchStatus(false);
    } catch (err) {
      this.log(`node ${this.spec.name} status update failed: ${errorText(err)}`);
    }
    try {
      await this.renewLease();
    } catch (err) {
      this.log(`node ${this.spec.name} lease renewal failed: ${errorText(err)}`);
    }
  }

  private async patchStatus(full: boolean): Promise<void> {
    const status: Record<string, unknown> = { conditions: this.conditions };
    if (full) Object.assign(status, this.staticStatus());
    try {
      await this.core.patchNodeStatus(
        { name: this.spec.name, body: { status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    } catch (err) {
      if ((err as { code?: number }).code !== 404) throw err;
      // The Node was deleted under us: a real kubelet re-registers.
      this.log(`node ${this.spec.name} disappeared; registering it again`);
      const node = await this.core.createNode({ body: this.initialNode() });
      this.nodeUid = node.metadata?.uid ?? '';
      await this.core.patchNodeStatus(
        { name: this.spec.name, body: { status: { ...this.staticStatus(), conditions: this.conditions } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    }
  }

  private async renewLease(): Promise<void> {
    const name = this.spec.name;
    const spec = {
      holderIdentity: name,
      leaseDurationSeconds: LEASE_DURATION_SECONDS,
      renewTime: new V1MicroTime(),
    };
    try {
      await this.coordination.patchNamespacedLease(
        { name, namespace: 'kube-node-lease', body: { spec: { ...spec, renewTime: spec.renewTime.toISOString() } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    } catch (err) {
      if ((err as { code?: number }).code !== 404) throw err;
      const lease: V1Lease = {
        metadata: {
          name,
          namespace: 'kube-node-lease',
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: this.nodeUid }],
        },
        spec,
      };
      await this.coordination.createNamespacedLease({ namespace: 'kube-node-lease', body: lease });
    }
  }

  private labels(): Record<string, string> {
    return {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': this.spec.name,
      'kubernetes.io/os': 'linux',
    };
  }

  private annotations(): Record<string, string> {
    return {
      'node.alpha.kubernetes.io/ttl': '0',
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    };
  }

  private initialNode(): V1Node {
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: this.spec.name, labels: this.labels(), annotations: this.annotations() },
      spec: this.spec.taints?.length ? { taints: this.spec.taints } : {},
      // Node creation keeps status: capacity is there before the scheduler first sees the Node.
      status: {
        ...(this.staticStatus() as V1Node['status']),
        conditions: this.desiredConditions().map((c) => ({ ...c, lastHeartbeatTime: new Date(), lastTransitionTime: new Date() })),
      },
    };
  }

  private desiredConditions(): V1NodeCondition[] {
    return [
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
      { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
      { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
      { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    ];
  }

  private staticStatus(): Record<string, unknown> {
    const memory = parseQuantity(this.spec.memory);
    const cpu = parseQuantity(this.spec.cpu);
    const hash = createHash('sha256').update(`sim-node:${this.spec.name}`).digest('hex');
    const uuid = `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}`;
    const bootHash = createHash('sha256').update(`boot:${this.spec.name}`).digest('hex');
    return {
      capacity: {
        cpu: toCpu(cpu),
        'ephemeral-storage': toKi(EPHEMERAL_STORAGE_BYTES),
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: toKi(memory),
        pods: String(this.spec.maxPods),
      },
      allocatable: {
        cpu: toCpu(cpu),
        'ephemeral-storage': String(Math.floor(EPHEMERAL_STORAGE_BYTES * 0.9)),
        'hugepages-1Gi': '0',
        'hugepages-2Mi': '0',
        memory: toKi(Math.max(0, memory - EVICTION_MEMORY_BYTES)),
        pods: String(this.spec.maxPods),
      },
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: this.spec.kubeletPort } },
      nodeInfo: {
        machineID: hash.slice(32, 64),
        systemUUID: uuid,
        bootID: `${bootHash.slice(0, 8)}-${bootHash.slice(8, 12)}-${bootHash.slice(12, 16)}-${bootHash.slice(16, 20)}-${bootHash.slice(20, 32)}`,
        kernelVersion: '5.4.0-65-generic',
        osImage: 'Ubuntu 20.04.1 LTS',
        containerRuntimeVersion: CONTAINER_RUNTIME,
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    };
  }
}
