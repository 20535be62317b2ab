/**
 * Answers that come late, through a holding proxy (test/helpers/holding-proxy.ts) in front of the
 * REAL apiserver: a first list the apiserver does not answer for a while is said (a trace that sees
 * nothing is never silent), and a log stream that opens late still gives the failure summary the
 * container's log.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import { trackRollout } from '../../../src/track/index.js';
import { startHoldingProxy } from '../../helpers/holding-proxy.js';
import { createDeployment, kubeConfig, namespaceFor, waitRolledOut, waitUntil } from './helpers.js';

const HOLD_MS = 9000;

describe('answers that come late', { concurrency: true }, () => {
  it('a first list held for 9 s: a line names what the trace waits for, then the rollout succeeds', async (t) => {
    const ns = await namespaceFor(t, 'late-list');
    await createDeployment(ns, 'web', { replicas: 1 });
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    const proxy = await startHoldingProxy(kubeConfig(), (_, url) => url.pathname === path && url.searchParams.get('watch') !== 'true');
    t.after(() => proxy.close());
    const t0 = Date.now();
    const tracking = trackRollout({ name: 'web', namespace: ns, kubeconfig: proxy.kc, timeoutSeconds: 60 });
    t.after(() => tracking.stop('test done'));
    const events: Array<RolloutEvent & { ms: number }> = [];
    tracking.subscribe((e) => events.push({ ...e, ms: Date.now() - t0 }));
    await waitUntil(() => proxy.held.length > 0, { what: 'the Deployment list held', timeoutMs: 20_000, intervalMs: 20 });
    await new Promise((r) => setTimeout(r, HOLD_MS));
    const released = Date.now() - t0;
    proxy.release();
    const verdict = await tracking.verdict;
    const waiting = events.find((e) => e.type === 'waiting');
    t.diagnostic(
      `held until +${released} ms; line at +${waiting?.ms} ms: ${waiting?.type === 'waiting' ? waiting.message : '-'}; ${verdict.outcome}`,
    );
    assert.ok(waiting?.type === 'waiting', `a waiting line while the list is held: ${events.map((e) => e.type).join(' ')}`);
    assert.match(waiting.message, /no answer to the first list of deployments in namespace "[^"]+" for \d+ s; retrying until the timeout$/);
    assert.ok(waiting.ms < released, `said while the list was held (+${waiting.ms} ms)`);
    assert.equal(verdict.outcome, 'succeeded', verdict.summary);
  });

  it('a trace that joins a shared source before its first contact answered still gets the objects listed before it', async (t) => {
    const ns = await namespaceFor(t, 'late-join');
    await createDeployment(ns, 'a', { replicas: 1 });
    await createDeployment(ns, 'b', { replicas: 1 });
    await waitRolledOut(ns, 'b');
    // The first contact (GET of the namespace) is held; the lists go out beside it and answer.
    const contact = `/api/v1/namespaces/${ns}`;
    const proxy = await startHoldingProxy(kubeConfig(), (method, url) => method === 'GET' && url.pathname === contact);
    t.after(() => proxy.close());
    const first = trackRollout({ name: 'a', namespace: ns, kubeconfig: proxy.kc, timeoutSeconds: 60 });
    t.after(() => first.stop('test done'));
    // The Deployment list answered (its watch follows it) while the first contact is still held.
    const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
    await waitUntil(() => proxy.seen.some((r) => r.startsWith(`GET ${deployments}?`) && r.includes('watch=true')), {
      what: 'the Deployment watch opened after its list',
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    assert.ok(proxy.held.length > 0, `the first contact is still held: ${proxy.seen.join(' ')}`);
    // Another workload of the namespace is traced now: it joins the running source.
    const second = trackRollout({ name: 'b', namespace: ns, kubeconfig: proxy.kc, timeoutSeconds: 30 });
    t.after(() => second.stop('test done'));
    proxy.release();
    const verdict = await second.verdict;
    assert.equal(verdict.outcome, 'succeeded', `b is rolled out: ${verdict.summary}`);
    assert.equal((await first.verdict).outcome, 'succeeded');
  });

  it("a log stream that opens late still gives the failure summary the container's log", async (t) => {
    const ns = await namespaceFor(t, 'late-stream');
    const proxy = await startHoldingProxy(
      kubeConfig(),
      (_, url) => url.pathname.endsWith('/log') && url.searchParams.get('follow') === 'true',
    );
    t.after(() => proxy.close());
    const tracking = trackRollout({ name: 'web', namespace: ns, kubeconfig: proxy.kc, timeoutSeconds: 90, logs: { follow: true } });
    t.after(() => tracking.stop('test done'));
    await createDeployment(ns, 'web', {
      replicas: 1,
      image: 'nginx:1.20',
      behaviour: { app: 'crash;exitCode=3;after=1;logs=starting up|fatal: no config' },
      container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 60 } },
    });
    await waitUntil(() => proxy.held.length > 0, { what: 'a log stream held', timeoutMs: 30_000, intervalMs: 20 });
    await new Promise((r) => setTimeout(r, 3000));
    proxy.release();
    const verdict = await tracking.verdict;
    const logs = verdict.problems.flatMap((p) => p.logs ?? []).flatMap((l) => l.lines);
    t.diagnostic(
      `${verdict.outcome}: ${verdict.summary}; ${logs.length} log lines; streams ${proxy.seen.filter((r) => r.includes('follow=true')).length}`,
    );
    assert.equal(verdict.outcome, 'failed', verdict.summary);
    assert.ok(logs.includes('fatal: no config'), `the container's log in the failure summary: ${JSON.stringify(verdict.problems)}`);
  });
});
