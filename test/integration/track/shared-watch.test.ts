/**
 * Tracking 20 Deployments in one namespace opens ONE watch per kind, not one per Deployment —
 * asserted from our own counter and from the apiserver's own gauge of open WATCH requests.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { HttpMethod, type KubeConfig, RequestContext } from '@kubernetes/client-node';
import { fetch } from 'undici';
import { watchStats } from '../../../src/cluster/index.js';
import type { RolloutEvent } from '../../../src/core/types.js';
import { trackRollouts } from '../../../src/track/index.js';
import { createDeployment, eventSeen, kubeConfig, namespaceFor, waitUntil } from './helpers.js';

const RESOURCES = { Deployment: 'deployments', ReplicaSet: 'replicasets', Pod: 'pods', Event: 'events' } as const;

/** Open namespace-scoped WATCH requests per resource, from the apiserver's /metrics. */
async function openWatches(kc: KubeConfig): Promise<Record<string, number>> {
  const url = `${kc.getCurrentCluster()!.server}/metrics`;
  const ctx = new RequestContext(url, HttpMethod.GET);
  await kc.applySecurityAuthentication(ctx);
  const res = await fetch(url, { headers: ctx.getHeaders(), dispatcher: ctx.getDispatcher() as never });
  assert.equal(res.status, 200, 'GET /metrics');
  const text = await res.text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^apiserver_longrunning_gauge\{(.*)\} (\d+)/.exec(line);
    if (!m || !m[1]!.includes('verb="WATCH"') || !m[1]!.includes('scope="namespace"')) continue;
    const resource = /resource="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
    out[resource] = (out[resource] ?? 0) + Number(m[2]);
  }
  return out;
}

it('20 Deployments in one namespace share one watch per kind', async (t) => {
  const ns = await namespaceFor(t, 'shared');
  const kc = kubeConfig();
  const names = Array.from({ length: 20 }, (_, i) => `app-${i}`);
  // Slow pods keep every rollout in progress while we count.
  await Promise.all(names.map((n) => createDeployment(ns, n, { behaviour: { app: 'slow-start;seconds=60' } })));
  const before = await openWatches(kc);
  const multi = trackRollouts(names.map((name) => ({ name, namespace: ns, kubeconfig: kc, timeoutSeconds: 120 })));
  const events: RolloutEvent[] = [];
  multi.subscribe((e) => events.push(e));
  await eventSeen(
    events,
    () => new Set(events.filter((e) => e.type === 'pod').map((e) => e.deployment.name)).size === 20,
    'pods of all 20 Deployments',
    60_000,
  );

  // Under load the apiserver may accept the watches a little after the lists.
  await waitUntil(() => (Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]).every((k) => watchStats().active[k] === 1), {
    what: 'one open watch per kind',
    timeoutMs: 30_000,
  });
  const ours = watchStats();
  const during = await openWatches(kc);
  multi.stop();
  const verdicts = await multi.verdicts;
  // The apiserver notices a closed watch a little later, and other tests open watches meanwhile
  // (a whole file of them may start as this one stops): sample the gauge until each resource has
  // dropped once (up to 45 s) and keep each resource's largest drop.
  const drop: Record<string, number> = Object.fromEntries(Object.values(RESOURCES).map((r) => [r, Number.NEGATIVE_INFINITY]));
  const sampleUntil = Date.now() + 45_000;
  while (Date.now() < sampleUntil && Object.values(drop).some((d) => d < 1)) {
    await new Promise((r) => setTimeout(r, 250));
    const after = await openWatches(kc);
    for (const r of Object.values(RESOURCES)) drop[r] = Math.max(drop[r]!, (during[r] ?? 0) - (after[r] ?? 0));
  }
  const rise = Object.fromEntries(Object.values(RESOURCES).map((r) => [r, (during[r] ?? 0) - (before[r] ?? 0)]));
  t.diagnostic(
    `our watches: active ${JSON.stringify(ours.active)}, opened ${JSON.stringify(ours.opened)}, lists ${JSON.stringify(ours.lists)}`,
  );
  t.diagnostic(
    `apiserver namespace-scoped WATCH gauge: during ${JSON.stringify(during)}; rise on start ${JSON.stringify(rise)}; drop on stop ${JSON.stringify(drop)}`,
  );

  assert.equal(verdicts.length, 20);
  assert.ok(verdicts.every((v) => v.outcome === 'cancelled'));
  for (const [kind, resource] of Object.entries(RESOURCES)) {
    assert.equal(ours.active[kind as keyof typeof RESOURCES], 1, `one open ${kind} watch`);
    // One list, or two if a watch failed twice in a row under load; one per Deployment would be 20.
    assert.ok(ours.lists[kind as keyof typeof RESOURCES] <= 2, `one ${kind} list (got ${ours.lists[kind as keyof typeof RESOURCES]})`);
    // Other clients of the shared cluster open and close watches meanwhile, so take the quieter of
    // the two measurements — one watch per Deployment would show 20 in both.
    assert.ok(drop[resource]! >= 1, `apiserver saw our ${resource} watch close: drop ${drop[resource]}`);
    assert.ok(
      Math.min(rise[resource]!, drop[resource]!) < 10,
      `apiserver saw about one ${resource} watch, not 20: rise ${rise[resource]}, drop ${drop[resource]}`,
    );
  }
  assert.equal(ours.active.PersistentVolumeClaim, 0, 'no PVC watch when no template mounts a claim');
});
