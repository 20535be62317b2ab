/**
 * A request sent into a silent connection is sent again once a probe on a fresh connection answers
 * (src/cluster/unanswered.ts, reachability.ts): against a local HTTP server that leaves every
 * request silent until it "thaws", and answers every request that comes after.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { rawGet } from '../../../src/cluster/raw-get.js';
import { checkReachable, HEDGE_MS } from '../../../src/cluster/reachability.js';
import { oldestUnanswered } from '../../../src/cluster/unanswered.js';
import { localKubeConfig } from '../../helpers/local-kubeconfig.js';

/** A server silent while `frozen`; what came while frozen stays silent for good. */
async function freezable() {
  const state = { frozen: true, requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    if (state.frozen) return;
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ kind: 'Namespace', path: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { state, url, close };
}

describe('requests on silent connections', () => {
  it('a list sent into the freeze is sent again once a hedged probe answers after the thaw', async (t) => {
    const server = await freezable();
    t.after(server.close);
    const kc = localKubeConfig(server.url);
    const list = rawGet<{ path: string }>(kc, '/api/v1/namespaces/ns/pods', {});
    const reached = checkReachable(kc, 'ns', { attemptMs: 30_000 });
    await new Promise((r) => setTimeout(r, 2 * HEDGE_MS));
    assert.ok(oldestUnanswered(new URL(server.url).origin) !== undefined, 'the list waits for its answer');
    server.state.frozen = false;
    const thawed = Date.now();
    await reached;
    const answer = await list;
    const ms = Date.now() - thawed;
    t.diagnostic(`answered ${ms} ms after the thaw; ${server.state.requests} requests`);
    assert.equal(answer.path, '/api/v1/namespaces/ns/pods');
    assert.ok(ms <= HEDGE_MS + 1000, `the list answered ${ms} ms after the thaw, not after the probe's 30 s patience`);
    assert.equal(oldestUnanswered(new URL(server.url).origin), undefined, 'nothing left waiting');
  });

  it('a probe answered at once sends nothing again: a slow request is only slow', async (t) => {
    const server = await freezable();
    t.after(server.close);
    const kc = localKubeConfig(server.url);
    const slow = rawGet(kc, '/api/v1/namespaces/ns/events', {}, AbortSignal.timeout(3000)).catch((err: Error) => err.name);
    await new Promise((r) => setTimeout(r, 200));
    server.state.frozen = false;
    await checkReachable(kc, 'ns');
    assert.equal(await slow, 'TimeoutError', 'the first request was left alone');
    assert.equal(server.state.requests, 2, 'one list, one probe');
  });
});
