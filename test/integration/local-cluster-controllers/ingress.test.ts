/**
 * The simulated Ingress controller (local-cluster/controllers/ingress-nginx.ts, ingress-nginx-like)
 * against the real apiserver: an Ingress of the IngressClass it serves gets its address in
 * `status.loadBalancer.ingress` and a `Sync` Event; one of a class whose controller runs nowhere,
 * or of no class, gets neither, until it moves to the served class; moved away, it loses the address.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import { NetworkingV1Api, PatchStrategy, setHeaderOptions, type V1Ingress } from '@kubernetes/client-node';
import { clients, eventsAbout, privateControllers, waitEvent, waitUntil } from './support.js';

const ingress = (name: string, ingressClassName?: string): V1Ingress => ({
  metadata: { name },
  spec: {
    ...(ingressClassName ? { ingressClassName } : {}),
    rules: [
      {
        host: `${name}.example.test`,
        http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }] },
      },
    ],
  },
});

/** An IngressClass for this test, deleted after it. */
async function ingressClass(t: TestContext, networking: NetworkingV1Api, prefix: string, controller: string): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await networking.createIngressClass({ body: { metadata: { name }, spec: { controller } } });
  t.after(() => networking.deleteIngressClass({ name }).catch(() => undefined));
  return name;
}

describe('the simulated Ingress controller', () => {
  it('writes its address to Ingresses of its class only, and takes it back when one moves away', async (t) => {
    const networking = clients().kc.makeApiClient(NetworkingV1Api);
    const id = randomBytes(3).toString('hex');
    const served = `nginx-${id}`;
    const controller = `k8s.io/ingress-nginx-${id}`;
    t.after(() => networking.deleteIngressClass({ name: served }).catch(() => undefined));
    const { ns } = await privateControllers(t, 'ingress', {
      loadBalancer: false,
      certificates: false,
      ingress: { className: served, controller, address: '203.0.113.77' },
    });
    const created = await networking.readIngressClass({ name: served });
    assert.equal(created.spec?.controller, controller, 'the controller creates the class it serves');
    const unserved = await ingressClass(t, networking, 'unserved', 'example.com/no-such-controller');

    // Created first: the controller sees them before the served one.
    await networking.createNamespacedIngress({ namespace: ns, body: ingress('orphan', unserved) });
    await networking.createNamespacedIngress({ namespace: ns, body: ingress('classless') });
    await networking.createNamespacedIngress({ namespace: ns, body: ingress('web', served) });
    const address = (name: string) =>
      networking.readNamespacedIngress({ name, namespace: ns }).then((i) => i.status?.loadBalancer?.ingress?.[0]?.ip);
    assert.equal(await waitUntil(() => address('web'), { what: 'the address of Ingress web' }), '203.0.113.77');
    const sync = await waitEvent(ns, 'Ingress', 'web', 'Sync');
    assert.equal(sync.message, 'Scheduled for sync');
    assert.equal(sync.source?.component, 'nginx-ingress-controller');
    for (const name of ['orphan', 'classless']) {
      assert.equal(await address(name), undefined, `${name} has no address`);
      assert.deepEqual(await eventsAbout(ns, 'Ingress', name), [], `${name} has no Event`);
    }

    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    await networking.patchNamespacedIngress({ name: 'orphan', namespace: ns, body: { spec: { ingressClassName: served } } }, merge);
    assert.equal(
      await waitUntil(() => address('orphan'), { what: 'the address of Ingress orphan, now of the served class' }),
      '203.0.113.77',
    );
    await networking.patchNamespacedIngress({ name: 'web', namespace: ns, body: { spec: { ingressClassName: unserved } } }, merge);
    await waitUntil(async () => (await address('web')) === undefined, { what: 'Ingress web, moved to an unserved class, without address' });
  });
});
