/**
 * Watch what is traced: tracing one Deployment in a busy namespace lists and watches only its
 * ReplicaSets and Pods (label-selected by its selector) and caches only its objects; a Deployment
 * traced later, or re-created under the same name with another selector, widens the scope (a
 * re-list) and still gets everything it needs.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { acquireNamespaceSource, KindWatcher, kindApis, type NamespaceSource } from '../../../src/cluster/index.js';
import type { Observation, WatchedKind } from '../../../src/core/types.js';
import { startHoldingProxy } from '../../helpers/holding-proxy.js';
import { clients, createDeployment, deploymentOf, kubeConfig, namespaceFor, waitRolledOut, waitUntil } from './helpers.js';

const OTHERS = Array.from({ length: 6 }, (_, i) => `other-${i}`);

/** Objects of `kind` a namespace-wide list receives (what the source received before scoping). */
async function namespaceWide(ns: string, kind: 'Pod' | 'ReplicaSet'): Promise<number> {
  const w = new KindWatcher(kubeConfig(), ns, kindApis(kubeConfig())[kind] as never, {
    change: () => undefined,
    synced: () => undefined,
    contact: () => undefined,
    fatal: (err) => assert.fail(err),
  });
  w.start();
  try {
    await waitUntil(() => w.isSynced, { what: `namespace-wide ${kind} list`, timeoutMs: 30_000 });
    return w.received;
  } finally {
    w.stop();
  }
}

function received(source: NamespaceSource, kind: WatchedKind): number {
  return source.stats().received[kind];
}

const upserted = (obs: Observation[], kind: 'Pod' | 'ReplicaSet', label: string) =>
  obs.filter((o) => o.type === 'upsert' && o.kind === kind && o.object.metadata?.labels?.app === label);

it('one Deployment traced in a busy namespace: its Pods and ReplicaSets only are received and cached', async (t) => {
  const ns = await namespaceFor(t, 'scope');
  await Promise.all([createDeployment(ns, 'web', { replicas: 2 }), ...OTHERS.map((n) => createDeployment(ns, n, { replicas: 3 }))]);
  await Promise.all(['web', ...OTHERS].map((n) => waitRolledOut(ns, n, 120_000)));
  const wide = { Pod: await namespaceWide(ns, 'Pod'), ReplicaSet: await namespaceWide(ns, 'ReplicaSet') };
  assert.deepEqual(wide, { Pod: 20, ReplicaSet: 7 }, 'what a namespace-wide list receives');
  const source = acquireNamespaceSource(kubeConfig(), ns);
  const web: Observation[] = [];
  const unsubWeb = source.subscribe({
    workloadName: 'web',
    kind: 'Deployment',
    onObservation: (o) => web.push(o),
    onError: () => undefined,
  });
  try {
    await waitUntil(() => web.some((o) => o.type === 'synced'), { what: 'web synced', timeoutMs: 60_000 });
    const stats = source.stats();
    t.diagnostic(`scoped by "${source.podSelector}": received ${JSON.stringify(stats.received)}, cached ${JSON.stringify(stats.cached)}`);
    assert.equal(source.podSelector, 'app=web');
    // A pod may change once more after the set-up (received counts watch events too), never 18 more.
    assert.ok(stats.received.Pod >= 2 && stats.received.Pod <= 4, `received ${stats.received.Pod} pods: web's 2 (of 20)`);
    assert.ok(
      stats.received.ReplicaSet >= 1 && stats.received.ReplicaSet <= 2,
      `received ${stats.received.ReplicaSet} ReplicaSets: web's 1 (of 7)`,
    );
    assert.equal(stats.cached.Pod, 2, "only web's 2 pods (of 20)");
    assert.equal(stats.cached.ReplicaSet, 1, "only web's ReplicaSet (of 7)");
    assert.equal(stats.cached.Deployment, 1 + OTHERS.length, 'every Deployment (selector resolution needs them)');
    assert.equal(upserted(web, 'Pod', 'web').length, 2, "web's pods delivered");
    const events = web.filter((o) => o.type === 'upsert' && o.kind === 'Event');
    assert.ok(events.length > 0 && stats.cached.Event === events.length, 'only Events about web, all delivered');
    assert.ok(
      events.every((o) => 'kind' in o && o.kind === 'Event' && (o.object.involvedObject?.name ?? '').startsWith('web')),
      'no Event about another Deployment',
    );

    // A Deployment traced later, with another selector: the scope widens (one re-list) to cover it.
    const podsBefore = received(source, 'Pod');
    const late: Observation[] = [];
    const unsubLate = source.subscribe({
      workloadName: 'other-3',
      kind: 'Deployment',
      onObservation: (o) => late.push(o),
      onError: () => undefined,
    });
    await waitUntil(() => late.some((o) => o.type === 'synced'), { what: 'other-3 synced', timeoutMs: 60_000 });
    assert.equal(source.podSelector, 'app in (other-3,web)');
    const pods = upserted(late, 'Pod', 'other-3');
    assert.equal(pods.length, 3, "the late subscriber got its 3 pods before 'synced'");
    assert.ok(late.findIndex((o) => o.type === 'synced') > late.indexOf(pods[2]!));
    assert.equal(source.stats().lists.Pod, 2, 'one re-list for the late subscriber');
    assert.equal(source.stats().cached.Pod, 5);
    const relisted = received(source, 'Pod') - podsBefore;
    t.diagnostic(`re-list for other-3 received ${relisted} pods`);
    assert.ok(relisted >= 5 && relisted <= 7, `the re-list received web's 2 + other-3's 3 pods (not 20): ${relisted}`);
    unsubLate();
    assert.equal(source.podSelector, 'app in (other-3,web)', 'leaving keeps the wider scope (no re-list)');
  } finally {
    unsubWeb();
  }
});

it('a traced Deployment re-created with another selector: the scope widens and its new pods are seen', async (t) => {
  const ns = await namespaceFor(t, 'scope-recreate');
  await Promise.all([createDeployment(ns, 'web', { replicas: 2 }), createDeployment(ns, 'other', { replicas: 3 })]);
  await Promise.all([waitRolledOut(ns, 'web'), waitRolledOut(ns, 'other')]);
  const source = acquireNamespaceSource(kubeConfig(), ns);
  const seen: Observation[] = [];
  const unsub = source.subscribe({ workloadName: 'web', kind: 'Deployment', onObservation: (o) => seen.push(o), onError: () => undefined });
  try {
    await waitUntil(() => seen.some((o) => o.type === 'synced'), { what: 'web synced', timeoutMs: 60_000 });
    assert.equal(source.podSelector, 'app=web');
    const { apps } = clients();
    await apps.deleteNamespacedDeployment({ name: 'web', namespace: ns });
    await waitUntil(() => seen.some((o) => o.type === 'delete' && o.kind === 'Deployment'), { what: 'web deleted', timeoutMs: 30_000 });
    const body = deploymentOf('web', { replicas: 2 });
    body.spec!.selector = { matchLabels: { app: 'web-v2' } };
    body.spec!.template.metadata!.labels = { app: 'web-v2' };
    await apps.createNamespacedDeployment({ namespace: ns, body });
    // Only the re-created Deployment's upsert can widen the scope here: no one else subscribes.
    await waitUntil(() => upserted(seen, 'Pod', 'web-v2').length >= 2, { what: "the new web's 2 pods", timeoutMs: 60_000 });
    assert.equal(source.podSelector, 'app in (web,web-v2)');
    assert.ok(upserted(seen, 'ReplicaSet', 'web-v2').length >= 1, "the new web's ReplicaSet");
    t.diagnostic(`received ${JSON.stringify(source.stats().received)}`);
  } finally {
    unsub();
  }
});

it("the first Pod and ReplicaSet lists come from the watch cache; a later subscriber's re-list reads etcd", async (t) => {
  const ns = await namespaceFor(t, 'scope-cache');
  await Promise.all([createDeployment(ns, 'web', { replicas: 2 }), createDeployment(ns, 'other', { replicas: 1 })]);
  await Promise.all([waitRolledOut(ns, 'web'), waitRolledOut(ns, 'other')]);
  // Forwards everything to the apiserver and records each request.
  const proxy = await startHoldingProxy(kubeConfig(), () => false);
  t.after(() => proxy.close());
  const lists = (kind: 'pods' | 'replicasets') =>
    proxy.seen.filter((r) => r.includes(`/namespaces/${ns}/${kind}?`) && !r.includes('watch=true'));
  const source = acquireNamespaceSource(proxy.kc, ns);
  const seen: Observation[] = [];
  const unsubWeb = source.subscribe({
    workloadName: 'web',
    kind: 'Deployment',
    onObservation: (o) => seen.push(o),
    onError: () => undefined,
  });
  t.after(unsubWeb);
  await waitUntil(() => seen.some((o) => o.type === 'synced'), { what: 'web synced', timeoutMs: 60_000 });
  assert.equal(upserted(seen, 'Pod', 'web').length, 2, "web's pods, from the cache's list");
  for (const kind of ['pods', 'replicasets'] as const) {
    assert.equal(lists(kind).length, 1, `${kind}: ${lists(kind).join(' ')}`);
    assert.match(lists(kind)[0]!, /[?&]resourceVersion=0(&|$)/, `the first ${kind} list takes any version`);
  }
  const late: Observation[] = [];
  const unsubLate = source.subscribe({
    workloadName: 'other',
    kind: 'Deployment',
    onObservation: (o) => late.push(o),
    onError: () => undefined,
  });
  t.after(unsubLate);
  await waitUntil(() => late.some((o) => o.type === 'synced'), { what: 'other synced', timeoutMs: 60_000 });
  assert.equal(upserted(late, 'Pod', 'other').length, 1, "other's pod, from the re-list");
  for (const kind of ['pods', 'replicasets'] as const) {
    assert.equal(lists(kind).length, 2, `${kind}: ${lists(kind).join(' ')}`);
    assert.doesNotMatch(lists(kind)[1]!, /resourceVersion=/, `the ${kind} re-list reads etcd (no version asked)`);
  }
});
