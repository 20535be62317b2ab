/**
 * Watch what is traced: tracing one Deployment in a busy namespace caches only its own objects,
 * and a Deployment that starts being traced later still gets everything it needs (a re-list).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { acquireNamespaceSource } from '../../../src/cluster/index.js';
import type { Observation } from '../../../src/core/types.js';
import { createDeployment, kubeConfig, namespaceFor, waitRolledOut, waitUntil } from './helpers.js';

const OTHERS = Array.from({ length: 6 }, (_, i) => `other-${i}`);

it('one Deployment traced in a busy namespace: the source caches only its objects', async (t) => {
  const ns = await namespaceFor(t, 'scope');
  await Promise.all([createDeployment(ns, 'web', { replicas: 2 }), ...OTHERS.map((n) => createDeployment(ns, n, { replicas: 3 }))]);
  await Promise.all(['web', ...OTHERS].map((n) => waitRolledOut(ns, n, 120_000)));
  const source = acquireNamespaceSource(kubeConfig(), ns);
  const web: Observation[] = [];
  const unsubWeb = source.subscribe({ deploymentName: 'web', onObservation: (o) => web.push(o), onError: () => undefined });
  try {
    await waitUntil(() => web.some((o) => o.type === 'synced'), { what: 'web synced', timeoutMs: 60_000 });
    const stats = source.stats();
    t.diagnostic(`cached ${JSON.stringify(stats.cached)}, lists ${JSON.stringify(stats.lists)}`);
    assert.equal(stats.cached.Pod, 2, "only web's 2 pods (of 20)");
    assert.equal(stats.cached.ReplicaSet, 1, "only web's ReplicaSet (of 7)");
    assert.equal(stats.cached.Deployment, 1 + OTHERS.length, 'every Deployment (selector resolution needs them)');
    const events = web.filter((o) => o.type === 'upsert' && o.kind === 'Event');
    assert.ok(events.length > 0 && stats.cached.Event === events.length, 'only Events about web, all delivered');
    assert.ok(
      events.every((o) => 'kind' in o && o.kind === 'Event' && (o.object.involvedObject?.name ?? '').startsWith('web')),
      'no Event about another Deployment',
    );

    // A Deployment traced later: its objects were not kept, so the source lists again for it.
    const late: Observation[] = [];
    const unsubLate = source.subscribe({ deploymentName: 'other-3', onObservation: (o) => late.push(o), onError: () => undefined });
    await waitUntil(() => late.some((o) => o.type === 'synced'), { what: 'other-3 synced', timeoutMs: 60_000 });
    const pods = late.filter((o) => o.type === 'upsert' && o.kind === 'Pod' && o.object.metadata?.name?.startsWith('other-3-'));
    assert.equal(pods.length, 3, "the late subscriber got its 3 pods before 'synced'");
    assert.ok(late.findIndex((o) => o.type === 'synced') > late.indexOf(pods[2]!));
    assert.equal(source.stats().lists.Pod, 2, 'one re-list for the late subscriber');
    assert.equal(source.stats().cached.Pod, 5);
    unsubLate();
  } finally {
    unsubWeb();
  }
});
