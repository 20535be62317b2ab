/**
 * No request waits on a silent connection: a freezing proxy (test/helpers/freezing-proxy.ts) in
 * front of the REAL apiserver freezes at the trace's start (before the first contact, at the first
 * watch, at the first log read) and thaws {@link FREEZE_MS} later; what froze stays silent for
 * good, as a connection a frozen apiserver or a middlebox dropped. For each kind the trace must
 * see the cluster again within {@link RECOVERY_MS} of the thaw: the first lists, the watches and
 * the log reads sent into the freeze are sent again once a fresh connection answers.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { RolloutEvent, WorkloadKind } from '../../../src/core/types.js';
import { trackRollout } from '../../../src/track/index.js';
import type { DeploymentShape } from '../../helpers/deployment-shape.js';
import { type FreezingProxy, startFreezingProxy } from '../../helpers/freezing-proxy.js';
import { createDaemonSet, createJob, createStatefulSet } from '../../helpers/workloads.js';
import { createDeployment, kubeConfig, namespaceFor, waitUntil } from './helpers.js';

/** How long each freeze lasts (ms): longer than a first probe's 4 s patience. */
const FREEZE_MS = 8000;
/** The first verdict-relevant event must come this soon after the thaw (ms). */
const RECOVERY_MS = 5000;

const KINDS: Record<WorkloadKind, { name: string; create: (ns: string, shape: DeploymentShape) => Promise<unknown> }> = {
  Deployment: { name: 'web', create: (ns, shape) => createDeployment(ns, 'web', { replicas: 1, ...shape }) },
  StatefulSet: { name: 'db', create: (ns, shape) => createStatefulSet(ns, 'db', { replicas: 1, ...shape }) },
  DaemonSet: { name: 'agent', create: (ns, shape) => createDaemonSet(ns, 'agent', shape) },
  Job: { name: 'migrate', create: (ns, shape) => createJob(ns, 'migrate', { backoffLimit: 0, ...shape }) },
};

/** A container that prints two lines and fails 1 s after it starts (a Job's pod fails; the others crash-loop). */
const FAILING: DeploymentShape = {
  image: 'nginx:1.20',
  behaviour: { app: 'crash;exitCode=3;after=1;logs=starting up|fatal: no config' },
  // Never Ready before it crashes: a crash loop, not a rollout that succeeded at the first start.
  container: { readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 60 } },
};
const HEALTHY = (kind: WorkloadKind): DeploymentShape =>
  kind === 'Job' ? { behaviour: { app: 'crash;exitCode=0;after=1;logs=done' } } : {};

type Freeze = 'lists' | 'watches' | 'logs';

/** When each row freezes the proxy: before the trace, at its first watch, at its first log read. */
async function freezeFor(row: Freeze, proxy: FreezingProxy): Promise<void> {
  if (row === 'lists') return proxy.freeze();
  if (row === 'watches') return proxy.freezeOn((_, url) => url.searchParams.get('watch') === 'true');
  return proxy.freezeOn((_, url) => url.pathname.endsWith('/log'));
}

async function frozenCase(t: TestContext, kind: WorkloadKind, row: Freeze): Promise<void> {
  const ns = await namespaceFor(t, `freeze-${row}-${kind.toLowerCase()}`);
  const { name, create } = KINDS[kind];
  const proxy = await startFreezingProxy(kubeConfig());
  t.after(() => proxy.close());
  if (row !== 'logs') await create(ns, HEALTHY(kind));
  const frozen = freezeFor(row, proxy);
  const t0 = Date.now();
  const tracking = trackRollout({ name, namespace: ns, kind, kubeconfig: proxy.kc, timeoutSeconds: 120 });
  t.after(() => tracking.stop('test done'));
  const events: Array<RolloutEvent & { ms: number }> = [];
  tracking.subscribe((e) => events.push({ ...e, ms: Date.now() }));
  if (row === 'logs') await create(ns, FAILING);
  await waitUntil(() => proxy.frozenAt, { what: `the freeze at the ${row}`, timeoutMs: 60_000, intervalMs: 20 }).catch((err: Error) => {
    const verdict = events.find((e) => e.type === 'verdict');
    throw new Error(`${err.message}: ${events.map((e) => e.type).join(' ')}; ${JSON.stringify(verdict)}; requests ${proxy.seen.join(' ')}`);
  });
  await frozen;
  await new Promise((r) => setTimeout(r, FREEZE_MS));
  proxy.thaw();
  const thawedAt = proxy.thawedAt!;
  const verdict = await tracking.verdict;
  const first = events.find((e) => e.ms >= thawedAt && e.type !== 'waiting');
  const ended = events.find((e) => e.type === 'verdict')?.ms ?? Date.now();
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const logs = verdict.problems.flatMap((p) => p.logs ?? []).flatMap((l) => l.lines);
  t.diagnostic(
    `${kind} ${row}: frozen at +${s(proxy.frozenAt! - t0)} for ${s(thawedAt - proxy.frozenAt!)}; first event (${first?.type}) ${first ? s(first.ms - thawedAt) : 'never'} after the thaw; ${verdict.outcome} ${s(ended - thawedAt)} after the thaw; ${logs.length} log lines`,
  );
  assert.ok(first, `an event after the thaw: ${verdict.summary}`);
  assert.ok(first.ms - thawedAt <= RECOVERY_MS, `the first event ${first.ms - thawedAt} ms after the thaw (at most ${RECOVERY_MS})`);
  if (row === 'logs') {
    assert.equal(verdict.outcome, 'failed', verdict.summary);
    assert.ok(logs.includes('fatal: no config'), `the container's log in the failure summary: ${JSON.stringify(verdict.problems)}`);
    assert.ok(ended - thawedAt <= RECOVERY_MS + 5000, `the verdict ${ended - thawedAt} ms after the thaw`);
  } else {
    assert.equal(verdict.outcome, 'succeeded', verdict.summary);
  }
}

// Three cases at a time: twelve at once (twelve traces, proxies and workloads) beside the suite's
// other files starved the control plane on 2 shared cores, which is not what a frozen link is.
describe('a trace frozen at its start sees the cluster again within 5 s of the thaw', { concurrency: 3 }, () => {
  for (const row of ['lists', 'watches', 'logs'] as const) {
    for (const kind of Object.keys(KINDS) as WorkloadKind[]) {
      it(`${kind}: frozen at the ${row}`, (t) => frozenCase(t, kind, row));
    }
  }
});
