/**
 * Fault suite: the kube-apiserver of a private control plane killed and restarted, and frozen
 * (SIGSTOP) mid-rollout and from before the trace starts. The real CLI must reach the right
 * verdict and exit within 1 s of printing it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { withNamespace } from '../helpers/cluster.js';
import { deployArgs, expectVerdict, figure, outputOf, survivesMidRollout, traceCli } from '../helpers/faults.js';
import { usePrivateCluster } from '../helpers/private-cluster.js';
import { createDeployment } from '../integration/track/helpers.js';

const cluster = usePrivateCluster();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// One case at a time: each one takes the whole control plane down.
describe('fault: kube-apiserver', { timeout: 20 * 60_000 }, () => {
  it('killed and restarted mid-rollout: the rollout succeeds once it is back', async (t) => {
    await survivesMidRollout(t, 'apiserver killed and restarted mid-rollout', async () => {
      const t0 = Date.now();
      await cluster().kill('kube-apiserver');
      await sleep(2000);
      await cluster().restart('kube-apiserver');
      return `apiserver down ${seconds(Date.now() - t0)}`;
    });
  });

  it('frozen for 20 s mid-rollout: the rollout succeeds once it answers again', async (t) => {
    await survivesMidRollout(t, 'apiserver frozen 20 s mid-rollout', async () => {
      cluster().freeze('kube-apiserver');
      await sleep(20_000).finally(() => cluster().thaw('kube-apiserver'));
      const t0 = Date.now();
      await cluster().waitHealthy('kube-apiserver');
      return `ready ${seconds(Date.now() - t0)} after the thaw`;
    });
  });

  it('frozen for 20 s from before the trace starts: retried with a line saying so, then the rollout succeeds', async (t) => {
    const ns = await withNamespace(t, 'fault-api-frozen-start');
    await createDeployment(ns, 'web', { replicas: 1, behaviour: { app: 'slow-start;seconds=3' } });
    cluster().freeze('kube-apiserver');
    // 20 s counted from when the CLI is up (its start-up under load must not eat the freeze).
    const thaw = { when: /tracing rollout/, run: () => sleep(20_000).then(() => cluster().thaw('kube-apiserver')) };
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '120s'), [thaw]).finally(() => cluster().thaw('kube-apiserver'));
    figure(t, 'apiserver frozen 20 s at start', run);
    // Not "Cannot reach ... within 10 s: HTTP 23" (exit 3), but retried until --timeout.
    expectVerdict(run, { code: 0, verdict: /SUCCEEDED - revision 1 rolled out: 1\/1 pods ready/ });
    const before = `${run.stdout.slice(0, run.stdout.indexOf(run.verdictLine!))}${run.stderr}`;
    assert.ok(
      /API server[^\n]*(retry|not answer|waiting)|(retry|waiting)[^\n]*API server/i.test(before),
      `a line says the API server is retried\n${outputOf(run)}`,
    );
  });
});
