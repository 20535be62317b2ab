/**
 * A verdict before the Event backlog is listed (src/cluster/backlog-replay.ts,
 * src/core/event-backlog.ts), on the real controllers. A holding proxy (test/helpers/holding-proxy.ts)
 * forwards everything to the real apiserver but holds the namespace's Event LIST, as an apiserver
 * scanning 45,000 Events would: the Event watch replayed from a recent revision is all the tracker
 * has of the Events until the proxy lets the list through.
 */
import assert from 'node:assert/strict';
import { after, describe, it, type TestContext } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import type { TrackOptions } from '../../../src/track/index.js';
import { type TrackInternals, trackRolloutWith } from '../../../src/track/tracker.js';
import { kubeConfigWith } from '../../helpers/fault-endpoint.js';
import { type HoldingProxy, startHoldingProxy } from '../../helpers/holding-proxy.js';
import { writeLivenessFailure } from '../../helpers/kubelet-events.js';
import { createJob, createStatefulSet } from '../../helpers/workloads.js';
import {
  assertStillRunning,
  clients,
  createDeployment,
  type DeploymentShape,
  editDeployment,
  eventSeen,
  kubeConfig,
  namespaceFor,
  waitRolledOut,
  waitUntil,
} from './helpers.js';
import { TcpProxy } from './tcp-proxy.js';

/** A proxy holding `ns`'s Event lists (not its watches) until released. */
async function holdingEventList(t: TestContext, ns: string): Promise<HoldingProxy> {
  const path = `/api/v1/namespaces/${ns}/events`;
  const proxy = await startHoldingProxy(
    kubeConfig(),
    (method, url) => method === 'GET' && url.pathname === path && url.searchParams.get('watch') !== 'true',
  );
  t.after(() => proxy.close());
  return proxy;
}

/**
 * Whether no Event list was answered: every Event list sent so far is still held. (A list is sent
 * again when the first contact had to be retried, or after a black hole: the count may exceed 1.)
 */
function eventListsUnanswered(proxy: HoldingProxy): boolean {
  const lists = proxy.seen.filter((r) => /\/events(\?|$)/.test(r) && !r.includes('watch=true')).length;
  return lists >= 1 && proxy.held.length === lists;
}

/**
 * Tracks `web` in `ns` through the proxy; resolves once the Event list is held and the replay's
 * watches of Events and pods are open.
 */
async function tracing(t: TestContext, ns: string, proxy: HoldingProxy, internals: TrackInternals = {}, opts: Partial<TrackOptions> = {}) {
  const tracking = trackRolloutWith({ name: 'web', namespace: ns, kubeconfig: proxy.kc, timeoutSeconds: 120, ...opts }, internals);
  t.after(() => tracking.stop());
  const events: RolloutEvent[] = [];
  tracking.subscribe((e) => events.push(e));
  await waitUntil(() => proxy.held.length > 0, { what: 'the Event list held', timeoutMs: 20_000, intervalMs: 20 });
  // The replay's watches are the ones with a 60 s timeout (the kind watchers' are 240-300 s).
  const watching = (kind: string) =>
    proxy.seen.some((r) => r.includes(`/${kind}?`) && r.includes('watch=true') && r.includes('timeoutSeconds=60'));
  await waitUntil(() => watching('events') && watching('pods'), { what: 'the replay watching', timeoutMs: 20_000, intervalMs: 20 });
  const verdict = () => events.find((e): e is Extract<RolloutEvent, { type: 'verdict' }> => e.type === 'verdict')?.verdict;
  return { events, verdict };
}

// Known leak, under investigation: after this file's tests (each tracker stopped, each proxy
// closed), its process sometimes keeps 4 connections to the apiserver open and never ends (its
// 900 s timeout then fails the run). Five seconds after the last hook, when every result has been
// reported, it ends with the exit code the runner set (never 0 over a failure).
after(() => {
  setTimeout(() => process.exit(), 5000).unref();
});

/** Its liveness probe fails from 1 s on (the kubelet kills it after 30 failures); Ready from 3 s on. */
const LIVENESS_FAILING: DeploymentShape = {
  replicas: 2,
  image: 'nginx:1.20',
  behaviour: { app: 'not-live' },
  container: {
    livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 1, failureThreshold: 30 },
    readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 3, periodSeconds: 1 },
  },
};

describe('a verdict before the Event backlog is listed', { concurrency: true }, () => {
  it('a Deployment created while tracing: success from the replayed Events while the Event list is still held', async (t) => {
    const ns = await namespaceFor(t, 'backlog-early');
    const proxy = await holdingEventList(t, ns);
    const { verdict } = await tracing(t, ns, proxy);
    await createDeployment(ns, 'web', { replicas: 2 });
    const v = await waitUntil(verdict, { what: 'a verdict', timeoutMs: 60_000, intervalMs: 50 });
    assert.equal(v.outcome, 'succeeded', v.summary);
    assert.equal(v.replicas.ready, 2, v.summary);
    assert.ok(eventListsUnanswered(proxy), 'the verdict came while the Event list was unanswered');
  });

  it('a StatefulSet and a Job created while tracing: each succeeds from the replayed Events while the Event list is still held', async (t) => {
    const cases = [
      {
        kind: 'StatefulSet' as const,
        name: 'db',
        create: (ns: string) => createStatefulSet(ns, 'db', { replicas: 2, podManagementPolicy: 'Parallel' }),
      },
      {
        kind: 'Job' as const,
        name: 'migrate',
        create: (ns: string) => createJob(ns, 'migrate', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo migrated'] } }),
      },
    ];
    await Promise.all(
      cases.map(async ({ kind, name, create }) => {
        const ns = await namespaceFor(t, `backlog-${name}`);
        const proxy = await holdingEventList(t, ns);
        const { verdict } = await tracing(t, ns, proxy, {}, { kind, name });
        await create(ns);
        const v = await waitUntil(verdict, { what: `the ${kind}'s verdict`, timeoutMs: 60_000, intervalMs: 50 });
        assert.equal(v.outcome, 'succeeded', `${kind}: ${v.summary}`);
        assert.ok(eventListsUnanswered(proxy), `${kind}: the verdict came while the Event list was unanswered`);
        // No ReplicaSet is read for a kind that has none: not listed, watched or replayed.
        assert.deepEqual(
          proxy.seen.filter((r) => r.includes('/replicasets')),
          [],
          kind,
        );
      }),
    );
  });

  it("a new pod's liveness failure comes with the replayed Events: success is held, never published, while the list is held", async (t) => {
    const ns = await namespaceFor(t, 'backlog-liveness');
    const proxy = await holdingEventList(t, ns);
    const { events, verdict } = await tracing(t, ns, proxy);
    await createDeployment(ns, 'web', LIVENESS_FAILING);
    const held = await eventSeen(
      events,
      (e) => e.type === 'held' && /liveness/.test(e.message),
      'success held for the liveness failure',
      60_000,
    );
    t.diagnostic(held.type === 'held' ? held.message : '');
    assert.equal(verdict(), undefined, 'no verdict while the pods fail their liveness probe');
    assert.ok(eventListsUnanswered(proxy), 'the hold came from the replayed Events alone');
  });

  it('a failure waits for the Event list: an image that does not exist, past its window while the list is held, fails once it is in', async (t) => {
    const ns = await namespaceFor(t, 'backlog-fail');
    const proxy = await holdingEventList(t, ns);
    const { events, verdict } = await tracing(t, ns, proxy, {}, { policy: { classes: { 'image-pull-not-found': { afterSeconds: 1 } } } });
    await createDeployment(ns, 'web', { replicas: 1, image: 'nginx:1.99-does-not-exist' });
    const problem = await eventSeen(
      events,
      (e) => e.type === 'problem' && e.problem.class === 'image-pull-not-found',
      'the pull problem',
      60_000,
    );
    const failsAt = problem.type === 'problem' ? (problem.failsAt ?? 0) : 0;
    // Two ticks past its window: the failure it would be is not published while the list is held.
    await waitUntil(() => Date.now() > failsAt + 2500, { what: 'two ticks past the window', timeoutMs: 30_000, intervalMs: 100 });
    assert.equal(verdict(), undefined, 'no failure before the Event list is in');
    const released = Date.now();
    proxy.release();
    const v = await waitUntil(verdict, { what: 'a verdict', timeoutMs: 30_000, intervalMs: 50 });
    assert.equal(v.outcome, 'failed', v.summary);
    assert.equal(v.problems[0]?.class, 'image-pull-not-found', v.summary);
    t.diagnostic(`failed ${Date.now() - released} ms after the list was let through`);
  });

  it('pods created before the replay started: no success until the Event list is in, whose liveness failure then holds it', async (t) => {
    const ns = await namespaceFor(t, 'backlog-old');
    await createDeployment(ns, 'web', { replicas: 2 });
    await waitRolledOut(ns, 'web');
    const pods = await clients().core.listNamespacedPod({ namespace: ns });
    const old = pods.items[0]!;
    await writeLivenessFailure(ns, old);
    const proxy = await holdingEventList(t, ns);
    // The replay starts 1 revision before the Deployment list: the two pods are older. The failure
    // holds success for settleSeconds after it was written (5 s by default): 60 s, so that it
    // still does when a loaded machine takes long to scale up and release the list.
    const { events, verdict } = await tracing(t, ns, proxy, { source: { replayRevisions: 1 } }, { policy: { settleSeconds: 60 } });
    // A scale-up brings Events after that revision (the replay catches up) and one fresh pod.
    await editDeployment(ns, 'web', (d) => {
      d.spec!.replicas = 3;
    });
    await eventSeen(events, (e) => e.type === 'progress' && e.ready === 3 && e.available === 3, 'the tracker sees 3 of 3 ready', 60_000);
    assert.equal(verdict(), undefined, 'no success with two pods whose Events are not all known');
    assert.ok(eventListsUnanswered(proxy), 'no success while the Event list was unanswered');
    proxy.release();
    const held = await eventSeen(
      events,
      (e) => e.type === 'held' && /liveness/.test(e.message),
      'the listed liveness failure holds success',
      30_000,
    );
    assert.ok(held.type === 'held' && held.pods.includes(old.metadata?.name ?? ''), JSON.stringify(held));
    const v = await waitUntil(verdict, { what: 'a verdict once the hold is over', timeoutMs: 90_000, intervalMs: 50 });
    assert.equal(v.outcome, 'succeeded', v.summary);
  });

  it('a black-holed connection (open, silent) mid-rollout: the replay is re-opened with the first watch found silent, and success still comes from replayed Events', async (t) => {
    const ns = await namespaceFor(t, 'backlog-hole');
    const holding = await holdingEventList(t, ns);
    // tracker -> TCP forwarder (the fault) -> holding proxy -> apiserver.
    const tcp = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(holding.kc.getCurrentCluster()!.server).port) });
    t.after(() => tcp.close());
    const kubeconfig = kubeConfigWith(holding.kc, { server: `https://127.0.0.1:${tcp.port}` });
    // The kind watchers presume a silent watch dead after 30 s too (the replay's own timeout).
    const { events, verdict } = await tracing(t, ns, holding, { source: { inactivitySeconds: 30 } }, { kubeconfig });
    // Ready while the connections are silent (before the 30 s inactivity timeout).
    await createDeployment(ns, 'web', { replicas: 2, behaviour: { app: 'slow-start;seconds=15' } });
    await eventSeen(events, (e) => e.type === 'pod', 'the tracker sees a pod', 30_000);
    assertStillRunning(events, 'the hole');
    const replayWatches = () => holding.seen.filter((r) => r.includes('/events?') && r.includes('timeoutSeconds=60')).length;
    const before = replayWatches();
    const holeAt = Date.now();
    const seenAtHole = holding.seen.length;
    const holed = tcp.blackholeOpen(); // open connections go silent; new ones forward
    const v = await waitUntil(verdict, { what: 'a verdict', timeoutMs: 90_000, intervalMs: 100 }).catch((err: Error) => {
      // What the tracker asked for since the hole, and what it last said: why no verdict came.
      const asked = holding.seen.slice(seenAtHole).map((r) => r.replace(/^GET \/api(s\/apps)?\/v1\/namespaces\/[^/]+\//, ''));
      const said = events.slice(-5).map((e) => `${e.type} +${((e.at - holeAt) / 1000).toFixed(1)} s`);
      throw new Error(
        `${err.message}; requests since the hole: ${asked.join(' | ')}; held: ${holding.held.join(' | ')}; last events: ${said.join(', ')}`,
      );
    });
    const after = (Date.now() - holeAt) / 1000;
    t.diagnostic(
      `${holed} connection(s) black-holed; ${v.outcome} ${after.toFixed(1)} s later; Event replay watches ${before} -> ${replayWatches()}`,
    );
    assert.ok(holed >= 4, 'the replay and the kind watchers were cut');
    assert.equal(v.outcome, 'succeeded', v.summary);
    assert.equal(v.replicas.ready, 2, v.summary);
    const verdictAt = holeAt + after * 1000;
    // The rollout finished behind the hole: the verdict came once the trace saw past it (a watch
    // found silent after 30 s, or sooner when a probe found the outage), never before the pods
    // were Ready (the apiserver's Ready times are whole seconds).
    const pods = await clients().core.listNamespacedPod({ namespace: ns });
    const readyAt = Math.max(
      ...pods.items.map((p) =>
        Date.parse(String(p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime ?? '')),
      ),
    );
    assert.ok(Number.isFinite(readyAt) && readyAt > holeAt, `every pod became Ready behind the hole: ${new Date(readyAt).toISOString()}`);
    assert.ok(verdictAt >= readyAt - 1000, `the verdict ${((readyAt - verdictAt) / 1000).toFixed(1)} s before the pods were Ready`);
    // The first watch found silent re-opens the others: the Event replay comes back with the kind
    // watchers (or before them, on its own timeout), not up to its 30 s later.
    const firstSince = (match: (r: string) => boolean) => {
      const i = holding.seen.findIndex((r, at) => at >= seenAtHole && match(r));
      return i < 0 ? undefined : (holding.seenAt[i] as number);
    };
    const replayOpened = () => firstSince((r) => r.includes('/events?') && r.includes('timeoutSeconds=60'));
    // The proxy notes a request as it forwards it: give the last ones a moment to be noted.
    const replayAt = await waitUntil(replayOpened, { what: 'the Event replay re-opened', timeoutMs: 2000 }).catch(() => undefined);
    const kindAt = firstSince((r) => r.includes('watch=true') && !r.includes('timeoutSeconds=60')) ?? Number.POSITIVE_INFINITY;
    t.diagnostic(
      `first kind re-watch +${((kindAt - holeAt) / 1000).toFixed(1)} s, Event replay ${replayAt === undefined ? 'not re-opened' : `+${((replayAt - holeAt) / 1000).toFixed(1)} s`}, verdict +${after.toFixed(1)} s`,
    );
    if (replayAt !== undefined)
      assert.ok(replayAt - kindAt <= 1000, 'the Event replay was re-opened with the first kind watch found silent');
    // Else the re-opened kind watches brought the success at once, before the replay's turn: the
    // trace ended with its verdict and had nothing left to re-open.
    else assert.ok(verdictAt - kindAt <= 1000, 'no Event replay re-opened, and the success did not come with the first re-watch');
    assert.ok(eventListsUnanswered(holding), 'the Event list was still held: the success came from replayed Events');
  });
});
