/**
 * The opt-in live log stream (`logs: { follow }`) against the simulated kubelet's log server,
 * reached through the real apiserver: lines arrive before the verdict, redacted, filtered, and
 * stop with the verdict.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchLogTail, POD_GONE_UNREAD } from '../../../src/cluster/index.js';
import { clients, createDeployment, describeVerdict, kubeConfig, namespaceFor, trace, waitUntil } from './helpers.js';

/** Never Ready (its readiness probe fails), crashes after 6 s: a rollout that fails as a crash loop. */
const PROBE = { readinessProbe: { httpGet: { path: '/ready', port: 80 }, periodSeconds: 1 } };
const CHATTY = 'crash;not-ready;after=6;logs=booting worker|DB_PASSWORD=hunter2|connecting as hunter7|ERROR cannot reach db:5432';

describe('live log stream', { concurrency: true }, () => {
  it("streams each new-revision pod's log while it rolls out, redacted, and nothing after the verdict", async (t) => {
    const ns = await namespaceFor(t, 'logs-follow');
    await createDeployment(ns, 'chatty', { replicas: 2, behaviour: { app: CHATTY }, container: PROBE });
    const r = await trace(ns, 'chatty', { logs: { follow: true, redact: ['hunter\\d'] } });
    t.diagnostic(describeVerdict(r));
    const logs = r.of('log');
    t.diagnostic(`${logs.length} log lines from ${new Set(logs.map((l) => l.pod)).size} pods; first: ${logs[0]?.line}`);
    assert.equal(r.verdict.outcome, 'failed');
    assert.equal(new Set(logs.map((l) => l.pod)).size, 2, 'both pods of the new ReplicaSet');
    assert.ok(logs.every((l) => l.container === 'app' && l.revision === '1' && l.deployment.name === 'chatty'));
    assert.ok(logs.some((l) => l.line === 'booting worker'));
    assert.ok(
      logs.some((l) => l.line === 'DB_PASSWORD=***'),
      'built-in redaction',
    );
    assert.ok(
      logs.some((l) => l.line === 'connecting as ***'),
      "the user's pattern",
    );
    assert.ok(
      logs.some((l) => l.line === 'fatal: exiting with status 1'),
      'the crash itself, streamed as it happened',
    );
    assert.doesNotMatch(JSON.stringify(r.events), /hunter\d/, 'no secret anywhere: log events, verdict tails');
    const tails = r.verdict.problems.flatMap((p) => p.logs ?? []).flatMap((tail) => tail.lines);
    assert.ok(tails.includes('DB_PASSWORD=***'), `the verdict's tails are redacted too: ${JSON.stringify(tails)}`);
    const verdictAt = r.events.findIndex((e) => e.type === 'verdict');
    assert.equal(verdictAt, r.events.length - 1, 'the verdict is the last event: the streams closed before it');
    const firstLog = r.events.findIndex((e) => e.type === 'log');
    const firstCrash = r.events.findIndex((e) => e.type === 'problem' && e.problem.class === 'crash-loop');
    assert.ok(firstLog >= 0 && firstCrash > firstLog, 'the log arrived while the container ran, before the crash was diagnosed');
  });

  it('a trace that starts after the crash still streams the instance that ended', async (t) => {
    const ns = await namespaceFor(t, 'logs-late');
    const app = 'crash;not-ready;exitCode=3;after=1;logs=booting|fatal: no DATABASE_URL';
    await createDeployment(ns, 'late', { behaviour: { app }, container: PROBE });
    const { core } = clients();
    await waitUntil(
      async () => {
        const pods = (await core.listNamespacedPod({ namespace: ns })).items;
        return pods.some((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff');
      },
      { what: 'the container waiting to restart after its crash', timeoutMs: 60_000 },
    );
    const r = await trace(ns, 'late', { logs: { follow: true }, timeoutSeconds: 60 });
    t.diagnostic(`${describeVerdict(r)}; lines: ${JSON.stringify(r.of('log').map((l) => l.line))}`);
    assert.equal(r.verdict.outcome, 'failed');
    const lines = r.of('log').map((l) => l.line);
    assert.ok(lines.includes('booting') && lines.includes('fatal: no DATABASE_URL'), 'the ended instance was read to its end');
  });

  it('grep and containers narrow the stream; without follow nothing is streamed', async (t) => {
    const ns = await namespaceFor(t, 'logs-grep');
    await createDeployment(ns, 'chatty', {
      behaviour: { app: CHATTY, side: 'logs=sidecar says ERROR too' },
      podSpec: {
        containers: [
          { name: 'app', image: 'nginx:1.19', ...PROBE },
          { name: 'side', image: 'nginx:1.19' },
        ],
      },
    });
    const [filtered, plain] = await Promise.all([
      trace(ns, 'chatty', { logs: { follow: { grep: 'ERROR|fatal', containers: ['app'] } }, timeoutSeconds: 20 }),
      trace(ns, 'chatty', { timeoutSeconds: 20 }),
    ]);
    t.diagnostic(`${describeVerdict(filtered)}; lines: ${JSON.stringify(filtered.of('log').map((l) => `${l.container}: ${l.line}`))}`);
    const lines = filtered.of('log');
    assert.ok(lines.length >= 2, 'the matching lines arrived');
    assert.ok(
      lines.every((l) => l.container === 'app' && /ERROR|fatal/.test(l.line)),
      'only matching lines of the chosen container',
    );
    assert.equal(plain.of('log').length, 0, 'the stream is opt-in');
  });

  it('a log read of a pod that is gone says the pod was deleted before its log was read, not HTTP 404', async (t) => {
    const ns = await namespaceFor(t, 'logs-gone');
    const gone = await fetchLogTail(kubeConfig(), ns, 'web-0', 'app');
    assert.deepEqual(gone, { pod: 'web-0', container: 'app', previous: false, lines: [], error: POD_GONE_UNREAD });
    const invalid = await fetchLogTail(kubeConfig(), 'kube-system', 'web-0', 'app', { tailLines: -1 });
    assert.match(invalid.error ?? '', /^HTTP 422: PodLogOptions "web-0" is invalid/, 'another failure keeps its own words');
  });
});
