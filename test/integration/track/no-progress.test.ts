/**
 * The no-progress timeout against the real control plane: a pod stuck in ContainerCreating ends
 * the trace after `noProgressTimeoutSeconds` (naming the pod), long before the overall timeout;
 * a rollout whose steps come faster than the window is not cut short.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDeployment, describeVerdict, namespaceFor, trace } from './helpers.js';

describe('no-progress timeout', { concurrency: true }, () => {
  it('a pod stuck in ContainerCreating times out after the no-progress window, naming the pod', async (t) => {
    const ns = await namespaceFor(t, 'noprog');
    await createDeployment(ns, 'web', { behaviour: { app: 'slow-start;seconds=60' } });
    const r = await trace(ns, 'web', { timeoutSeconds: 120, noProgressTimeoutSeconds: 5 });
    t.diagnostic(describeVerdict(r));
    t.diagnostic(`summary: ${r.verdict.summary}`);
    const lastProgress = r.events.filter((e) => ['pod', 'replicaset', 'progress', 'phase', 'revision'].includes(e.type)).at(-1);
    t.diagnostic(
      `last progress event: ${lastProgress?.type} at +${lastProgress ? ((lastProgress.at - r.verdict.startedAt) / 1000).toFixed(1) : '?'} s; verdict at +${((r.verdict.finishedAt - r.verdict.startedAt) / 1000).toFixed(1)} s`,
    );
    assert.equal(r.verdict.outcome, 'timed-out', r.verdict.summary);
    assert.equal(r.verdict.timeoutKind, 'no-progress');
    assert.equal(r.verdict.timeoutSeconds, 5);
    assert.match(r.verdict.summary, /^no progress for 5s waiting for revision 1: 0\/1 pods ready/);
    const pod = r.of('pod').at(-1)?.name;
    assert.ok(pod && r.verdict.summary.includes(pod), `the summary names the pending pod ${pod}`);
    assert.ok(r.ms >= 5000 && r.ms < 60_000, `ended after the window, not the overall timeout (${r.ms} ms)`);
    const quiet = lastProgress ? r.verdict.finishedAt - lastProgress.at : -1;
    assert.ok(quiet >= 5000 && quiet < 8000, `measured from the last progress: ${quiet} ms after it`);
  });

  it('a rollout whose steps come within the window is not cut short', async (t) => {
    const ns = await namespaceFor(t, 'noprog-ok');
    await createDeployment(ns, 'web', { behaviour: { app: 'slow-start;seconds=4' } });
    const r = await trace(ns, 'web', { timeoutSeconds: 120, noProgressTimeoutSeconds: 10 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    assert.equal(r.verdict.timeoutKind, undefined);
  });
});
