/**
 * An Ingress controller modelled on ingress-nginx (1.x) as far as the API shows it: it serves the
 * IngressClasses whose `spec.controller` is its controller name (`k8s.io/ingress-nginx`; it
 * creates the class `nginx` at start), records `Sync` (`Scheduled for sync`) for each new
 * generation of an Ingress of such a class (by `spec.ingressClassName`, or the older
 * `kubernetes.io/ingress.class` annotation), and writes its published address
 * (`--publish-status-address`) to the Ingress's `status.loadBalancer.ingress`. Ingresses of a
 * class no controller serves, or of no class, are left alone: no Event, no address. An Ingress
 * that moves to another class loses the address it wrote.
 */
import {
  type CoreV1Api,
  type KubeConfig,
  type NetworkingV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1Ingress,
  type V1IngressClass,
} from '@kubernetes/client-node';
import { EventRecorder } from '../kubelet/events.js';
import { Informer, keyOf, namespaceOfKey, WorkQueue } from './informer.js';
import type { NamespaceScope } from './scope.js';

/** Options of the Ingress controller. */
export interface IngressOptions {
  /** The IngressClass it creates (default `nginx`). */
  className?: string;
  /** Its controller name, the class's `spec.controller` (default `k8s.io/ingress-nginx`). */
  controller?: string;
  /** The address it writes to the Ingresses it serves (default 203.0.113.1, TEST-NET-3). */
  address?: string;
}

/** The defaults of {@link IngressOptions}. */
export const INGRESS_DEFAULTS = { className: 'nginx', controller: 'k8s.io/ingress-nginx', address: '203.0.113.1' } as const;

const LEGACY_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Watches IngressClasses and Ingresses until `stop()`. */
export class IngressController {
  private readonly options: Required<IngressOptions>;
  private readonly classes: Informer<V1IngressClass>;
  private readonly ingresses: Informer<V1Ingress>;
  private readonly queue: WorkQueue;
  private readonly recorder: EventRecorder;
  private readonly synced = new Map<string, number>();

  constructor(
    kc: KubeConfig,
    core: CoreV1Api,
    private readonly networking: NetworkingV1Api,
    private readonly scope: NamespaceScope,
    options: IngressOptions,
    log: (line: string) => void,
  ) {
    this.options = { ...INGRESS_DEFAULTS, ...options };
    this.recorder = new EventRecorder(core, '', log, 'nginx-ingress-controller');
    this.queue = new WorkQueue('ingress-nginx', (key) => this.reconcile(key), log);
    this.classes = new Informer<V1IngressClass>(
      kc,
      { path: '/apis/networking.k8s.io/v1/ingressclasses', what: 'ingress class watch', list: () => networking.listIngressClass() },
      () => this.resyncAll(),
      log,
    );
    this.ingresses = new Informer<V1Ingress>(
      kc,
      {
        path: '/apis/networking.k8s.io/v1/ingresses',
        what: 'ingress watch',
        list: () => networking.listIngressForAllNamespaces(),
      },
      (key) => this.queue.add(key),
      log,
    );
  }

  /** Creates its IngressClass (kept when it exists), then lists and watches. */
  async start(): Promise<void> {
    const { className, controller } = this.options;
    await this.networking.createIngressClass({ body: { metadata: { name: className }, spec: { controller } } }).catch((err) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
    await this.classes.start();
    await this.ingresses.start();
  }

  /** Stops the watches and the queue. */
  stop(): void {
    this.classes.stop();
    this.ingresses.stop();
    this.queue.stop();
  }

  /** Looks again at the Ingresses of `namespace` (it entered the controller's scope). */
  resync(namespace: string): void {
    for (const i of this.ingresses.list()) if (i.metadata?.namespace === namespace) this.queue.add(keyOf(i));
  }

  private resyncAll(): void {
    for (const i of this.ingresses.list()) this.queue.add(keyOf(i));
  }

  private serves(ing: V1Ingress): boolean {
    const name = ing.spec?.ingressClassName ?? ing.metadata?.annotations?.[LEGACY_CLASS_ANNOTATION];
    return !!name && this.classes.get(name)?.spec?.controller === this.options.controller;
  }

  private async reconcile(key: string): Promise<void> {
    const ing = this.ingresses.get(key);
    if (!ing) {
      this.synced.delete(key);
      return;
    }
    const address = this.options.address;
    const current = ing.status?.loadBalancer?.ingress ?? [];
    if (!this.scope.has(namespaceOfKey(key)) || !this.serves(ing)) {
      if (this.synced.delete(key) && current.some((i) => i.ip === address)) await this.writeStatus(ing, []);
      return;
    }
    const generation = ing.metadata?.generation ?? 0;
    if (this.synced.get(key) !== generation) {
      this.synced.set(key, generation);
      const m = ing.metadata!;
      const ref = { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', namespace: m.namespace, name: m.name!, uid: m.uid };
      this.recorder.event(ref, 'Normal', 'Sync', 'Scheduled for sync');
    }
    if (current.length === 1 && current[0]?.ip === address) return;
    await this.writeStatus(ing, [{ ip: address }]);
  }

  private async writeStatus(ing: V1Ingress, ingress: { ip: string }[]): Promise<void> {
    const written = await this.networking.patchNamespacedIngressStatus(
      { name: ing.metadata!.name!, namespace: ing.metadata!.namespace!, body: { status: { loadBalancer: { ingress } } } },
      merge,
    );
    this.ingresses.put(written);
  }
}
