/**
 * The Event backlog replay's line budget (src/cluster/backlog-replay.ts) against the real
 * apiserver: a replay that reads more lines than its budget before its Events caught up stops.
 * The Event watch then counts as broken (the verdict waits for the Event list); a Pod or
 * ReplicaSet probe just stops proving objects fresh. The budget is set low here so that a few
 * dozen real writes exceed it; the default (2 × revisions + 2,000) is only reached by an
 * apiserver that replays from elsewhere than asked.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { BacklogReplay } from '../../../src/cluster/backlog-replay.js';
import { podTemplateOf } from '../../helpers/deployments.js';
import { clients, kubeConfig, namespaceFor, waitUntil } from './helpers.js';

/** The cluster's current etcd revision (a quorum list's resourceVersion). */
async function revisionNow(ns: string): Promise<bigint> {
  const list = await clients().core.listNamespacedConfigMap({ namespace: ns });
  return BigInt(list.metadata?.resourceVersion ?? '0');
}

/** Writes a Warning Event about a pod named `pod` in `ns`. */
async function warning(ns: string, name: string, pod = 'elsewhere'): Promise<void> {
  const now = new Date();
  await clients().core.createNamespacedEvent({
    namespace: ns,
    body: {
      metadata: { name },
      involvedObject: { kind: 'Pod', namespace: ns, name: pod, apiVersion: 'v1' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      type: 'Warning',
      source: { component: 'kubelet' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    },
  });
}

/**
 * `count` pods owned by a ConfigMap as their controller, bound to a node that does not exist: no
 * scheduler, kubelet or controller writes anything about them, so no Event follows their creation.
 */
async function controlledPods(ns: string, count: number): Promise<void> {
  const { core } = clients();
  const owner = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'owner' } } });
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid!, controller: true };
  const template = podTemplateOf('idle');
  for (let i = 0; i < count; i++) {
    await core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { ...template.metadata, name: `idle-${i}`, ownerReferences: [ref] },
        spec: { ...template.spec!, nodeName: 'no-such-node' },
      },
    });
  }
}

/** Starts a replay of `ns` covering the revisions after `before` up to `since`, with `lineBudget`. */
function replaying(t: TestContext, ns: string, before: bigint, since: bigint, lineBudget: number) {
  const seen = { events: 0, created: 0, changed: 0 };
  const replay = new BacklogReplay(
    kubeConfig(),
    ns,
    since,
    { event: () => seen.events++, created: () => seen.created++, changed: () => seen.changed++ },
    () => undefined,
    undefined,
    Number(since - before),
    lineBudget,
  );
  t.after(() => replay.stop());
  replay.start();
  return { replay, seen };
}

describe("the Event backlog replay's line budget", { concurrency: true }, () => {
  it('Event lines over the budget before catching up: the replay stops as broken after exactly the budget', async (t) => {
    const ns = await namespaceFor(t, 'replay-events');
    const before = await revisionNow(ns);
    for (let i = 0; i < 30; i++) await warning(ns, `backoff-${i}`);
    const since = await revisionNow(ns);
    const { replay, seen } = replaying(t, ns, before, since, 10);
    await waitUntil(() => seen.changed > 0, { what: 'the replay told its source', timeoutMs: 20_000, intervalMs: 20 });
    t.diagnostic(`revisions ${since - before}; events delivered ${seen.events}; opened ${JSON.stringify(replay.opened)}`);
    assert.equal(replay.isBroken, true);
    assert.equal(replay.caughtUp, false);
    assert.equal(seen.events, 10, 'every line within the budget was delivered, none after it');
    assert.equal(replay.opened.Event, 1, 'the Event watch was not re-opened');
  });

  it('the same Events within the budget: all delivered, caught up with the first Event past the start revision', async (t) => {
    const ns = await namespaceFor(t, 'replay-events-ok');
    const before = await revisionNow(ns);
    for (let i = 0; i < 30; i++) await warning(ns, `backoff-${i}`);
    // A write that is not an Event, so that the start revision lies past the last Event's.
    await clients().core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'marker' } } });
    const since = await revisionNow(ns);
    const { replay, seen } = replaying(t, ns, before, since, 100);
    await waitUntil(() => seen.events >= 30, { what: 'the 30 Events replayed', timeoutMs: 20_000, intervalMs: 20 });
    assert.equal(replay.caughtUp, false, 'nothing proves the replay reached the start revision yet');
    await warning(ns, 'after-start');
    await waitUntil(() => replay.caughtUp, { what: 'caught up', timeoutMs: 20_000, intervalMs: 20 });
    assert.equal(seen.events, 31);
    assert.equal(replay.isBroken, false);
  });

  it('Pod lines over the budget: the probe stops proving pods fresh; the Events still catch up', async (t) => {
    const ns = await namespaceFor(t, 'replay-pods');
    const before = await revisionNow(ns);
    await controlledPods(ns, 12);
    const since = await revisionNow(ns);
    const over = replaying(t, ns, before, since, 5);
    const within = replaying(t, ns, before, since, 100);
    await waitUntil(() => within.seen.created === 12, {
      what: 'the 12 pods proven fresh within the budget',
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    await warning(ns, 'after-start', 'idle-0');
    await waitUntil(() => over.replay.caughtUp && within.replay.caughtUp, { what: 'both caught up', timeoutMs: 20_000, intervalMs: 20 });
    t.diagnostic(`revisions ${since - before}; created: budget 5 -> ${over.seen.created}, budget 100 -> ${within.seen.created}`);
    assert.equal(over.seen.created, 5, 'the probe stopped at its budget');
    assert.equal(over.replay.opened.Pod, 1, 'and was not re-opened');
    assert.equal(over.replay.isBroken, false, 'a probe over its budget does not break the Events');
    assert.equal(over.seen.events, 1);
  });
});
