import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation, Problem, RolloutEvent, TerminatingPod } from '../../../src/core/types.js';
import { LIST_EVERY_MS, QuotaHolders } from '../../../src/track/quota-holders.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const ref = { namespace: 'ns', name: 'web' };
const workload = { kind: 'Deployment' as const, ...ref };
const problem = (id: string, cls: Problem['class'], message: string): Problem => ({
  id,
  class: cls,
  object: { kind: 'ReplicaSet', name: 'web-1' },
  reason: 'FailedCreate',
  message,
  explanation: message,
  firstSeen: 0,
  lastSeen: 0,
  events: [],
  hints: [],
});
const QUOTA = problem('rs/quota', 'replica-failure', 'pods "web-1-x" is forbidden: exceeded quota: q, requested: pods=1');
const seen = (p: Problem, failsAt: number | null = 10_000): RolloutEvent => ({
  type: 'problem',
  problem: p,
  at: 0,
  deployment: ref,
  workload,
  ...(failsAt !== null ? { failsAt } : {}),
});
const cleared = (p: Problem): RolloutEvent => ({ type: 'problem-cleared', id: p.id, problem: p, at: 0, deployment: ref, workload });
const API_POD: TerminatingPod = { name: 'api-a', deletionTimestamp: '2026-11-22T04:00:40Z', phase: 'Running' };

/** A list whose answers the test gives (`answer`), counting the calls. */
function lists() {
  const pending: Array<(pods: TerminatingPod[]) => void> = [];
  const list = () => new Promise<TerminatingPod[]>((resolve) => pending.push(resolve));
  const answer = async (pods: TerminatingPod[]) => {
    pending.shift()?.(pods);
    await new Promise((r) => setImmediate(r));
  };
  return { list, answer, calls: () => pending.length };
}

describe('the terminating pods listed while a quota refuses', () => {
  it('lists at once, then every period while the refusal is open; none once it cleared', async () => {
    const c = fakeClock();
    const l = lists();
    const out: Observation[] = [];
    const q = new QuotaHolders(l.list, (o) => out.push(o), c.clock);
    const t0 = c.now();
    q.saw(seen(problem('pod/crash', 'crash-loop', 'exceeded quota')));
    assert.equal(l.calls(), 0, 'only a quota refusal');
    q.saw(seen(QUOTA, null));
    assert.equal(l.calls(), 0, "only one with a window (not a Job's, not a warn-only class)");
    q.saw(seen(QUOTA));
    assert.equal(l.calls(), 1, 'at once');
    q.saw(seen(QUOTA));
    assert.equal(l.calls(), 1, 'one list at a time');
    c.advance(500);
    await l.answer([API_POD]);
    assert.deepEqual(out, [{ type: 'terminating-pods', at: t0, pods: [API_POD] }], 'at: when the list was asked');
    c.advance(LIST_EVERY_MS - 1);
    assert.equal(l.calls(), 0);
    c.advance(1);
    assert.equal(l.calls(), 1, 'again after the period');
    await l.answer([]);
    assert.equal(out.length, 2);
    q.saw(cleared(QUOTA));
    c.advance(10 * LIST_EVERY_MS);
    assert.equal(l.calls(), 0, 'no list once the refusal cleared');
    assert.equal(c.pending(), 0, 'no timer left');
  });

  it('a list that fails is tried again; stop ends the lists and drops an answer in flight', async () => {
    const c = fakeClock();
    const out: Observation[] = [];
    let calls = 0;
    const failing = new QuotaHolders(
      () => (calls++, Promise.reject(new Error('refused'))),
      (o) => out.push(o),
      c.clock,
    );
    failing.saw(seen(QUOTA));
    await new Promise((r) => setImmediate(r));
    c.advance(LIST_EVERY_MS);
    assert.equal(calls, 2, 'tried again after the period');
    assert.deepEqual(out, []);
    failing.stop();
    c.advance(10 * LIST_EVERY_MS);
    assert.equal(calls, 2);
    const l = lists();
    const late: Observation[] = [];
    const q = new QuotaHolders(l.list, (o) => late.push(o), c.clock);
    q.saw(seen(QUOTA));
    q.stop();
    await l.answer([API_POD]);
    assert.equal(late.length, 0, 'nothing observed after stop');
    assert.equal(c.pending(), 0);
  });
});
