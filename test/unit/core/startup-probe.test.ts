/**
 * A failing startup probe: reported while the container has not started (probe kind `startup`,
 * no window of its own: the kubelet restarts the container, and the restarts are the crash loop's
 * to judge), and the crash loop that follows names the startup probe, not only exit code 137.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { ofType, pod, podEvent, run, running, terminatedLast, tick, up, verdictOf, waiting } from './builders.js';
import { rollingTo2, UPDATE } from './scenario.js';

const PROBE = { httpGet: { path: '/started', port: 8080 }, periodSeconds: 5, failureThreshold: 3 };

/** Pod web-2-a whose container `app` has the startup probe above and the status `status`. */
function withStartupProbe(status: ReturnType<typeof running>): V1Pod {
  const p = pod({ name: 'web-2-a', rs: 'web-2', ready: false, containers: [status] });
  p.spec!.containers[0]!.startupProbe = PROBE;
  return p;
}

const notStarted = () => withStartupProbe({ ...running('app', { ready: false }), started: false });
const failed = (s: number, count: number) =>
  podEvent('web-2-a', 'Unhealthy', 'Startup probe failed: HTTP probe failed with statuscode: 503', s, { count, uid: 'startup' });

describe('a failing startup probe', () => {
  it('is reported before the kubelet restarts the container, and never fails the rollout by itself', () => {
    const { events, state } = run([...rollingTo2(), up('Pod', notStarted(), 2), failed(7, 1), failed(12, 2), tick(60)], UPDATE);
    const reported = ofType(events, 'problem').filter((e) => e.problem.probe?.kind === 'startup');
    assert.equal(reported.length, 1, 'reported once');
    const last = reported[0]!;
    assert.equal(last.problem.class, 'readiness-probe');
    const now = Object.values(state.problems).find((p) => p.probe?.kind === 'startup');
    assert.equal(
      now?.explanation,
      'startup probe GET http://:8080/started is failing (2 failures): HTTP probe failed with statuscode: 503; the kubelet restarts the container after 3 failures in a row',
    );
    assert.equal(last.failsAt, undefined, 'the restarts decide');
    assert.equal(verdictOf(events), undefined);
  });

  it('the crash loop it causes names the startup probe', () => {
    const looping = withStartupProbe(
      waiting('CrashLoopBackOff', 'back-off 20s restarting failed container', { restarts: 2, last: terminatedLast(137) }),
    );
    const { events } = run(
      [
        ...rollingTo2(),
        failed(15, 3),
        podEvent('web-2-a', 'Killing', 'Container app failed startup probe, will be restarted', 15),
        up('Pod', looping, 20),
        tick(40),
      ],
      UPDATE,
    );
    const v = verdictOf(events);
    assert.equal(v?.outcome, 'failed');
    assert.equal(v.problems[0]?.class, 'crash-loop');
    assert.deepEqual(v.problems[0]?.probe, { kind: 'startup', handler: 'GET http://:8080/started', failures: 3 });
    assert.equal(
      v.problems[0]?.explanation,
      'container was restarted by the kubelet: its startup probe GET http://:8080/started is failing (3 failures), 2 restarts',
    );
  });

  it('a server that stops cleanly when killed for its probe (exit 0) is not said to have ended on its own', () => {
    const looping = withStartupProbe(
      waiting('CrashLoopBackOff', 'back-off 20s restarting failed container', { restarts: 2, last: terminatedLast(0, 'Completed') }),
    );
    // (The kubelet's Normal `Killing` Event is not read: a pod's routine Events are passed over.)
    const { state } = run([...rollingTo2(), failed(15, 3), up('Pod', looping, 20)], UPDATE);
    const p = Object.values(state.problems).find((x) => x.class === 'crash-loop');
    assert.match(p?.explanation ?? '', /^container was restarted by the kubelet: its startup probe/);
    assert.doesNotMatch(p?.explanation ?? '', /ended normally/);
  });
});
