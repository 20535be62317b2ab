/**
 * The traced workload's own Events listed by name while the namespace's Event list is under way
 * (src/cluster/named-events.ts), on the real controllers. A holding proxy
 * (test/helpers/holding-proxy.ts) forwards everything to the real apiserver but holds the Event
 * list (the field-selected one, as an apiserver scanning 45,000 Events would), and the trace has no
 * replay (`replayRevisions: 0`): only the named list and its watch can bring an Event while the
 * Event list is held.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { BatchV1Api } from '@kubernetes/client-node';
import { FIRST_PAGE } from '../../../src/cluster/named-events.js';
import type { RolloutEvent, WorkloadKind } from '../../../src/core/types.js';
import type { TrackOptions } from '../../../src/track/index.js';
import { trackRolloutWith } from '../../../src/track/tracker.js';
import { type HoldingProxy, startHoldingProxy } from '../../helpers/holding-proxy.js';
import { writeLivenessFailure } from '../../helpers/kubelet-events.js';
import { createJob, createStatefulSet } from '../../helpers/workloads.js';
import { clients, createDeployment, eventSeen, kubeConfig, namespaceFor, waitRolledOut, waitUntil } from './helpers.js';

const isEventList = (url: URL, ns: string) =>
  url.pathname === `/api/v1/namespaces/${ns}/events` && url.searchParams.get('watch') !== 'true';

/** A proxy holding `ns`'s Event list (its field-selected pages), not the named list nor any watch. */
async function holdingFullEventList(t: TestContext, ns: string): Promise<HoldingProxy> {
  const proxy = await startHoldingProxy(
    kubeConfig(),
    (method, url) => method === 'GET' && isEventList(url, ns) && url.searchParams.has('fieldSelector'),
  );
  t.after(() => proxy.close());
  return proxy;
}

/** Requests of the named list: Event list pages without a field selector, from a `continue` token. */
function namedLists(proxy: HoldingProxy, ns: string): string[] {
  return proxy.seen.filter((r) => {
    const url = new URL(r.replace(/^GET /, ''), 'https://x');
    return isEventList(url, ns) && !url.searchParams.has('fieldSelector') && url.searchParams.has('continue');
  });
}

/** Writes `count` routine Events named `<prefix>.<n>` (about a pod of that name, which need not exist). */
async function writeRoutineEvents(ns: string, prefix: string, count: number): Promise<void> {
  const names = Array.from({ length: count }, (_, n) => `${prefix}.${n}`);
  for (let i = 0; i < names.length; i += 25) {
    await Promise.all(
      names.slice(i, i + 25).map((name) =>
        clients().core.createNamespacedEvent({
          namespace: ns,
          body: {
            metadata: { name },
            involvedObject: { kind: 'Pod', namespace: ns, name: prefix },
            reason: 'Pulled',
            message: 'Container image "nginx:1.19" already present on machine',
            type: 'Normal',
          },
        }),
      ),
    );
  }
}

/** Whether every Event list sent so far is still held. */
function fullListUnanswered(proxy: HoldingProxy): boolean {
  const lists = proxy.seen.filter((r) => /\/events\?/.test(r) && r.includes('fieldSelector=')).length;
  return lists >= 1 && proxy.held.length === lists;
}

/** Traces `name` in `ns` through the proxy, without the replay. */
function tracing(t: TestContext, ns: string, proxy: HoldingProxy, opts: Partial<TrackOptions> = {}) {
  const tracking = trackRolloutWith(
    { name: 'web', namespace: ns, kubeconfig: proxy.kc, timeoutSeconds: 120, ...opts },
    { source: { replayRevisions: 0 } },
  );
  t.after(() => tracking.stop());
  const events: RolloutEvent[] = [];
  tracking.subscribe((e) => events.push(e));
  const verdict = () => events.find((e): e is Extract<RolloutEvent, { type: 'verdict' }> => e.type === 'verdict')?.verdict;
  return { events, verdict };
}

describe('a verdict from the Events listed by name while the Event list is held', { concurrency: true }, () => {
  it('a Deployment rolled out before the trace: success from its named Events, the Event list still held', async (t) => {
    const ns = await namespaceFor(t, 'named-done');
    await createDeployment(ns, 'web', { replicas: 2 });
    await waitRolledOut(ns, 'web');
    const proxy = await holdingFullEventList(t, ns);
    const { verdict } = tracing(t, ns, proxy);
    const v = await waitUntil(verdict, { what: 'a verdict', timeoutMs: 60_000, intervalMs: 50 });
    assert.equal(v.outcome, 'succeeded', v.summary);
    assert.equal(v.replicas.ready, 2, v.summary);
    assert.ok(fullListUnanswered(proxy), 'the verdict came while the Event list was unanswered');
    assert.ok(namedLists(proxy, ns).length >= 1, proxy.seen.join('\n'));
  });

  it('a StatefulSet and a Job done before the trace: each succeeds from its named Events, the Event list still held', async (t) => {
    const cases: Array<{ kind: WorkloadKind; create(ns: string): Promise<unknown>; done(ns: string): Promise<boolean> }> = [
      {
        kind: 'StatefulSet',
        create: (ns) => createStatefulSet(ns, 'web', { replicas: 2, podManagementPolicy: 'Parallel' }),
        done: async (ns) => {
          const s = await clients().apps.readNamespacedStatefulSet({ name: 'web', namespace: ns });
          return s.status?.readyReplicas === 2 && s.status.updatedReplicas === 2;
        },
      },
      {
        kind: 'Job',
        create: (ns) => createJob(ns, 'web', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo migrated'] } }),
        done: async (ns) => {
          const j = await clients().kc.makeApiClient(BatchV1Api).readNamespacedJob({ name: 'web', namespace: ns });
          return (j.status?.succeeded ?? 0) >= 1;
        },
      },
    ];
    await Promise.all(
      cases.map(async ({ kind, create, done }) => {
        const ns = await namespaceFor(t, `named-${kind.toLowerCase()}`);
        await create(ns);
        await waitUntil(() => done(ns), { what: `the ${kind} done`, timeoutMs: 60_000, intervalMs: 250 });
        const proxy = await holdingFullEventList(t, ns);
        const { verdict } = tracing(t, ns, proxy, { kind });
        const v = await waitUntil(verdict, { what: `the ${kind}'s verdict`, timeoutMs: 60_000, intervalMs: 50 });
        assert.equal(v.outcome, 'succeeded', `${kind}: ${v.summary}`);
        assert.ok(fullListUnanswered(proxy), `${kind}: the verdict came while the Event list was unanswered`);
      }),
    );
  });

  it('a liveness failure named after its pod: listed before the trace, it holds the success while the Event list is held', async (t) => {
    const ns = await namespaceFor(t, 'named-old');
    await createDeployment(ns, 'web', { replicas: 2 });
    await waitRolledOut(ns, 'web');
    const [old] = (await clients().core.listNamespacedPod({ namespace: ns })).items;
    await writeLivenessFailure(ns, old!);
    const proxy = await holdingFullEventList(t, ns);
    // The failure holds success for settleSeconds after it was written: 60 s outlasts the test.
    const { events, verdict } = tracing(t, ns, proxy, { policy: { settleSeconds: 60 } });
    const held = await eventSeen(events, (e) => e.type === 'held' && /liveness/.test(e.message), 'the liveness failure holds success');
    assert.ok(held.type === 'held' && held.pods.includes(old?.metadata?.name ?? ''), JSON.stringify(held));
    assert.equal(verdict(), undefined, 'no success over the listed liveness failure');
    assert.ok(fullListUnanswered(proxy), 'the hold came from the named Events alone');
  });

  it("a namespace whose other Events sort after the workload's: the named list reads one small page of them", async (t) => {
    const ns = await namespaceFor(t, 'named-page');
    await createDeployment(ns, 'web', { replicas: 1 });
    await waitRolledOut(ns, 'web');
    await writeRoutineEvents(ns, 'x', 2 * FIRST_PAGE);
    const proxy = await holdingFullEventList(t, ns);
    const { verdict } = tracing(t, ns, proxy);
    const v = await waitUntil(verdict, { what: 'a verdict', timeoutMs: 60_000, intervalMs: 50 });
    assert.equal(v.outcome, 'succeeded', v.summary);
    assert.ok(fullListUnanswered(proxy), 'the verdict came while the Event list was unanswered');
    const pages = namedLists(proxy, ns);
    assert.equal(pages.length, 1, pages.join('\n'));
    const limit = Number(new URL(pages[0]!.replace(/^GET /, ''), 'https://x').searchParams.get('limit'));
    assert.ok(limit > 0 && limit <= 100, `the first named page asks for ${limit} Events: at most 100 of the others' are read`);
  });

  it('a workload with more Events than a first page: the named list reads on, and a liveness failure past it holds the success', async (t) => {
    const ns = await namespaceFor(t, 'named-more');
    await createDeployment(ns, 'web', { replicas: 1 });
    await waitRolledOut(ns, 'web');
    const [pod] = (await clients().core.listNamespacedPod({ namespace: ns })).items;
    // Named after the workload and sorting after its pod's Events: the failure comes past them.
    await writeRoutineEvents(ns, 'web-aaa', FIRST_PAGE + 20);
    await writeLivenessFailure(ns, pod!, 'web-zzz.liveness');
    const proxy = await holdingFullEventList(t, ns);
    const { events, verdict } = tracing(t, ns, proxy, { policy: { settleSeconds: 60 } });
    const held = await eventSeen(events, (e) => e.type === 'held' && /liveness/.test(e.message), 'the liveness failure holds success');
    assert.ok(held.type === 'held' && held.pods.includes(pod?.metadata?.name ?? ''), JSON.stringify(held));
    assert.equal(verdict(), undefined, 'no success over the liveness failure on the second page');
    assert.ok(namedLists(proxy, ns).length >= 2, proxy.seen.join('\n'));
    assert.ok(fullListUnanswered(proxy), 'the hold came from the named Events alone');
  });

  it('a liveness failure written after the named list: its watch brings it, and it holds the success while the Event list is held', async (t) => {
    const ns = await namespaceFor(t, 'named-later');
    await createDeployment(ns, 'web', { replicas: 1, behaviour: { app: 'slow-start;seconds=12' } });
    const pod = await waitUntil(
      async () => (await clients().core.listNamespacedPod({ namespace: ns })).items.find((p) => p.spec?.nodeName),
      { what: 'the pod scheduled', timeoutMs: 30_000, intervalMs: 100 },
    );
    const proxy = await holdingFullEventList(t, ns);
    const { events, verdict } = tracing(t, ns, proxy, { policy: { settleSeconds: 60 } });
    await eventSeen(events, (e) => e.type === 'pod', 'the tracker synced and sees the pod', 30_000);
    await writeLivenessFailure(ns, pod);
    const held = await eventSeen(
      events,
      (e) => e.type === 'held' && /liveness/.test(e.message),
      'the later liveness failure holds success',
    );
    assert.ok(held.type === 'held' && held.pods.includes(pod.metadata?.name ?? ''), JSON.stringify(held));
    assert.equal(verdict(), undefined, 'no success over the watched liveness failure');
    assert.ok(fullListUnanswered(proxy), 'the hold came from the named list and its watch alone');
  });
});
