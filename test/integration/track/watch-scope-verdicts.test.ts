/**
 * Scoped watches give the right verdicts: a Deployment traced while another one is, with another
 * selector, widens the Pod and ReplicaSet watches and its failing pods are seen (a crash-loop
 * verdict, not a timeout); a Deployment re-created under the same name with another selector is
 * not a success before the new object is rolled out.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { acquireNamespaceSource, openSourceCount } from '../../../src/cluster/index.js';
import {
  clients,
  createDeployment,
  deploymentOf,
  describeVerdict,
  eventSeen,
  kubeConfig,
  namespaceFor,
  trace,
  updateDeployment,
  waitRolledOut,
  waitUntil,
} from './helpers.js';

it('a second Deployment traced later with another selector: the scope widens and its crash loop is found', async (t) => {
  const ns = await namespaceFor(t, 'scope-second');
  await Promise.all(['web', 'api', 'x', 'y'].map((n) => createDeployment(ns, n, { replicas: 2 })));
  await Promise.all(['web', 'api', 'x', 'y'].map((n) => waitRolledOut(ns, n, 120_000)));
  const webChange = await updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=15' } });
  let selectorBefore: string | undefined;
  let selectorAfter: string | undefined;
  const web = await trace(ns, 'web', { timeoutSeconds: 180, minGeneration: webChange.metadata?.generation }, async (events) => {
    await eventSeen(events, (e) => e.type === 'pod', 'a web pod event');
    assert.ok(openSourceCount() > 0, "web's tracker holds the source");
    const source = acquireNamespaceSource(kubeConfig(), ns);
    selectorBefore = source.podSelector;
    const apiChange = await updateDeployment(ns, 'api', {
      replicas: 2,
      image: 'nginx:1.20',
      // Never Ready (a failing readiness probe): a pod Ready for its first second can complete the
      // rollout before it crashes (kubectl says success too), which is a race, not the scope under test.
      behaviour: { app: 'crash;not-ready;exitCode=3;message=boom;after=1' },
      container: { readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 1 } },
    });
    const api = await trace(ns, 'api', { timeoutSeconds: 150, minGeneration: apiChange.metadata?.generation });
    selectorAfter = source.podSelector;
    t.diagnostic(`api: ${describeVerdict(api)}; received ${JSON.stringify(source.stats().received)}`);
    assert.equal(api.verdict.outcome, 'failed', api.verdict.summary);
    assert.equal(api.verdict.problems[0]?.class, 'crash-loop', api.verdict.summary);
  });
  t.diagnostic(`web: ${describeVerdict(web)}; scope "${selectorBefore}" → "${selectorAfter}"`);
  assert.equal(selectorBefore, 'app=web');
  assert.equal(selectorAfter, 'app in (api,web)');
  assert.equal(web.verdict.outcome, 'succeeded', web.verdict.summary);
  assert.equal(web.verdict.replicas.ready, 2);
});

it('a Deployment re-created with another selector on an open source: no success before the new one is rolled out', async (t) => {
  const ns = await namespaceFor(t, 'scope-replace');
  await Promise.all([createDeployment(ns, 'web', { replicas: 2 }), createDeployment(ns, 'keeper', { replicas: 1 })]);
  await Promise.all([waitRolledOut(ns, 'web'), waitRolledOut(ns, 'keeper')]);
  const { apps, core } = clients();
  // Another Deployment's trace keeps the shared source open (scoped to app=web and app=keeper)
  // while web is replaced (Pulumi's delete-then-create of a Deployment whose selector changed).
  const keeperChange = await updateDeployment(ns, 'keeper', { replicas: 1, behaviour: { app: 'slow-start;seconds=60' } });
  const keeper = trace(ns, 'keeper', { timeoutSeconds: 150, minGeneration: keeperChange.metadata?.generation });
  const web = trace(ns, 'web', { timeoutSeconds: 150 });
  assert.equal((await web).verdict.outcome, 'succeeded', 'web traced once (the source now covers app=web)');
  await apps.deleteNamespacedDeployment({ name: 'web', namespace: ns, body: { propagationPolicy: 'Foreground' } });
  await waitUntil(async () => (await apps.listNamespacedDeployment({ namespace: ns })).items.every((d) => d.metadata?.name !== 'web'), {
    what: 'web deleted',
    timeoutMs: 60_000,
  });
  assert.ok(openSourceCount() > 0, "keeper's tracker holds the source");
  const source = acquireNamespaceSource(kubeConfig(), ns);
  assert.equal(source.podSelector, 'app in (keeper,web)');
  const body = deploymentOf('web', { replicas: 2, behaviour: { app: 'slow-start;seconds=8' } });
  body.spec!.selector = { matchLabels: { app: 'web-v2' } };
  body.spec!.template.metadata!.labels = { app: 'web-v2' };
  const created = Date.now();
  await apps.createNamespacedDeployment({ namespace: ns, body });
  // The source has seen the new object (so the tracker subscribes to a source that knows it).
  await waitUntil(() => source.deployments().some((d) => d.spec?.selector?.matchLabels?.app === 'web-v2'), {
    what: 'the new web in the shared cache',
    timeoutMs: 30_000,
  });
  const r = await trace(ns, 'web', { timeoutSeconds: 120 });
  t.diagnostic(`re-created web: ${describeVerdict(r)} ${Date.now() - created} ms after create; scope "${source.podSelector}"`);
  assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
  assert.ok(Date.now() - created >= 8000, 'not before the slow-starting new pods are Ready');
  const pods = await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web-v2' });
  const ready = pods.items.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
  assert.equal(ready.length, 2, 'both new pods are Ready at the verdict');
  assert.ok(
    r.of('pod').some((e) => pods.items.some((p) => p.metadata?.name === e.name)),
    'the new pods were seen by the trace',
  );
  assert.equal(source.podSelector, 'app in (keeper,web,web-v2)');
  await keeper;
});
