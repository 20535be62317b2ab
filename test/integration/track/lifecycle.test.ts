/**
 * The tracker's lifecycle against the real control plane: errors for a missing Deployment,
 * namespace or cluster; cancellation; and releasing every watch so the process exits.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { openSourceCount, watchStats } from '../../../src/cluster/index.js';
import { RolloutTraceError } from '../../../src/errors.js';
import { trackRollout } from '../../../src/track/index.js';
import { kubeconfigPath } from '../../helpers/cluster.js';
import { createDeployment, eventSeen, kubeConfig, namespaceFor, waitRolledOut } from './helpers.js';

function isError(code: string, ...fragments: string[]) {
  return (err: unknown) => {
    assert.ok(err instanceof RolloutTraceError, `a RolloutTraceError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    for (const f of fragments) assert.ok(err.message.includes(f), `message lacks ${JSON.stringify(f)}: ${err.message}`);
    return true;
  };
}

/** Runs the child tracker; resolves with the verdict line and how long the process lived after it. */
function runChild(namespace: string, name: string): Promise<{ line: Record<string, unknown>; exitLagMs: number; code: number | null }> {
  const script = fileURLToPath(new URL('./fixtures/track-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, namespace, name], {
      env: { ...process.env, ROLLOUT_TRACE_KUBECONFIG: kubeconfigPath() },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(killer);
      const exitedAt = Date.now();
      try {
        const line = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
        resolve({ line, exitLagMs: exitedAt - Number(line.at), code });
      } catch (err) {
        reject(new Error(`child printed ${JSON.stringify(out)}: ${String(err)}`));
      }
    });
  });
}

describe('tracker lifecycle', { concurrency: true }, () => {
  it("a missing Deployment is reported after the grace, listing the namespace's Deployments", async (t) => {
    const ns = await namespaceFor(t, 'notfound');
    await createDeployment(ns, 'api');
    const t0 = Date.now();
    const tracking = trackRollout({ name: 'apj', namespace: ns, kubeconfig: kubeConfig(), notFoundGraceSeconds: 2 });
    const events: string[] = [];
    let waitingAt = 0;
    tracking.subscribe((e) => {
      events.push(e.type === 'waiting' ? `waiting:${e.reason}` : e.type);
      if (e.type === 'waiting' && e.reason === 'not-found') waitingAt = Date.now();
    });
    await assert.rejects(tracking.verdict, isError('workload-not-found', `"apj"`, `namespace "${ns}"`, '"api"'));
    const graceMs = Date.now() - waitingAt;
    t.diagnostic(
      `workload-not-found ${Date.now() - t0} ms after start, ${graceMs} ms after the synced lists showed it missing; events ${events.join(',')}`,
    );
    assert.ok(waitingAt > 0, 'a waiting/not-found event first');
    assert.ok(graceMs >= 1900 && graceMs < 5000, `grace ${graceMs} ms`);
  });

  it('a Deployment created during the grace is tracked', async (t) => {
    const ns = await namespaceFor(t, 'late');
    const tracking = trackRollout({ name: 'late', namespace: ns, kubeconfig: kubeConfig(), notFoundGraceSeconds: 20 });
    const events: import('../../../src/core/types.js').RolloutEvent[] = [];
    tracking.subscribe((e) => events.push(e));
    await eventSeen(events, (e) => e.type === 'waiting' && e.reason === 'not-found', 'waiting not-found', 15_000);
    await createDeployment(ns, 'late');
    const v = await tracking.verdict;
    assert.equal(v.outcome, 'succeeded', v.summary);
  });

  it('a missing namespace is reported as namespace-not-found', async () => {
    const tracking = trackRollout({ name: 'web', namespace: 'no-such-namespace-rt', kubeconfig: kubeConfig() });
    await assert.rejects(tracking.verdict, isError('namespace-not-found', '"no-such-namespace-rt"', 'Existing namespaces'));
  });

  // Not port 9 any more: fetch refused to dial it ("bad port"), node:https (raw-get.ts) dials it and is refused, which waiting can fix.
  it('an address that cannot be used (port 99999, out of range) fails at once, naming server and context', async (t) => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'dead', server: 'https://127.0.0.1:99999', skipTLSVerify: true }],
      users: [{ name: 'u', token: 'x' }],
      contexts: [{ name: 'dead-ctx', cluster: 'dead', user: 'u' }],
      currentContext: 'dead-ctx',
    });
    const t0 = Date.now();
    await assert.rejects(
      trackRollout({ name: 'web', namespace: 'default', kubeconfig: kc }).verdict,
      isError('cluster-unreachable', 'https://127.0.0.1:99999', '"dead-ctx"', 'address cannot be used'),
    );
    const ms = Date.now() - t0;
    t.diagnostic(`cluster-unreachable after ${ms} ms`);
    assert.ok(ms < 8000, `no waiting for what cannot go away (${ms} ms; it was 10 s)`);
  });

  it('abort cancels with a cancelled verdict and closes every watch', async (t) => {
    const ns = await namespaceFor(t, 'cancel');
    await createDeployment(ns, 'web', { behaviour: { app: 'slow-start;seconds=60' } });
    const ac = new AbortController();
    const tracking = trackRollout({ name: 'web', namespace: ns, kubeconfig: kubeConfig(), signal: ac.signal });
    const events: import('../../../src/core/types.js').RolloutEvent[] = [];
    tracking.subscribe((e) => events.push(e));
    await eventSeen(events, (e) => e.type === 'pod', 'a pod event');
    const t0 = Date.now();
    ac.abort('user pressed ctrl-c');
    const v = await tracking.verdict;
    assert.equal(v.outcome, 'cancelled');
    assert.ok(Date.now() - t0 < 1000);
    const seen: string[] = [];
    for await (const e of tracking) seen.push(e.type);
    assert.equal(seen.at(-1), 'verdict', 'the iterator replays and ends after the verdict');
  });

  it('after the verdict the process exits on its own (success and failure)', async (t) => {
    const ns = await namespaceFor(t, 'exit');
    await createDeployment(ns, 'ok');
    await createDeployment(ns, 'broken', { image: 'nginx:1.99-does-not-exist' });
    await waitRolledOut(ns, 'ok');
    const [ok, broken] = await Promise.all([runChild(ns, 'ok'), runChild(ns, 'broken')]);
    t.diagnostic(`exit lag after verdict: success ${ok.exitLagMs} ms, failure ${broken.exitLagMs} ms`);
    assert.equal(ok.line.outcome, 'succeeded', JSON.stringify(ok.line));
    assert.equal(broken.line.outcome, 'failed', JSON.stringify(broken.line));
    assert.equal(ok.code, 0);
    assert.ok(ok.exitLagMs < 1500, `exited ${ok.exitLagMs} ms after the verdict`);
    assert.ok(broken.exitLagMs < 1500, `exited ${broken.exitLagMs} ms after the verdict`);
  });

  it('no source stays open once every tracker in this process finished', async (t) => {
    const ns = await namespaceFor(t, 'release');
    await createDeployment(ns, 'web');
    const v = await trackRollout({ name: 'web', namespace: ns, kubeconfig: kubeConfig() }).verdict;
    assert.equal(v.outcome, 'succeeded');
    // Other trackers of this file may still run concurrently; wait for them to finish.
    const deadline = Date.now() + 120_000;
    while (openSourceCount() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(openSourceCount(), 0);
    assert.ok(
      Object.values(watchStats().active).every((n) => n === 0),
      JSON.stringify(watchStats().active),
    );
  });
});
