/**
 * A crash loop is never a success, on the real control plane: a container that crashes 1 s after
 * it starts (Ready in between) and a liveness-killed container whose readiness flaps must fail,
 * whenever the trace starts (here: at the change, and once a new pod is Ready after a restart).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import {
  clients,
  createDeployment,
  type DeploymentShape,
  describeVerdict,
  namespaceFor,
  type Traced,
  trace,
  updateDeployment,
  waitRolledOut,
  waitUntil,
} from './helpers.js';

const CRASH: DeploymentShape = { replicas: 2, image: 'nginx:1.20', behaviour: { app: 'crash;exitCode=3;message=boom;after=1' } };
const FLAP: DeploymentShape = {
  replicas: 2,
  image: 'nginx:1.20',
  behaviour: { app: 'not-live' },
  container: { livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 1, failureThreshold: 2 } },
};

const restartedAndReady = (p: V1Pod) =>
  (p.status?.containerStatuses ?? []).some((c) => (c.restartCount ?? 0) >= 1 && c.ready && c.state?.running !== undefined);

/** Waits until a pod of the new template is Ready again after a restart: the moment a naive predicate says SUCCEEDED. */
async function untilRestartedAndReady(ns: string, image: string): Promise<void> {
  await waitUntil(
    async () => {
      const pods = await clients().core.listNamespacedPod({ namespace: ns });
      return pods.items.some((p) => p.spec?.containers[0]?.image === image && restartedAndReady(p));
    },
    { what: 'a new pod Ready after a restart', timeoutMs: 90_000, intervalMs: 100 },
  );
}

interface Row {
  name: string;
  shape: DeploymentShape;
  /** Start tracing at the change, or once a new pod is Ready after a restart. */
  start: 'at-change' | 'restarted-and-ready';
}

/** One pod, Ready 2 s between crashes: the Deployment looks complete at each restart. */
const CRASH_ONE: DeploymentShape = { replicas: 1, image: 'nginx:1.20', behaviour: { app: 'crash;exitCode=3;message=boom;after=2' } };

const rows: Row[] = [
  {
    name: 'one pod Ready 2 s between crashes, traced once it is Ready again after a crash',
    shape: CRASH_ONE,
    start: 'restarted-and-ready',
  },
  // minReadySeconds 2: a rollout whose pods crash 1 s after they start cannot complete before the
  // first crash (without it, a rollout done within that second is a success by any rule).
  { name: 'crash 1 s after start, traced from the change', shape: { ...CRASH, minReadySeconds: 2 }, start: 'at-change' },
  { name: 'crash 1 s after start, traced once a new pod is Ready again after a crash', shape: CRASH, start: 'restarted-and-ready' },
  {
    name: 'flapping readiness (liveness kills, Ready in between), traced once a new pod is Ready again after a kill',
    shape: FLAP,
    start: 'restarted-and-ready',
  },
];

describe('a crash loop is never a success', { concurrency: true }, () => {
  for (const row of rows) {
    it(row.name, async (t) => {
      const ns = await namespaceFor(t, 'crash');
      await createDeployment(ns, 'web', { replicas: 2 });
      await waitRolledOut(ns, 'web');
      const changed = await updateDeployment(ns, 'web', row.shape);
      if (row.start === 'restarted-and-ready') await untilRestartedAndReady(ns, row.shape.image ?? '');
      const r: Traced = await trace(ns, 'web', { timeoutSeconds: 180, minGeneration: changed.metadata?.generation });
      t.diagnostic(`${describeVerdict(r)}; held ${r.of('held').length}x`);
      assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
      assert.equal(r.verdict.problems[0]?.class, 'crash-loop', r.verdict.summary);
      assert.ok(!r.of('phase').some((e) => e.phase === 'complete'), 'never announced complete');
    });
  }
});
