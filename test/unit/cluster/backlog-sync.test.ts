/**
 * The source's side of the Event backlog (src/cluster/backlog-sync.ts) against a local HTTP server
 * that answers every request 500: the replay's watches fail until it counts as broken, and the
 * named list is refused. A subscriber synced with replayed Events is then told `missing`, and
 * still `listed` once the Event list is in (without it, the core never knows the Events again).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { KubeConfig } from '@kubernetes/client-node';
import { BacklogSync } from '../../../src/cluster/backlog-sync.js';
import { SubscriberIndex, type Subscription } from '../../../src/cluster/routing.js';
import type { Observation } from '../../../src/core/types.js';
import { waitUntil } from '../../helpers/cluster.js';
import { localKubeConfig } from '../../helpers/local-kubeconfig.js';

async function failingServer(): Promise<{ kc: KubeConfig; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"kind":"Status","code":500}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kc = localKubeConfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return { kc, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('BacklogSync: what a subscriber synced with replayed Events is told', () => {
  it('a broken replay: `missing`, then `listed` once the Event list is in', async (t) => {
    const { kc, requests, close } = await failingServer();
    t.after(close);
    const seen: Observation[] = [];
    const subs = new SubscriberIndex();
    const sub: Subscription = {
      s: { workloadName: 'web', kind: 'Deployment', onObservation: (o) => seen.push(o), onError: () => undefined },
      synced: true,
      pending: [],
      replayed: true,
    };
    subs.add(sub);
    const sync = new BacklogSync({
      kc,
      namespace: 'ns',
      subs,
      route: () => undefined,
      now: () => 0,
      resync: () => undefined,
      selector: () => undefined,
    });
    t.after(() => sync.stop());
    sync.start('1000', { revisions: 10, replicaSets: false }, false);
    const told = () => seen.flatMap((o) => (o.type === 'event-backlog' ? [o.events] : []));
    await waitUntil(() => told().includes('missing'), { what: 'the replay counted as broken', timeoutMs: 10_000, intervalMs: 20 });
    assert.ok(
      requests.some((r) => r.includes('continue=')),
      `the named list was tried: ${requests.join(' ')}`,
    );
    sync.listed();
    assert.deepEqual(told().at(-1), 'listed');
    assert.equal(sub.replayed, false);
  });
});
