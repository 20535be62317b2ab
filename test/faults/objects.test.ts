/**
 * Fault suite on the shared cluster: what people do to a Deployment while it rolls out. Deleted,
 * its namespace deleted, superseded by a second change, undone, paused, scaled. The real CLI must
 * reach the right verdict and exit within 1 s of printing it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clients, withNamespace } from '../helpers/cluster.js';
import { createDeployment, type DeploymentShape, editDeployment, updateDeployment, waitRolledOut } from '../helpers/deployments.js';
import { deployArgs, expectVerdict, figure, outputOf, traceCli } from '../helpers/faults.js';

const V1: DeploymentShape = { replicas: 2, image: 'nginx:1.19' };
/** Revision 2, whose pods take 60 s to start: the rollout is still under way when the test acts. */
const SLOW_V2: DeploymentShape = { replicas: 2, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=60' } };
const REVISION_2_STARTED = /pod web-\S+ \(revision 2\): container-creating/;

/** A namespace with `web` rolled out at V1, then changed to SLOW_V2 (revision 2 under way). */
async function slowSecondRevision(t: Parameters<typeof withNamespace>[0], prefix: string): Promise<string> {
  const ns = await withNamespace(t, prefix);
  await createDeployment(ns, 'web', V1);
  await waitRolledOut(ns, 'web');
  await updateDeployment(ns, 'web', SLOW_V2);
  return ns;
}

describe('fault: the Deployment changes under the trace', { concurrency: true }, () => {
  it('Deployment deleted mid-rollout: FAILED at once, exit 1', async (t) => {
    const ns = await slowSecondRevision(t, 'fault-deleted');
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '120s'), [
      { when: REVISION_2_STARTED, run: () => clients().apps.deleteNamespacedDeployment({ name: 'web', namespace: ns }) },
    ]);
    figure(t, 'Deployment deleted mid-rollout', run);
    expectVerdict(run, { code: 1, verdict: /FAILED - .*was deleted/ });
  });

  it('namespace deleted mid-rollout: FAILED, exit 1', async (t) => {
    const ns = await slowSecondRevision(t, 'fault-ns-deleted');
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '120s'), [
      { when: REVISION_2_STARTED, run: () => clients().core.deleteNamespace({ name: ns }) },
    ]);
    figure(t, 'namespace deleted mid-rollout', run);
    expectVerdict(run, { code: 1, verdict: /FAILED - .*deleted/ });
  });

  it('superseded by a second template change mid-rollout: the newest revision is tracked to success', async (t) => {
    const ns = await slowSecondRevision(t, 'fault-superseded');
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '120s'), [
      { when: REVISION_2_STARTED, run: () => updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.21' }) },
    ]);
    figure(t, 'superseded mid-rollout', run);
    expectVerdict(run, { code: 0, verdict: /SUCCEEDED - revision 3 rolled out: 2\/2 pods ready/ });
    assert.ok(/revision 2 superseded by revision 3/.test(run.stdout), outputOf(run));
  });

  it("undo mid-rollout (revision 1's template put back): a success that says it is a rollback to revision 1's template", async (t) => {
    const ns = await slowSecondRevision(t, 'fault-undo');
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '120s'), [
      { when: REVISION_2_STARTED, run: () => updateDeployment(ns, 'web', V1) },
    ]);
    figure(t, 'undo mid-rollout', run);
    expectVerdict(run, { code: 0, verdict: /SUCCEEDED - revision 3 .*rolled out: 2\/2 pods ready/ });
    // The verdict says it is a rollback, and which revision's template it restored.
    assert.match(run.verdictLine!, /rollback/i);
    assert.match(run.verdictLine!, /revision 1\b/);
  });

  it('paused mid-rollout: its own verdict naming the pause, with the `kubectl rollout resume` hint, exit 1', async (t) => {
    const ns = await slowSecondRevision(t, 'fault-paused');
    const pause = () =>
      editDeployment(ns, 'web', (d) => {
        d.spec!.paused = true;
      });
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '60s'), [{ when: REVISION_2_STARTED, run: pause }]);
    figure(t, 'paused mid-rollout', run);
    // Never a silent wait until the timeout; the default policy fails after a short window.
    expectVerdict(run, { code: 1, verdict: /paused/i });
    assert.ok(/kubectl .*rollout resume/.test(run.stdout.slice(run.stdout.indexOf(run.verdictLine!))), outputOf(run));
  });

  it('scaled mid-rollout: waits for the new replica count, then succeeds', async (t) => {
    const ns = await withNamespace(t, 'fault-scaled');
    await createDeployment(ns, 'web', V1);
    await waitRolledOut(ns, 'web');
    await updateDeployment(ns, 'web', { ...SLOW_V2, behaviour: { app: 'slow-start;seconds=10' } });
    // Retried on 409: the controller writes the status meanwhile.
    const scale = () =>
      editDeployment(ns, 'web', (d) => {
        d.spec!.replicas = 3;
      });
    const run = await traceCli(deployArgs(ns, 'web', '--timeout', '120s'), [{ when: REVISION_2_STARTED, run: scale }]);
    figure(t, 'scaled mid-rollout', run);
    expectVerdict(run, { code: 0, verdict: /SUCCEEDED - revision 2 rolled out: 3\/3 pods ready/ });
  });
});
