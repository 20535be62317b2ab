/**
 * Jobs on the real control plane (the real Job controller; the simulated kubelet runs the pods to
 * completion): success is the `Complete` condition with its `succeeded/completions` progress;
 * failure is `Failed` (BackoffLimitExceeded) with each failed pod's exit code, termination message
 * and log tail; a pod that fails while the Job still retries is reported before the Job fails.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { POD_GONE_UNREAD } from '../../../src/cluster/index.js';
import type { Problem, RolloutEvent } from '../../../src/core/types.js';
import { createJob, editJob } from '../../helpers/workloads.js';
import { assertStillRunning, clients, describeVerdict, eventSeen, namespaceFor, trace, waitUntil } from './helpers.js';

const FAILING = { app: 'crash;exitCode=3;message=relation "users" does not exist;after=1;logs=migrating users|applying 0042_users' };

/**
 * A pod the Job controller deleted as it failed the Job, gone before a loaded machine read its log
 * (its deletion seen by the verdict, or not yet): its problem says so instead of carrying lines.
 */
function assertGoneUnread(p: Problem): void {
  assert.deepEqual(
    p.logs?.map((l) => [l.lines, l.error]),
    [[[], POD_GONE_UNREAD]],
    `pod ${p.object.name} without its log lines: ${JSON.stringify(p)}`,
  );
}

/**
 * Starts the pods of a Job created with parallelism 0 once the trace has listed it: on a slow
 * control plane a trace's first lists can take longer than pods that fail within a second live,
 * and a trace that begins after they are gone has no log of theirs to keep.
 */
async function startWhenTraced(events: RolloutEvent[], namespace: string, name: string, parallelism: number): Promise<void> {
  await eventSeen(events, (e) => e.type === 'progress', `the trace listing job ${name}`, 90_000);
  await editJob(namespace, name, (j) => {
    j.spec = { ...j.spec!, parallelism };
  });
}

/** Whether the pod is being deleted, or gone. */
async function leaving(namespace: string, name: string): Promise<boolean> {
  try {
    return (await clients().core.readNamespacedPod({ namespace, name })).metadata?.deletionTimestamp !== undefined;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return true;
    throw err;
  }
}

describe('Job verdicts', { concurrency: true }, () => {
  it('a Job with completions and parallelism succeeds on Complete, with its progress', async (t) => {
    const ns = await namespaceFor(t, 'job-ok');
    await createJob(ns, 'seed', {
      image: 'busybox:1.32',
      container: { command: ['sh', '-c', 'echo seeded'] },
      completions: 3,
      parallelism: 2,
    });
    const r = await trace(ns, 'seed', { kind: 'Job', timeoutSeconds: 90 });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.equal(r.verdict.kind, 'Job');
    assert.match(r.verdict.summary, /^job seed complete: 3\/3 succeeded, 0 running in /);
    assert.ok(
      r.events.every((e) => e.kind === 'Job'),
      'every event says kind Job',
    );
    assert.ok(
      r.of('progress').some((e) => /succeeded/.test(e.message)),
      'progress in succeeded/completions words',
    );
  });

  it('logs.onSuccess attaches the succeeded pods log tails to the verdict; off by default', async (t) => {
    const ns = await namespaceFor(t, 'job-logs');
    await createJob(ns, 'seed', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo seeded 42 rows'] } });
    const r = await trace(ns, 'seed', { kind: 'Job', timeoutSeconds: 90, logs: { onSuccess: true } });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.deepEqual(
      r.verdict.logs?.map((l) => [l.container, l.lines]),
      [['app', ['seeded 42 rows']]],
    );
    const quiet = await trace(ns, 'seed', { kind: 'Job', timeoutSeconds: 90 });
    assert.equal(quiet.verdict.logs, undefined, 'no logs read on success by default');
  });

  it('--follow-logs streams the output of Job pods that all fail within a second, before the verdict', async (t) => {
    const ns = await namespaceFor(t, 'job-follow');
    // Three pods end 1 s after they start, and the Job fails with them: the verdict comes before a
    // loaded machine has opened their streams, so the ended instances are read before it (those of
    // pods being deleted too, while they are there).
    await createJob(ns, 'seed', {
      behaviour: { app: 'crash;exitCode=1;after=1;logs=seeding users|seeding orders' },
      backoffLimit: 0,
      parallelism: 0,
      completions: 3,
    });
    const r = await trace(ns, 'seed', { kind: 'Job', timeoutSeconds: 90, logs: { follow: true } }, (events) =>
      startWhenTraced(events, ns, 'seed', 3),
    );
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const verdictAt = r.events.findIndex((e) => e.type === 'verdict');
    const logs = r.events.slice(0, verdictAt).flatMap((e) => (e.type === 'log' ? [e] : []));
    const failed = r.verdict.problems.filter((p) => p.class === 'job-pod-failed');
    const seen = JSON.stringify(logs.map((e) => `${e.pod} ${e.line}`));
    const followed = failed.filter((p) => logs.some((e) => e.pod === p.object.name && e.line === 'seeding orders'));
    assert.ok(followed.length >= 1, `${describeVerdict(r)}; ${JSON.stringify(failed)}; followed: ${seen}`);
    // The Job controller deletes the pods still active when the Job fails: one that ended and was
    // gone before a loaded machine read it has no lines, and its problem says so.
    for (const p of failed.filter((f) => !followed.includes(f))) assertGoneUnread(p);
  });

  it('restartPolicy OnFailure, pods failing within a second and deleted by the Job controller: each keeps its exit code, message and log lines', async (t) => {
    const ns = await namespaceFor(t, 'job-deleted');
    // Three pods crash 1 s after they start; their restarts exceed the backoff limit together and
    // the Job controller deletes them as it marks the Job failed.
    await createJob(ns, 'migrate', { behaviour: FAILING, backoffLimit: 1, restartPolicy: 'OnFailure', parallelism: 0, completions: 3 });
    const r = await trace(ns, 'migrate', { kind: 'Job', timeoutSeconds: 120 }, (events) => startWhenTraced(events, ns, 'migrate', 3));
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    assert.equal(r.verdict.problems[0]?.class, 'job-failed');
    const causes = r.verdict.problems.filter((p) => p.object.kind === 'Pod' && p.exitCode === 3);
    assert.ok(causes.length >= 1, `a pod cause: ${JSON.stringify(r.verdict.problems.map((p) => [p.class, p.object.name, p.podDeleted]))}`);
    for (const p of causes) assert.equal(p.terminationMessage, 'relation "users" does not exist');
    const logged = causes.filter((p) => (p.logs ?? []).some((l) => l.lines.includes('applying 0042_users')));
    assert.ok(logged.length >= 1, `a cause with its log lines: ${JSON.stringify(causes)}`);
    for (const p of causes.filter((c) => !logged.includes(c))) assertGoneUnread(p);
    assert.match(
      r.verdict.summary,
      /^pod migrate-\w+ (\(deleted\) )?container "app": container exited with code 3.*; job migrate failed \(BackoffLimitExceeded\): .*, backoffLimit \d+$/,
    );
    // The pods' watch usually brings their deletion before the Job's status brings its failure.
    if (causes.some((p) => p.podDeleted)) {
      assert.match(r.verdict.summary, /^pod migrate-\w+ \(deleted\) /);
      assert.ok(!r.verdict.hints.some((h) => / logs job\//.test(h)), `no hint that cannot work: ${r.verdict.hints.join(' | ')}`);
    } else {
      for (const p of causes) assert.ok(await leaving(ns, p.object.name), `pod ${p.object.name} deleted by the Job controller`);
    }
  });

  it('a Job failed and its pods deleted before the trace started: the gone pods are named from their Warning Events', async (t) => {
    const ns = await namespaceFor(t, 'job-gone-before');
    await createJob(ns, 'migrate', { behaviour: FAILING, backoffLimit: 1, restartPolicy: 'OnFailure' });
    // The Job controller deletes the crashing pod as it marks the Job failed.
    await waitUntil(
      async () => {
        const job = await clients().batch.readNamespacedJob({ name: 'migrate', namespace: ns });
        const pods = await clients().core.listNamespacedPod({ namespace: ns, labelSelector: 'job-name=migrate' });
        return job.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True') && pods.items.length === 0;
      },
      { what: 'Job migrate failed, its pods gone', timeoutMs: 90_000 },
    );
    const r = await trace(ns, 'migrate', { kind: 'Job', timeoutSeconds: 60 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const causes = r.verdict.problems.filter((p) => p.object.kind === 'Pod');
    assert.ok(causes.length >= 1, `a gone pod named: ${describeVerdict(r)}`);
    for (const p of causes) {
      assert.equal(p.podDeleted, true);
      assert.match(p.explanation, /^gone before the trace/);
    }
    assert.match(r.verdict.summary, /^pod migrate-\w+ \(deleted\): gone before the trace.*; job migrate failed \(BackoffLimitExceeded\)/);
  });

  it('logs.onSuccess keeps the output of a succeeded pod deleted before the verdict', async (t) => {
    const ns = await namespaceFor(t, 'job-logs-gone');
    // One pod at a time, each printing its line and running 3 s more: the first has succeeded, and
    // is deleted at once, well before the Job completes (the 1.20 controller then runs one more pod
    // in its place). A read when it is seen succeeded can lose that race with the deletion; its
    // stream, opened while it ran, keeps the line.
    await createJob(ns, 'seed', {
      image: 'busybox:1.32',
      container: { command: ['sh', '-c', 'echo seeded 42 rows'] },
      behaviour: { app: 'crash;exitCode=0;after=3' },
      completions: 2,
      parallelism: 0,
    });
    let deleted = '';
    const r = await trace(ns, 'seed', { kind: 'Job', timeoutSeconds: 120, logs: { onSuccess: true } }, async (events) => {
      await startWhenTraced(events, ns, 'seed', 1);
      const done = await eventSeen(events, (e) => e.type === 'pod' && e.state === 'succeeded', 'a Job pod seen succeeded', 90_000);
      deleted = done.type === 'pod' ? done.name : '';
      assertStillRunning(events, `pod ${deleted} is deleted`);
      await clients().core.deleteNamespacedPod({ namespace: ns, name: deleted, gracePeriodSeconds: 0 });
    });
    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.ok(
      r.events.some((e) => e.type === 'pod-deleted' && e.name === deleted),
      `pod ${deleted} was gone before the verdict`,
    );
    const kept = r.verdict.logs?.find((l) => l.pod === deleted);
    assert.deepEqual(kept?.lines, ['seeded 42 rows'], JSON.stringify(r.verdict.logs));
    assert.ok(kept?.capturedAt !== undefined, 'with the time its lines were read');
  });

  it('BackoffLimitExceeded fails with each failed pod exit code, termination message and log tail', async (t) => {
    const ns = await namespaceFor(t, 'job-fail');
    await createJob(ns, 'migrate', { behaviour: FAILING, backoffLimit: 1 });
    const r = await trace(ns, 'migrate', { kind: 'Job', timeoutSeconds: 120 });
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    const [first, ...rest] = r.verdict.problems;
    assert.equal(first?.class, 'job-failed');
    assert.equal(first?.reason, 'BackoffLimitExceeded');
    const pods = rest.filter((p) => p.class === 'job-pod-failed');
    assert.equal(pods.length, 2, 'both attempts (backoffLimit 1) are reported');
    for (const p of pods) {
      assert.equal(p.exitCode, 3);
      assert.equal(p.terminationMessage, 'relation "users" does not exist');
    }
    const lines = pods.flatMap((p) => p.logs ?? []).flatMap((l) => l.lines);
    assert.ok(lines.includes('applying 0042_users'), `log tail: ${JSON.stringify(pods.map((p) => p.logs))}`);
  });

  it('a pod that fails while the Job retries is reported before the Job fails', async (t) => {
    const ns = await namespaceFor(t, 'job-retry');
    await createJob(ns, 'migrate', { behaviour: FAILING, backoffLimit: 2 }); // 3 pods: about 40 s of the Job controller's back-off
    const r = await trace(ns, 'migrate', { kind: 'Job', timeoutSeconds: 180 }, async (events) => {
      await eventSeen(events, (e) => e.type === 'problem' && e.problem.class === 'job-pod-failed', 'a job-pod-failed problem', 120_000);
    });
    const reported = r.events.findIndex((e) => e.type === 'problem' && e.problem.class === 'job-pod-failed');
    const verdict = r.events.findIndex((e) => e.type === 'verdict');
    assert.ok(reported >= 0 && reported < verdict, 'the retrying pod is reported before the verdict');
    const problem = r.of('problem').find((e) => e.problem.class === 'job-pod-failed');
    assert.equal(problem?.failsAt, undefined, 'a retried pod does not fail the trace by itself');
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    assert.equal(r.verdict.problems[0]?.reason, 'BackoffLimitExceeded');
  });

  it('restartPolicy OnFailure: the crash loop is reported while the Job retries; the Job failing decides', async (t) => {
    const ns = await namespaceFor(t, 'job-onfailure');
    await createJob(ns, 'migrate', { behaviour: FAILING, backoffLimit: 2, restartPolicy: 'OnFailure' });
    const r = await trace(ns, 'migrate', { kind: 'Job', timeoutSeconds: 240 });
    const crash = r.of('problem').find((e) => e.problem.class === 'crash-loop');
    assert.ok(crash, `the crash loop is reported: ${JSON.stringify(r.of('problem').map((e) => e.problem.class))}`);
    assert.equal(crash.failsAt, undefined, 'it does not fail the trace by itself');
    assert.equal(r.verdict.outcome, 'failed', describeVerdict(r));
    assert.equal(r.verdict.problems[0]?.class, 'job-failed');
    assert.equal(r.verdict.problems[0]?.reason, 'BackoffLimitExceeded');
  });
});
