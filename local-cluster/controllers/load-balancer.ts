/**
 * A load-balancer controller for `type: LoadBalancer` Services, modelled on MetalLB's controller
 * (v0.13+): it assigns each one an address from its pools (address-pool.ts), writes it to
 * `status.loadBalancer.ingress` and records `IPAllocated` (`Assigned IP ["192.0.2.0"]`); when no
 * address fits it records a Warning `AllocationFailed` (`Failed to allocate IP for "ns/name": no
 * available IPs`) and leaves the Service pending until an address is freed. A Service that stops
 * being a LoadBalancer (or goes) frees its address and, if it stays, loses its status.
 *
 * A Service annotated `sim.rollout-trace.dev/load-balancer: quota-exceeded` is refused as a cloud
 * provider's service controller refuses one over its quota: `EnsuringLoadBalancer`, then a Warning
 * `SyncLoadBalancerFailed` (`Error syncing load balancer: failed to ensure load balancer: ...`),
 * retried 5 s doubling to 5 min (k8s.io/cloud-provider's service controller), never assigned.
 */
import { type CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions, type V1Service } from '@kubernetes/client-node';
import { EventRecorder, type EventRef } from '../kubelet/events.js';
import { type AddressPool, Allocator, DEFAULT_POOLS } from './address-pool.js';
import { Informer, keyOf, namespaceOfKey, WorkQueue } from './informer.js';
import type { NamespaceScope } from './scope.js';

/** The annotation that makes the simulated cloud refuse a Service's load balancer. */
export const LOAD_BALANCER_ANNOTATION = 'sim.rollout-trace.dev/load-balancer';
/** MetalLB's annotation naming the pool a Service's address comes from. */
export const ADDRESS_POOL_ANNOTATION = 'metallb.universe.tf/address-pool';
/** The cloud's error for a Service annotated `quota-exceeded` (GCE's wording). */
export const QUOTA_MESSAGE =
  "googleapi: Error 403: QUOTA_EXCEEDED - Quota 'IN_USE_ADDRESSES' exceeded.  Limit: 8.0 in region sim-region-1., quotaExceeded";

/** Options of the load-balancer controller. */
export interface LoadBalancerOptions {
  /** Address pools (default {@link DEFAULT_POOLS}: TEST-NET-1). */
  pools?: AddressPool[];
}

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Watches Services until `stop()`. */
export class LoadBalancerController {
  private readonly services: Informer<V1Service>;
  private readonly queue: WorkQueue;
  private readonly allocator: Allocator;
  private readonly metallb: EventRecorder;
  private readonly cloud: EventRecorder;
  private readonly failed = new Set<string>();
  private readonly quotaDelay = new Map<string, number>();

  constructor(
    kc: KubeConfig,
    private readonly core: CoreV1Api,
    private readonly scope: NamespaceScope,
    options: LoadBalancerOptions,
    log: (line: string) => void,
  ) {
    this.allocator = new Allocator(options.pools ?? DEFAULT_POOLS);
    this.metallb = new EventRecorder(core, '', log, 'metallb-controller');
    this.cloud = new EventRecorder(core, '', log, 'service-controller');
    this.queue = new WorkQueue('load-balancer', (key) => this.reconcile(key), log);
    this.services = new Informer<V1Service>(
      kc,
      { path: '/api/v1/services', what: 'service watch', list: () => core.listServiceForAllNamespaces() },
      (key, svc) => {
        if (svc) this.adopt(svc);
        this.queue.add(key);
      },
      log,
    );
  }

  /** Lists and watches the Services. */
  start(): Promise<void> {
    return this.services.start();
  }

  /** Stops the watch and the queue. */
  stop(): void {
    this.services.stop();
    this.queue.stop();
  }

  /** Looks again at the Services of `namespace` (it entered the controller's scope). */
  resync(namespace: string): void {
    const services = this.services.list().filter((s) => s.metadata?.namespace === namespace);
    for (const s of services) this.adopt(s);
    for (const s of services) this.queue.add(keyOf(s));
  }

  /**
   * Re-learns the address a Service of its scope shows (MetalLB does so before assigning any):
   * called as each Service is listed, before the queue runs, so that a restart hands out no
   * address twice.
   */
  private adopt(svc: V1Service): void {
    const key = keyOf(svc);
    const ip = svc.status?.loadBalancer?.ingress?.[0]?.ip;
    if (svc.spec?.type !== 'LoadBalancer' || !ip || this.allocator.assigned(key) || !this.scope.has(namespaceOfKey(key))) return;
    this.allocator.adopt(key, ip);
  }

  private async reconcile(key: string): Promise<void> {
    const svc = this.services.get(key);
    if (!svc || !this.scope.has(namespaceOfKey(key)) || svc.spec?.type !== 'LoadBalancer') {
      this.failed.delete(key);
      this.quotaDelay.delete(key);
      if (this.allocator.release(key)) {
        if (svc && svc.spec?.type !== 'LoadBalancer' && svc.status?.loadBalancer?.ingress?.length) await this.writeStatus(svc, []);
        for (const k of this.failed) this.queue.add(k);
      }
      return;
    }
    const ref: EventRef = {
      kind: 'Service',
      apiVersion: 'v1',
      namespace: svc.metadata?.namespace,
      name: svc.metadata!.name!,
      uid: svc.metadata?.uid,
    };
    if (svc.metadata?.annotations?.[LOAD_BALANCER_ANNOTATION] === 'quota-exceeded') return this.refuse(key, ref);
    const result = this.allocator.allocate(key, {
      pool: svc.metadata?.annotations?.[ADDRESS_POOL_ANNOTATION],
      ip: svc.spec?.loadBalancerIP || undefined,
    });
    if ('error' in result) {
      this.failed.add(key);
      this.metallb.event(ref, 'Warning', 'AllocationFailed', `Failed to allocate IP for "${key}": ${result.error}`);
      return;
    }
    this.failed.delete(key);
    const ingress = svc.status?.loadBalancer?.ingress ?? [];
    if (ingress.length === 1 && ingress[0]?.ip === result.ip) return;
    await this.writeStatus(svc, [{ ip: result.ip }]);
    this.metallb.event(ref, 'Normal', 'IPAllocated', `Assigned IP ["${result.ip}"]`);
  }

  private refuse(key: string, ref: EventRef): void {
    this.allocator.release(key);
    const delay = this.quotaDelay.get(key) ?? 5000;
    this.quotaDelay.set(key, Math.min(delay * 2, 300_000));
    this.cloud.event(ref, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
    this.cloud.event(
      ref,
      'Warning',
      'SyncLoadBalancerFailed',
      `Error syncing load balancer: failed to ensure load balancer: ${QUOTA_MESSAGE}`,
    );
    this.queue.add(key, delay);
  }

  private async writeStatus(svc: V1Service, ingress: { ip: string }[]): Promise<void> {
    const written = await this.core.patchNamespacedServiceStatus(
      { name: svc.metadata!.name!, namespace: svc.metadata!.namespace!, body: { status: { loadBalancer: { ingress } } } },
      merge,
    );
    this.services.put(written);
  }
}
