import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripAnsi } from '../../../src/report/colors.js';
import { formatVerdict, markdownSummary } from '../../../src/report/index.js';
import { crashProblem, failedJobVerdict, failedVerdict, imageProblem, successVerdict } from './fixtures.js';

test('formatVerdict - success names revision, ready/desired and duration', () => {
  const text = formatVerdict(successVerdict(), { color: false });
  assert.match(text, /^✔ Deployment demo\/nginx: SUCCEEDED - revision 2 rolled out: 2\/2 pods ready$/m);
  assert.match(text, /revision 2 · 2\/2 ready · 2 updated · 2 available · took 6\.0s/);
  assert.equal(text.split('\n').length, 2);
});

test('formatVerdict - failure explains each cause with raw reason, exit code, restarts, termination message, logs, events and hints', () => {
  const text = formatVerdict(failedVerdict(), { color: false });
  assert.match(text, /^✖ Deployment demo\/nginx: FAILED - pod nginx-2-a: image "nginx:nonexistent" does not exist in its registry$/m);
  assert.match(text, /● Pod\/nginx-2-a container "nginx": image "nginx:nonexistent" does not exist in its registry/);
  assert.match(text, /reason +ImagePullBackOff: Back-off pulling image "nginx:nonexistent"/);
  // The same cause on two pods prints once.
  assert.match(text, /also on +Pod\/nginx-2-c/);
  assert.doesNotMatch(text, /● Pod\/nginx-2-c/);
  assert.match(text, /exit code +1\n +restarts +3\n +terminated +boom/);
  assert.match(text, /logs of "nginx" \(previous instance, last 2 lines\)\n +│ starting\n +│ fatal: config missing/);
  assert.match(text, /logs of "nginx" \(current instance\): unavailable: container not running/);
  // Two digests of the same event collapse into one line with the highest count.
  const failedLines = text.split('\n').filter((l) => l.includes('] Failed: Failed to pull image'));
  assert.equal(failedLines.length, 1);
  assert.match(failedLines[0]!, /\(3 times\)$/);
  assert.match(text, /To dig further:\n +kubectl -n demo describe pod nginx-2-a/);
  assert.equal(text.match(/kubectl -n demo describe pod nginx-2-a/g)!.length, 1, 'hints are deduped');
  assert.doesNotMatch(text, /Pulumi would report/);
  assert.doesNotMatch(text, /\u001b\[/);
});

test('formatVerdict - optional Pulumi messages and colour', () => {
  const text = formatVerdict(failedVerdict([crashProblem()]), { color: true, pulumiMessages: true });
  assert.match(stripAnsi(text), /Pulumi would report:\n +\* \[Pod demo\/nginx-2-a\]: containers with unready status/);
  assert.match(text, /\u001b\[31m✖\u001b\[39m/);
});

test('formatVerdict - timed-out names the timeout', () => {
  const v = { ...failedVerdict([imageProblem()]), outcome: 'timed-out' as const, timeoutSeconds: 3 };
  assert.match(formatVerdict(v, { color: false }), /^✖ Deployment demo\/nginx: TIMED OUT \(after 3s\) - /);
});

test('formatVerdict - a missing Secret is named, its key too, never a value', () => {
  const p = {
    ...imageProblem(),
    id: 'config-error/Pod/x/app',
    class: 'config-error' as const,
    reason: 'CreateContainerConfigError',
    message: 'secret "db" not found',
    explanation: 'Secret "db" does not exist',
    missing: { kind: 'Secret' as const, name: 'db', key: 'password' },
    events: [],
  };
  const text = formatVerdict(failedVerdict([p]), { color: false });
  assert.match(text, /missing +Secret "db" key "password"/);
});

test('formatVerdict - strips the runtime wrapping and drops bare echo events', () => {
  const p = imageProblem();
  p.message = 'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:nope not found: manifest unknown';
  p.events = [
    {
      type: 'Warning',
      reason: 'Failed',
      message: `Failed to pull image "nginx:nope": ${p.message}`,
      object: 'Pod/nginx-2-a',
      count: 2,
      lastSeen: '',
    },
    { type: 'Warning', reason: 'Failed', message: 'Error: ErrImagePull', object: 'Pod/nginx-2-a', count: 2, lastSeen: '' },
  ];
  const text = formatVerdict(failedVerdict([p]), { color: false });
  assert.doesNotMatch(text, /rpc error|Error response from daemon/);
  assert.match(text, /reason +ImagePullBackOff: manifest for nginx:nope not found: manifest unknown/);
  assert.doesNotMatch(text, /Error: ErrImagePull/);
  assert.match(text, /\[Pod\/nginx-2-a\] Failed: Failed to pull image "nginx:nope": manifest for nginx:nope not found/);
});

test('formatVerdict - a timeout says which deadline fired', () => {
  const base = { ...failedVerdict([]), outcome: 'timed-out' as const, timeoutSeconds: 5 };
  const overall = formatVerdict(
    { ...base, timeoutKind: 'overall', summary: 'timed out after 5s waiting for revision 2: 0/2 ready' },
    { color: false },
  );
  assert.match(overall, /^✖ Deployment demo\/nginx: TIMED OUT \(after 5s\) - timed out after 5s/m);
  const quiet = formatVerdict(
    { ...base, timeoutKind: 'no-progress', summary: 'no progress for 5s waiting for revision 2: 0/2 ready' },
    { color: false },
  );
  assert.match(quiet, /^✖ Deployment demo\/nginx: TIMED OUT \(no progress for 5s\) - no progress for 5s/m);
  assert.doesNotMatch(quiet, /after 5s/);
});

test("the figures line is in the kind's words: a Job's succeeded, running and failed pods and its backoffLimit; a DaemonSet's nodes", () => {
  const base = successVerdict();
  const job = {
    ...base,
    kind: 'Job' as const,
    revision: undefined,
    replicas: { desired: 4, ready: 2, updated: 4, available: 2 },
    job: { succeeded: 2, failed: 1, active: 2, completions: 4, backoffLimit: 6 },
  };
  const jobLine = stripAnsi(formatVerdict(job)).split('\n')[1] ?? '';
  assert.match(jobLine, /^ {2}2\/4 succeeded · 2 running · 1 failed \(backoffLimit 6\) · took /);
  assert.doesNotMatch(jobLine, /revision|ready|available/);
  const queue = stripAnsi(formatVerdict({ ...job, job: { succeeded: 3, failed: 0, active: 0, backoffLimit: 2 } })).split('\n')[1];
  assert.match(queue ?? '', /^ {2}3 succeeded · 0 running · 0 failed \(backoffLimit 2\)/);
  const ds = stripAnsi(formatVerdict({ ...base, kind: 'DaemonSet' as const, revision: '2' })).split('\n')[1];
  assert.match(ds ?? '', /^ {2}revision 2 · \d+\/\d+ nodes ready · /);
  const deployment = stripAnsi(formatVerdict(base)).split('\n')[1];
  assert.match(deployment ?? '', /^ {2}revision \d+ · \d+\/\d+ ready · \d+ updated · \d+ available · took /);
});

test("formatVerdict - a failed Job's details lead with the pod that says why, the Job's condition after it", () => {
  const verdict = failedJobVerdict();
  assert.deepEqual(
    verdict.problems.map((p) => p.class),
    ['job-failed', 'job-pod-failed'],
    'the JSON keeps the failing problem first',
  );
  const text = formatVerdict(verdict, { color: false });
  const pod = text.indexOf('● Pod/migrate-a');
  assert.ok(pod > 0 && pod < text.indexOf('● Job/migrate'), text);
  // The CI job summary reads the same way.
  const summary = markdownSummary([verdict]);
  const podItem = summary.indexOf('- **Pod/migrate-a**');
  assert.ok(podItem > 0 && podItem < summary.indexOf('- **Job/migrate**'), summary);
});
