/**
 * First contact with an API server that is frozen, down, overloaded, or wrong for good. What can
 * go away (no answer, refused connections, 5xx, 429) is retried until the timeout, with a
 * `waiting for the API server` line after a few seconds; what cannot (a certificate the kubeconfig's
 * CA does not verify, an unknown host name, rejected credentials) fails at once with exit code 3.
 * Faults: the TCP forwarder of tcp-proxy.ts in front of the REAL apiserver (TLS passes through and
 * is verified), and a fault endpoint that only ever answers an HTTP error (test/helpers).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { KubeConfig } from '@kubernetes/client-node';
import type { RolloutEvent } from '../../../src/core/types.js';
import { isRolloutTraceError } from '../../../src/errors.js';
import { trackRollout } from '../../../src/track/index.js';
import { kubeConfigWith, startFaultEndpoint } from '../../helpers/fault-endpoint.js';
import { runCliInProcess as runCli } from '../cli/run-cli.js';
import { createDeployment, kubeConfig, namespaceFor } from './helpers.js';
import { TcpProxy } from './tcp-proxy.js';

/** The real apiserver's host and port. */
function apiserver(): { host: string; port: number } {
  const url = new URL(kubeConfig().getCurrentCluster()!.server);
  return { host: url.hostname, port: Number(url.port || 443) };
}

/** Tracks `name` through `kc`; records events with their time since the start. */
function track(kc: KubeConfig, namespace: string, name: string, timeoutSeconds = 90) {
  const t0 = Date.now();
  const tracking = trackRollout({ name, namespace, kubeconfig: kc, timeoutSeconds });
  const events: Array<RolloutEvent & { ms: number }> = [];
  tracking.subscribe((e) => events.push({ ...e, ms: Date.now() - t0 }));
  const waits = () =>
    events.filter(
      (e): e is Extract<RolloutEvent, { type: 'waiting' }> & { ms: number } => e.type === 'waiting' && e.reason === 'api-server',
    );
  return { tracking, events, waits, t0 };
}

/** Writes `kc` to a kubeconfig file for the CLI. */
function kubeconfigFile(kc: KubeConfig): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rt-kc-'));
  const file = path.join(dir, 'config');
  writeFileSync(file, kc.exportConfig(), { mode: 0o600 });
  return file;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('API server unavailable at the start: wait until the timeout', { concurrency: true }, () => {
  it('frozen for ~8 s from the start (no answer at all), then recovering: the trace waits, says so, and succeeds', async (t) => {
    const ns = await namespaceFor(t, 'api-frozen');
    await createDeployment(ns, 'web');
    const proxy = await TcpProxy.start(apiserver());
    t.after(() => proxy.close());
    proxy.mode = 'blackhole';
    const kc = kubeConfigWith(kubeConfig(), { server: `https://127.0.0.1:${proxy.port}` });
    const { tracking, waits, t0 } = track(kc, ns, 'web');
    await sleep(8000);
    proxy.mode = 'forward';
    const thawed = Date.now() - t0;
    const verdict = await tracking.verdict;
    const ms = Date.now() - t0;
    const first = waits()[0];
    t.diagnostic(
      `frozen until +${thawed} ms; first "waiting" line at +${first?.ms} ms: ${first?.message}; ${verdict.outcome} at +${ms} ms`,
    );
    assert.equal(verdict.outcome, 'succeeded', verdict.summary);
    assert.ok(first, 'a waiting-for-the-API-server line');
    assert.match(
      first.message,
      /^waiting for the API server https:\/\/127\.0\.0\.1:\d+: no answer within 4 s; retrying until the timeout$/,
    );
    assert.ok(first.ms >= 3000 && first.ms < 9000, `line after a few seconds (${first.ms} ms)`);
    assert.ok(ms <= thawed + 5000, `recovers within 5 s of the thaw (${ms - thawed} ms)`);
  });

  it('connections refused for ~10 s (apiserver restarting), then up: the trace waits and succeeds', async (t) => {
    const ns = await namespaceFor(t, 'api-refused');
    await createDeployment(ns, 'web');
    const port = await TcpProxy.freePort();
    const kc = kubeConfigWith(kubeConfig(), { server: `https://127.0.0.1:${port}` });
    const { tracking, waits, t0 } = track(kc, ns, 'web');
    // Refused long enough for the first "waiting" line (after 3 s of failures) to come before the
    // restore even when a loaded machine delays the retries.
    await sleep(10_000);
    const proxy = await TcpProxy.start(apiserver(), port);
    t.after(() => proxy.close());
    const up = Date.now() - t0;
    const verdict = await tracking.verdict;
    const first = waits()[0];
    t.diagnostic(
      `refused until +${up} ms; first "waiting" line at +${first?.ms} ms: ${first?.message}; ${verdict.outcome} at +${Date.now() - t0} ms`,
    );
    assert.equal(verdict.outcome, 'succeeded', verdict.summary);
    assert.match(first?.message ?? '', /connection refused \(ECONNREFUSED\); retrying until the timeout$/);
    assert.ok(
      (first?.ms ?? 0) >= 3000 && (first?.ms ?? 0) < up,
      `line after a few seconds, while refused (${first?.ms} ms; up at ${up} ms)`,
    );
  });

  for (const status of [503, 429]) {
    it(`an endpoint answering HTTP ${status} is retried with back-off until the timeout, then exit-3 error naming it`, async (t) => {
      const endpoint = await startFaultEndpoint(status);
      t.after(() => endpoint.close());
      const kc = kubeConfigWith(kubeConfig(), { server: endpoint.url, caPem: endpoint.certPem });
      const { tracking, waits, t0 } = track(kc, 'default', 'web', 8);
      const err = await tracking.verdict.then(
        (v) => assert.fail(`expected an error, got ${v.outcome}: ${v.summary}`),
        (e: unknown) => e,
      );
      const ms = Date.now() - t0;
      t.diagnostic(`${endpoint.requests} requests in ${ms} ms; waiting line at +${waits()[0]?.ms} ms; ${(err as Error).message}`);
      assert.ok(isRolloutTraceError(err) && err.code === 'cluster-unreachable', String(err));
      assert.match((err as Error).message, new RegExp(`within 8s: HTTP ${status}: fault endpoint answers ${status}`));
      assert.ok(ms >= 7500 && ms < 14_000, `retried until the 8 s timeout (${ms} ms)`);
      assert.ok(endpoint.requests >= 2 && endpoint.requests <= 25, `back-off, not a busy loop (${endpoint.requests} requests)`);
      assert.match(waits()[0]?.message ?? '', new RegExp(`HTTP ${status}: fault endpoint answers ${status}; retrying until the timeout`));
    });
  }
});

describe('errors that cannot go away fail at once, with exit code 3', { concurrency: true }, () => {
  it('a certificate the kubeconfig CA does not verify: a certificate problem naming the server and the CA', async (t) => {
    const endpoint = await startFaultEndpoint(503);
    t.after(() => endpoint.close());
    // The endpoint's self-signed certificate, checked against the test cluster's CA.
    const file = kubeconfigFile(kubeConfigWith(kubeConfig(), { server: endpoint.url }));
    const r = await runCli(['deploy', 'web', '-n', 'default', '--kubeconfig', file, '--timeout', '60s']);
    t.diagnostic(`exit ${r.code} after ${r.ms} ms: ${r.stderr.trim()}`);
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      r.stderr,
      /Certificate problem: the Kubernetes API server https:\/\/127\.0\.0\.1:\d+ \(context "[^"]+"\) presented a certificate/,
    );
    assert.match(r.stderr, /DEPTH_ZERO_SELF_SIGNED_CERT/);
    assert.match(r.stderr, /The kubeconfig trusts the CA ".*" of certificate-authority-data/);
    assert.equal(endpoint.requests, 0, 'no request got past TLS');
    assert.ok(r.ms < 8000, `immediate (${r.ms} ms)`);
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one paragraph');
  });

  it('a host name that does not resolve', async (t) => {
    const file = kubeconfigFile(kubeConfigWith(kubeConfig(), { server: 'https://rollout-trace-no-such-host.invalid:6443' }));
    const r = await runCli(['deploy', 'web', '-n', 'default', '--kubeconfig', file, '--timeout', '60s']);
    t.diagnostic(`exit ${r.code} after ${r.ms} ms: ${r.stderr.trim()}`);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /host name "rollout-trace-no-such-host\.invalid" of the Kubernetes API server .* does not resolve \(ENOTFOUND/);
    assert.ok(r.ms < 8000, `immediate (${r.ms} ms)`);
  });

  it('a token the apiserver rejects (401)', async (t) => {
    const file = kubeconfigFile(kubeConfigWith(kubeConfig(), { token: 'not-a-valid-token' }));
    const r = await runCli(['deploy', 'web', '-n', 'default', '--kubeconfig', file, '--timeout', '60s']);
    t.diagnostic(`exit ${r.code} after ${r.ms} ms: ${r.stderr.trim()}`);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /rejected the credentials of user ".*" \(401 Unauthorized\)/);
    assert.doesNotMatch(r.stderr, /not-a-valid-token/);
    assert.ok(r.ms < 8000, `immediate (${r.ms} ms)`);
  });

  it('a missing kubeconfig file or context', async (t) => {
    const missing = await runCli(['deploy', 'web', '--kubeconfig', '/nonexistent/kubeconfig']);
    const noContext = await runCli(['deploy', 'web', '--kubeconfig', kubeconfigFile(kubeConfig()), '--context', 'nope']);
    t.diagnostic(
      `missing file: exit ${missing.code} after ${missing.ms} ms; missing context: exit ${noContext.code} after ${noContext.ms} ms`,
    );
    assert.equal(missing.code, 3, missing.stderr);
    assert.match(missing.stderr, /Cannot read kubeconfig path "\/nonexistent\/kubeconfig"/);
    assert.equal(noContext.code, 3, noContext.stderr);
    assert.match(noContext.stderr, /Context "nope" is not defined/);
    assert.ok(missing.ms < 8000 && noContext.ms < 8000);
  });
});
