import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Verdict } from '../../../src/index.js';
import { assertSucceeded, isRolloutFailedError, type RolloutFailedError } from '../../../src/index.js';
import { crashProblem, failedJobVerdict, failedVerdict, NGINX, successVerdict, T0 } from './fixtures.js';

function thrown(fn: () => void): RolloutFailedError {
  try {
    fn();
  } catch (err) {
    assert.ok(isRolloutFailedError(err), `not a RolloutFailedError: ${String(err)}`);
    return err;
  }
  assert.fail('nothing was thrown');
}

it('assertSucceeded returns for successes (one or many)', () => {
  assertSucceeded(successVerdict());
  assertSucceeded([successVerdict(), successVerdict({ namespace: 'demo', name: 'api' })]);
  assertSucceeded([]);
});

it('a failed verdict throws RolloutFailedError with the main problem flattened and the summary as message', () => {
  const err = thrown(() => assertSucceeded(failedVerdict()));
  assert.ok(err instanceof Error);
  assert.equal(err.name, 'RolloutFailedError');
  assert.equal(err.outcome, 'failed');
  assert.deepEqual(err.deployment, NGINX);
  assert.equal(err.class, 'image-pull-not-found');
  assert.deepEqual(err.resource, { kind: 'Pod', namespace: 'demo', name: 'nginx-2-a' });
  assert.equal(err.pod, 'nginx-2-a');
  assert.equal(err.container, 'nginx');
  assert.equal(err.reason, 'ImagePullBackOff');
  assert.equal(err.hint, 'kubectl -n demo describe pod nginx-2-a');
  assert.match(err.message, /^Deployment demo\/nginx: FAILED - pod nginx-2-a: image "nginx:nonexistent" does not exist/);
  assert.match(err.message, /fatal: config missing/, "the crashed instance's log tail is in the message");
  assert.doesNotMatch(err.message, /\u001b\[/, 'no colours');
  assert.equal(err.headline, 'Deployment demo/nginx FAILED - pod nginx-2-a: image "nginx:nonexistent" does not exist in its registry');
});

it('several verdicts: successes are left out, failed comes before timed-out, every failure is listed', () => {
  const timedOut: Verdict = {
    ...successVerdict({ namespace: 'demo', name: 'slow' }),
    outcome: 'timed-out',
    summary: 'timed out after 30s waiting for revision 2: 0/2 pods ready',
    timeoutSeconds: 30,
    timeoutKind: 'overall',
    hints: ['kubectl -n demo rollout status deployment/slow'],
  };
  const crashed = failedVerdict([crashProblem()]);
  const err = thrown(() => assertSucceeded([successVerdict(), timedOut, crashed]));
  assert.deepEqual(
    err.failures.map((f) => [f.deployment.name, f.outcome]),
    [
      ['nginx', 'failed'],
      ['slow', 'timed-out'],
    ],
  );
  assert.equal(err.class, 'crash-loop');
  assert.equal(err.hint, 'kubectl -n demo logs nginx-2-b -c nginx --previous');
  const slow = err.failures[1]!;
  assert.equal(slow.class, undefined, 'a timeout with no problem has no class');
  assert.equal(slow.pod, undefined);
  assert.equal(slow.hint, 'kubectl -n demo rollout status deployment/slow');
  assert.match(err.message, /\n\nDeployment demo\/slow: TIMED OUT \(after 30s\) - timed out after 30s/);
  assert.equal(err.verdicts.length, 2);
  assert.ok(err.verdicts.every((v) => v.finishedAt >= T0));
});

it("a failed Job's RolloutFailure names the pod that says why, as its summary does", () => {
  const verdict = failedJobVerdict();
  assert.equal(verdict.problems[0]?.class, 'job-failed', "the verdict's problems keep the Job's condition first");
  const err = thrown(() => assertSucceeded(verdict));
  const { class: cls, kind, pod, container, reason, explanation, resource } = err.failures[0]!;
  assert.deepEqual(
    { cls, kind, pod, container, reason },
    { cls: 'job-pod-failed', kind: 'Job', pod: 'migrate-a', container: 'app', reason: 'Error' },
  );
  assert.deepEqual(resource, { kind: 'Pod', namespace: verdict.deployment.namespace, name: 'migrate-a' });
  assert.match(explanation ?? '', /exited with code 3/);
  assert.equal(err.pod, 'migrate-a');
});
