/** Pods on a NotReady or unreachable node: the node-not-ready diagnosis and its policy window. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { Observation } from '../../../src/core/index.js';
import { resolvePolicy } from '../../../src/core/index.js';
import { iso, ofType, pod, run, running, T0, tick, up, verdictOf, waiting } from './builders.js';
import { newPod, rollingTo2, UPDATE } from './scenario.js';

function node(name: string, ready: 'True' | 'False' | 'Unknown', since = 2): V1Node {
  return {
    metadata: { name, uid: `node-${name}`, resourceVersion: `${ready}${since}` },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready,
          lastTransitionTime: iso(since) as unknown as Date,
          ...(ready === 'Unknown' ? { reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' } : {}),
          ...(ready === 'False' ? { reason: 'KubeletNotReady', message: 'PLEG is not healthy' } : {}),
        },
      ],
    },
  };
}

const creating = waiting('ContainerCreating', '');
/** web-2 with two pods: one on the healthy sim-node-1, one creating on sim-node-2. */
const twoPods = (): Observation[] => [
  ...rollingTo2({ replicas: 2, ready: 1 }),
  newPod('web-2-aaa', running(), 1),
  newPod('web-2-bbb', creating, 1, { node: 'sim-node-2' }),
];

describe('node-not-ready', () => {
  it('a pod on an unreachable node is diagnosed with the node, since when and the Ready condition', () => {
    const { events } = run(
      [...twoPods(), up('Node', node('sim-node-1', 'True'), 2), up('Node', node('sim-node-2', 'Unknown', 3), 4)],
      UPDATE,
    );
    const problems = ofType(events, 'problem').filter((e) => e.problem.class === 'node-not-ready');
    assert.equal(problems.length, 1, 'only the pod on the bad node');
    const p = problems[0]!.problem;
    assert.equal(p.object.name, 'web-2-bbb');
    assert.equal(p.reason, 'NodeStatusUnknown');
    assert.deepEqual(p.node, {
      name: 'sim-node-2',
      status: 'Unknown',
      since: iso(3),
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      evictionSeconds: 0,
    });
    assert.match(
      p.explanation,
      /^node sim-node-2 is unreachable \(its kubelet stopped reporting\) since 2026-11-22T04:00:03Z \(NodeStatusUnknown: Kubelet stopped posting node status\.\)/,
    );
    // No toleration in the builder's pod: evicted at once, so the window is the 30 s base.
    assert.equal(problems[0]!.failsAt, T0 + 4000 + 30_000);
  });

  it('the window waits for the eviction the pod tolerates (300 s by default) plus 30 s, then fails', () => {
    const tolerant = pod({ name: 'web-2-bbb', rs: 'web-2', containers: [creating], node: 'sim-node-2' });
    tolerant.spec!.tolerations = [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ];
    const base = [...rollingTo2({ replicas: 1 }), up('Pod', tolerant, 1), up('Node', node('sim-node-2', 'False'), 2)];
    const early = run([...base, tick(331)], UPDATE);
    assert.equal(ofType(early.events, 'problem')[0]?.failsAt, T0 + 2000 + 330_000);
    assert.equal(verdictOf(early.events), undefined, 'not before eviction + 30 s');
    const { events } = run([...base, tick(332)], UPDATE);
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.match(
      v?.summary ?? '',
      /^pod web-2-bbb: node sim-node-2 is not ready since .* \(KubeletNotReady: PLEG is not healthy\).*evicted and replaced after 300s \(KubeletNotReady\)$/,
    );
  });

  it('clears when the node is Ready again, and a Ready pod on a NotReady node is not a problem', () => {
    const { events, state } = run(
      [...twoPods(), up('Node', node('sim-node-2', 'Unknown'), 2), up('Node', node('sim-node-2', 'True', 9), 9)],
      UPDATE,
    );
    assert.equal(ofType(events, 'problem-cleared').length, 1);
    assert.deepEqual(Object.keys(state.problems), []);
    const ready = run([...twoPods(), up('Node', node('sim-node-1', 'Unknown'), 2)], UPDATE);
    assert.equal(ofType(ready.events, 'problem').length, 0, 'web-2-aaa is Ready: its node is not its problem (yet)');
  });

  it('--fail-after node-not-ready=5 fails after 5 s; --ignore drops it', () => {
    const fast = resolvePolicy({ classes: { 'node-not-ready': { afterSeconds: 5 } } });
    const { events } = run([...twoPods(), up('Node', node('sim-node-2', 'Unknown'), 2), tick(7)], UPDATE, fast);
    assert.equal(verdictOf(events)?.problems[0]?.class, 'node-not-ready');
    const ignored = resolvePolicy({ classes: { 'node-not-ready': { action: 'ignore' } } });
    const quiet = run([...twoPods(), up('Node', node('sim-node-2', 'Unknown'), 2), tick(60)], UPDATE, ignored);
    assert.equal(ofType(quiet.events, 'problem').length, 0);
  });

  it('a Node observation about a node none of our pods use derives nothing', () => {
    const before = run(twoPods(), UPDATE);
    const after = run([...twoPods(), up('Node', node('other-node', 'Unknown'), 5)], UPDATE);
    assert.equal(after.events.length, before.events.length);
  });
});

describe('timeout summary', () => {
  it('names EVERY pod that is not ready and why, never "N more"', () => {
    const pods = ['a', 'b', 'c', 'd', 'e'].map((x, i) =>
      newPod(`web-2-${x}`, creating, 1 + i * 0.1, x === 'e' ? { node: 'sim-node-2' } : {}),
    );
    const { events } = run(
      [
        ...rollingTo2({ replicas: 5 }),
        ...pods,
        up('Node', node('sim-node-2', 'Unknown'), 2),
        { type: 'timeout', at: T0 + 60_000, timeoutSeconds: 60 },
      ],
      UPDATE,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'timed-out');
    for (const x of ['a', 'b', 'c', 'd']) assert.ok(v?.summary.includes(`pod web-2-${x} container-creating;`), `${x}: ${v?.summary}`);
    assert.match(v?.summary ?? '', /pod web-2-e: node sim-node-2 is unreachable/);
    assert.doesNotMatch(v?.summary ?? '', /more/);
  });
});
