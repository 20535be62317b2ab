/**
 * The tracker's watch after the verdict (the CLI's `--watch`): after the verdict the same tracker
 * keeps its source subscription and publishes later changes (never a second verdict); `stop()`
 * ends the watch, the stream and the source.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSourceCount } from '../../../src/cluster/index.js';
import type { RolloutEvent } from '../../../src/core/types.js';
import { trackRolloutWith } from '../../../src/track/tracker.js';
import { clients, createDeployment, kubeConfig, namespaceFor, waitUntil } from './helpers.js';

test('after the verdict a killed pod is published as deleted and replaced; stop() ends the watch and closes the source', async (t) => {
  const ns = await namespaceFor(t, 'watch-after');
  await createDeployment(ns, 'web', { replicas: 1 });
  let endedWith: { error: unknown } | undefined;
  const tracking = trackRolloutWith(
    { name: 'web', namespace: ns, kubeconfig: kubeConfig(), timeoutSeconds: 120 },
    { watchAfterVerdict: { onEnd: (error) => (endedWith = { error }) } },
  );
  const events: RolloutEvent[] = [];
  const streamEnded = (async () => {
    for await (const e of tracking) events.push(e);
  })();
  const verdict = await tracking.verdict;
  assert.equal(verdict.outcome, 'succeeded', verdict.summary);
  assert.ok(openSourceCount() > 0, 'the watch holds the source after the verdict');

  const { core } = clients();
  const victim = (await core.listNamespacedPod({ namespace: ns })).items[0]!.metadata!.name!;
  await core.deleteNamespacedPod({ name: victim, namespace: ns });
  const after = () => events.slice(events.findIndex((e) => e.type === 'verdict') + 1);
  await waitUntil(() => after().some((e) => e.type === 'pod-deleted' && e.name === victim), { what: `pod-deleted ${victim}` });
  await waitUntil(() => after().some((e) => e.type === 'pod' && e.name !== victim && e.state === 'ready'), {
    what: 'the replacement pod ready',
  });
  assert.deepEqual(
    after().filter((e) => e.type === 'verdict' || e.type === 'started'),
    [],
  );
  assert.equal(endedWith, undefined, 'the watch goes on until stop()');

  tracking.stop();
  assert.deepEqual(await waitUntil(() => endedWith, { what: 'the watch ended by stop()', timeoutMs: 10_000 }), { error: undefined });
  await streamEnded;
  await waitUntil(() => openSourceCount() === 0, { what: 'the source closed' });
});
