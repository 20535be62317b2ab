/**
 * An init container that keeps running (waiting for a database that never comes, or long work):
 * reported as `init-running` once it has run 30 s, with no window by default (it warns), failing
 * only on a window of its own; ticks bring it even when nothing else changes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolvePolicy } from '../../../src/core/index.js';
import { iso, ofType, pod, run, running, tick, up, verdictOf, waiting } from './builders.js';
import { rollingTo2, UPDATE } from './scenario.js';

/** Pod web-2-a of the new ReplicaSet, Pending while its init container `wait-db` runs (started at second `started`). */
function initializing(started: number, o: { sidecar?: boolean } = {}) {
  return pod({
    name: 'web-2-a',
    rs: 'web-2',
    phase: 'Pending',
    ready: false,
    initContainers: [running('wait-db', { ready: false, startedAt: iso(started) })],
    initSpecs: [{ name: 'wait-db', image: 'busybox:1.32', ...(o.sidecar ? { restartPolicy: 'Always' } : {}) }],
    containers: [waiting('PodInitializing', undefined)],
  });
}

describe('init-running', () => {
  it('is reported once the init container has run 30 s, by a tick, with no window', () => {
    const early = run([...rollingTo2(), up('Pod', initializing(1), 2), tick(30)], UPDATE);
    assert.deepEqual(ofType(early.events, 'problem'), [], 'not at 29 s');
    const { events } = run([...rollingTo2(), up('Pod', initializing(1), 2), tick(30), tick(31), tick(300)], UPDATE);
    const reported = ofType(events, 'problem').filter((e) => e.problem.class === 'init-running');
    assert.equal(reported.length, 1, 'reported once, by the tick at 31 s');
    const p = reported[0]!.problem;
    assert.equal(p.firstSeen, Date.parse(iso(31)));
    assert.deepEqual([p.object.name, p.container, p.initContainer, p.reason], ['web-2-a', 'wait-db', true, 'PodInitializing']);
    assert.equal(reported[0]!.failsAt, undefined, 'it warns: a migration may take minutes');
    assert.ok(p.hints.includes('kubectl -n apps logs web-2-a -c wait-db'), p.hints.join('\n'));
    assert.equal(verdictOf(events), undefined);
  });

  it('a window of its own fails the rollout', () => {
    const policy = resolvePolicy({ classes: { 'init-running': { action: 'fail', afterSeconds: 60 } } });
    const obs = [...rollingTo2(), up('Pod', initializing(1), 2), tick(31), tick(90), tick(92)];
    const v = verdictOf(run(obs, UPDATE, policy).events);
    assert.equal(v?.outcome, 'failed');
    assert.match(v.summary, /^pod web-2-a init container "wait-db": init container still running after 30 s/);
  });

  it('a sidecar (restartPolicy Always) runs by design and is never reported', () => {
    const { events } = run([...rollingTo2(), up('Pod', initializing(1, { sidecar: true }), 2), tick(31), tick(120)], UPDATE);
    assert.deepEqual(ofType(events, 'problem'), []);
  });
});
