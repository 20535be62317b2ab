/**
 * The simulated load-balancer controller (local-cluster/controllers/load-balancer.ts, MetalLB-like)
 * against the real apiserver: an address from the pool in `status.loadBalancer.ingress` with
 * MetalLB's `IPAllocated`; an exhausted pool's `AllocationFailed`, served once a Service stops
 * being a LoadBalancer and frees its address; the cloud's quota refusal; a restart that re-learns
 * the addresses it gave and serves what was created while it was stopped.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PatchStrategy, setHeaderOptions, type V1Service } from '@kubernetes/client-node';
import { LOAD_BALANCER_ANNOTATION, QUOTA_MESSAGE } from '../../../local-cluster/controllers/index.js';
import { clients, eventsAbout, privateControllers, waitEvent, waitUntil } from './support.js';

const lb = (name: string, annotations: Record<string, string> = {}): V1Service => ({
  metadata: { name, annotations },
  spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80, targetPort: 8080 as never }] },
});

async function addressOf(ns: string, name: string, timeoutMs = 30_000): Promise<string> {
  const { core } = clients();
  return waitUntil(async () => (await core.readNamespacedService({ name, namespace: ns })).status?.loadBalancer?.ingress?.[0]?.ip, {
    what: `an address for Service ${ns}/${name}`,
    timeoutMs,
  });
}

describe('the simulated load-balancer controller', { concurrency: true }, () => {
  it('assigns the first free address of its pool and records IPAllocated', async (t) => {
    const { ns } = await privateControllers(t, 'lb-assign', {
      ingress: false,
      certificates: false,
      loadBalancer: { pools: [{ name: 'default', addresses: ['198.51.100.10-198.51.100.11'] }] },
    });
    await clients().core.createNamespacedService({ namespace: ns, body: lb('web') });
    assert.equal(await addressOf(ns, 'web'), '198.51.100.10');
    const event = await waitEvent(ns, 'Service', 'web', 'IPAllocated');
    assert.equal(event.message, 'Assigned IP ["198.51.100.10"]');
    assert.equal(event.type, 'Normal');
    assert.equal(event.source?.component, 'metallb-controller');
  });

  it('an exhausted pool: AllocationFailed, then the address a Service freed by becoming ClusterIP', async (t) => {
    const { ns } = await privateControllers(t, 'lb-exhausted', {
      ingress: false,
      certificates: false,
      loadBalancer: { pools: [{ name: 'one', addresses: ['198.51.100.20/32'] }] },
    });
    const { core } = clients();
    await core.createNamespacedService({ namespace: ns, body: lb('first') });
    assert.equal(await addressOf(ns, 'first'), '198.51.100.20');
    await core.createNamespacedService({ namespace: ns, body: lb('second') });
    const failed = await waitEvent(ns, 'Service', 'second', 'AllocationFailed');
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.message, `Failed to allocate IP for "${ns}/second": no available IPs`);
    assert.deepEqual((await core.readNamespacedService({ name: 'second', namespace: ns })).status?.loadBalancer?.ingress ?? [], []);

    await core.patchNamespacedService(
      { name: 'first', namespace: ns, body: { spec: { type: 'ClusterIP', ports: [{ port: 80, targetPort: 8080 }] } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.equal(await addressOf(ns, 'second'), '198.51.100.20');
    const first = await core.readNamespacedService({ name: 'first', namespace: ns });
    assert.deepEqual(first.status?.loadBalancer?.ingress ?? [], [], 'a Service that is no LoadBalancer keeps no address');
  });

  it('a quota refusal: EnsuringLoadBalancer, then SyncLoadBalancerFailed, and no address', async (t) => {
    const { ns } = await privateControllers(t, 'lb-quota', { ingress: false, certificates: false });
    await clients().core.createNamespacedService({ namespace: ns, body: lb('web', { [LOAD_BALANCER_ANNOTATION]: 'quota-exceeded' }) });
    const refused = await waitEvent(ns, 'Service', 'web', 'SyncLoadBalancerFailed');
    assert.equal(refused.type, 'Warning');
    assert.equal(refused.source?.component, 'service-controller');
    assert.equal(refused.message, `Error syncing load balancer: failed to ensure load balancer: ${QUOTA_MESSAGE}`);
    const reasons = (await eventsAbout(ns, 'Service', 'web')).map((e) => e.reason);
    assert.ok(reasons.includes('EnsuringLoadBalancer'), `reasons: ${reasons.join(', ')}`);
    assert.ok(!reasons.includes('IPAllocated'), `reasons: ${reasons.join(', ')}`);
    const svc = await clients().core.readNamespacedService({ name: 'web', namespace: ns });
    assert.deepEqual(svc.status?.loadBalancer?.ingress ?? [], []);
  });

  it('restarted, it keeps the addresses it gave and serves the Services created while it was stopped', async (t) => {
    const pools = [{ name: 'default', addresses: ['198.51.100.30-198.51.100.31'] }];
    const own = await privateControllers(t, 'lb-restart', { ingress: false, certificates: false, loadBalancer: { pools } });
    const { core } = clients();
    await core.createNamespacedService({ namespace: own.ns, body: lb('web') });
    assert.equal(await addressOf(own.ns, 'web'), '198.51.100.30');
    await own.stop();
    await core.createNamespacedService({ namespace: own.ns, body: lb('api') });
    // Listed in name order, api comes first: without what it learnt from web's status, it would take web's address.
    await own.start();
    assert.equal(await addressOf(own.ns, 'api'), '198.51.100.31', 'the address of web is not handed out again');
    assert.equal(await addressOf(own.ns, 'web'), '198.51.100.30');
  });
});
