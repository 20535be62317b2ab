/**
 * A dead kubelet: a Deployment whose pod lands on a node that stops its heartbeats. The trace
 * diagnoses `node-not-ready` (node name, since when, the Ready condition) instead of waiting for
 * the timeout.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startPrivateNode } from '../../helpers/private-node.js';
import { createDeployment, describeVerdict, namespaceFor, trace } from './helpers.js';

it('a pod on a node whose kubelet died is diagnosed node-not-ready with the node, since when and why', async (t) => {
  const ns = await namespaceFor(t, 'node-dead');
  const node = await startPrivateNode(t);
  await node.kubelet.stop(); // heartbeats stop; the Node stays Ready for the grace period (40 s)
  const stoppedAt = Date.now();
  // The pod tolerates the unreachable taint for ever: it is never evicted, so only the diagnosis ends this.
  await createDeployment(ns, 'web', {
    podSpec: {
      ...node.podSpec,
      tolerations: [
        ...(node.podSpec.tolerations ?? []),
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      ],
    },
  });
  const r = await trace(ns, 'web', { timeoutSeconds: 240, policy: { classes: { 'node-not-ready': { afterSeconds: 10 } } } });
  const first = r.of('problem').find((e) => e.problem.class === 'node-not-ready');
  t.diagnostic(
    `kubelet stopped; node-not-ready diagnosed ${first ? ((first.at - stoppedAt) / 1000).toFixed(1) : '?'} s later; ${describeVerdict(r)}`,
  );
  assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
  const p = r.verdict.problems[0]!;
  assert.equal(p.class, 'node-not-ready');
  assert.equal(p.node?.name, node.name);
  assert.equal(p.node?.status, 'Unknown');
  assert.equal(p.reason, 'NodeStatusUnknown');
  assert.match(p.node?.since ?? '', /^\d{4}-\d\d-\d\dT/);
  assert.equal(p.node?.evictionSeconds, undefined, 'tolerated for ever');
  assert.match(
    r.verdict.summary,
    new RegExp(`node ${node.name} is unreachable \\(its kubelet stopped reporting\\) since .*Kubelet stopped posting node status`),
  );
  assert.ok(p.hints.includes(`kubectl describe node ${node.name}`));
  assert.ok(first && first.failsAt !== undefined && first.at < r.verdict.finishedAt, 'announced as a problem before it failed');
});
