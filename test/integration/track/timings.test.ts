/**
 * The verdict's timings against the real apiserver: an image pulled while the trace runs is read
 * from the kubelet's `Pulled` Event (the watch brings it; the Event list leaves `Pulled` out), and
 * a pod started before the trace has no image-pull figure rather than a wrong one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDeployment, describeVerdict, eventSeen, namespaceFor, trace, waitRolledOut } from './helpers.js';

/** A pull that takes 2 s on the simulated kubelet (pull policy Always: never "already present"). */
const SLOW_PULL = { behaviour: { app: 'slow-start;seconds=2' }, container: { imagePullPolicy: 'Always' as const } };

describe('timings', { concurrency: true }, () => {
  it('an image pulled while the trace runs: its pull time, from the Pulled Event', async (t) => {
    const ns = await namespaceFor(t, 'timings-pull');
    const r = await trace(ns, 'web', {}, async (events) => {
      await eventSeen(events, (e) => e.type === 'started', 'the trace started');
      await createDeployment(ns, 'web', SLOW_PULL);
    });
    t.diagnostic(`${describeVerdict(r)}; timings ${JSON.stringify(r.verdict.timings?.pods)}`);
    assert.equal(r.verdict.outcome, 'succeeded');
    const pod = r.verdict.timings?.pods[0];
    assert.ok(pod && (pod['image-pull'] ?? 0) >= 1.5, `the 2 s pull is counted: ${JSON.stringify(pod)}`);
  });

  it('a pod started before the trace: no image-pull figure, and no container start that would hold it', async (t) => {
    const ns = await namespaceFor(t, 'timings-before');
    await createDeployment(ns, 'web', SLOW_PULL);
    await waitRolledOut(ns, 'web');
    const r = await trace(ns, 'web');
    t.diagnostic(`${describeVerdict(r)}; timings ${JSON.stringify(r.verdict.timings?.pods)}`);
    assert.equal(r.verdict.outcome, 'succeeded');
    const pod = r.verdict.timings?.pods[0];
    assert.ok(pod?.scheduling !== undefined, `its other phases are there: ${JSON.stringify(pod)}`);
    assert.equal(pod['image-pull'], undefined);
    assert.equal(pod['container-start'], undefined, 'the 2 s pull is not counted as a container start');
  });
});
