import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import { isProgressEvent, NoProgressWatchdog } from '../../../src/track/no-progress.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const ref = { namespace: 'ns', name: 'web' };
const pod = (at: number): RolloutEvent => ({
  type: 'pod',
  name: 'web-1',
  state: 'container-creating',
  at,
  deployment: ref,
  workload: { kind: 'Deployment' as const, ...ref },
});
const warning = (at: number): RolloutEvent => ({
  type: 'k8s-event',
  event: { type: 'Warning', reason: 'BackOff', message: 'x', object: 'Pod/web-1', count: 3, lastSeen: '' },
  at,
  deployment: ref,
  workload: { kind: 'Deployment' as const, ...ref },
});

describe('no-progress watchdog', () => {
  it('fires once the window passes without progress', () => {
    const c = fakeClock();
    const fired: number[] = [];
    const w = new NoProgressWatchdog(5, (at) => (fired.push(at), true), c.clock);
    const t0 = c.now();
    w.start();
    c.advance(4999);
    assert.deepEqual(fired, []);
    c.advance(1);
    assert.deepEqual(fired, [t0 + 5000]);
    c.advance(60_000);
    assert.equal(fired.length, 1, 'fires once');
    assert.equal(c.pending(), 0, 'no timer left');
  });

  it('progress restarts the window; warnings and k8s events do not', () => {
    const c = fakeClock();
    const fired: number[] = [];
    const w = new NoProgressWatchdog(5, (at) => (fired.push(at), true), c.clock);
    const t0 = c.now();
    w.start();
    c.advance(3000);
    w.saw(pod(c.now())); // progress at +3 s
    c.advance(1000);
    w.saw(warning(c.now())); // not progress
    c.advance(3999);
    assert.deepEqual(fired, [], 'the window restarted at +3 s');
    c.advance(1);
    assert.deepEqual(fired, [t0 + 8000]);
  });

  it('a refused firing (Deployment not there yet) starts a new window', () => {
    const c = fakeClock();
    const fired: number[] = [];
    let accept = false;
    const w = new NoProgressWatchdog(2, (at) => (fired.push(at), accept), c.clock);
    w.start();
    c.advance(2000);
    assert.equal(fired.length, 1);
    accept = true;
    c.advance(1999);
    assert.equal(fired.length, 1);
    c.advance(1);
    assert.equal(fired.length, 2);
    assert.equal(c.pending(), 0);
  });

  it('stop() cancels it', () => {
    const c = fakeClock();
    let fired = 0;
    const w = new NoProgressWatchdog(1, () => (fired++, true), c.clock);
    w.start();
    w.stop();
    c.advance(10_000);
    assert.equal(fired, 0);
    assert.equal(c.pending(), 0);
  });

  it('a 600h window neither fires early nor overflows the timer', () => {
    const c = fakeClock();
    const fired: number[] = [];
    const w = new NoProgressWatchdog(600 * 3600, (at) => (fired.push(at), true), c.clock);
    const t0 = c.now();
    w.start();
    c.advance(1000);
    assert.deepEqual(fired, [], 'no instant firing');
    assert.ok(Math.max(...c.delays) <= 2 ** 31 - 1, "every timer fits Node's limit");
    c.advance(600 * 3600 * 1000 - 1001);
    assert.deepEqual(fired, []);
    c.advance(1);
    assert.deepEqual(fired, [t0 + 600 * 3600 * 1000]);
  });

  it('classifies progress events', () => {
    assert.equal(isProgressEvent(pod(0)), true);
    assert.equal(isProgressEvent({ ...pod(0), state: 'running', previous: 'container-creating' } as RolloutEvent), true);
    assert.equal(
      isProgressEvent({ ...pod(0), state: 'waiting', previous: 'waiting', detail: '3 restarts' } as RolloutEvent),
      false,
      'a pod whose state does not change (only its restart count) is not progress',
    );
    assert.equal(isProgressEvent(warning(0)), false);
    assert.equal(isProgressEvent({ type: 'started', at: 0, deployment: ref, workload: { kind: 'Deployment' as const, ...ref } }), false);
    assert.equal(
      isProgressEvent({
        type: 'phase',
        phase: 'scaling-up',
        message: '',
        at: 0,
        deployment: ref,
        workload: { kind: 'Deployment' as const, ...ref },
      }),
      true,
    );
  });
});
