/**
 * Observe mode, a Job removed after it ran (what its `ttlSecondsAfterFinished` does): the next
 * unchanged `up` makes no provider call for it (the engine's same step hands back the stored
 * outputs), and the trace passes with one line instead of looking for a Job that never comes back.
 * The same step may be sent long after the Job's registration: here the engine double has one
 * worker, held by a new Deployment whose pod starts late, and the Job's step queues behind it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchV1Api } from '@kubernetes/client-node';
import { clients, waitUntil, withNamespace } from '../helpers/cluster.js';
import { jobOf } from '../helpers/workloads.js';
import { nginxArgs } from './harness/fixtures.js';
import { linesOf, startStack } from './harness/langhost.js';
import type { Monitor } from './harness/monitor.js';
import { renderTranscript } from './harness/transcript.js';
import { argsOf } from './harness/workload-programs.js';

/** The slow Deployment's pod starts this late: its create step holds the only worker that long. */
const HOLD_SECONDS = 8;

test('observe: a Job removed after it ran, its unchanged step queued behind a slow one, passes with one line', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-job-gone');
  let monitor: Monitor | undefined;
  let holdJob = false;
  const slowCreated = () => monitor?.ops.some((o) => o.op === 'create' && o.name === 'slow');
  const stack = await startStack({
    parallelism: 1,
    // The slow Deployment takes the worker first; the Job's step queues behind it.
    beforeStep: async (type) => {
      if (type === 'kubernetes:batch/v1:Job' && holdJob)
        await waitUntil(slowCreated, { what: 'the slow create on the worker', timeoutMs: 120_000 });
    },
  });
  monitor = stack.monitor;
  t.after(() => stack.stop());
  const job = jobOf('migrate', { behaviour: { app: 'crash;exitCode=0;after=1' } });
  const program = (withSlow: boolean) => async () => {
    const lib = await import('../../src/pulumi/index.js');
    const k8s = await import('@pulumi/kubernetes');
    lib.traceWorkloads({ mode: 'observe', timeoutSeconds: 120 });
    if (withSlow) {
      const slow = nginxArgs(namespace, 'nginx:1.19', 1, 'slow');
      slow.spec.template.metadata.annotations = { 'sim.rollout-trace.dev/nginx': `slow-start;seconds=${HOLD_SECONDS}` };
      new k8s.apps.v1.Deployment('slow', slow);
    }
    new k8s.batch.v1.Job('migrate', argsOf(namespace, job));
  };
  const run1 = await stack.run(program(false));
  assert.equal(run1.error, '', renderTranscript(run1.logs, { startedAt: run1.startedAt }));

  const batch = clients().kc.makeApiClient(BatchV1Api);
  await batch.deleteNamespacedJob({ namespace, name: 'migrate', propagationPolicy: 'Background' });
  const jobGone = async () => !(await batch.listNamespacedJob({ namespace })).items.some((j) => j.metadata?.name === 'migrate');
  await waitUntil(jobGone, { what: 'the Job gone', timeoutMs: 30_000 });

  holdJob = true;
  const run2 = await stack.run(program(true));
  const transcript = renderTranscript(run2.logs, { startedAt: run2.startedAt });
  assert.equal(run2.error, '', transcript);
  // The scenario: the Job's step ran only once the slow Deployment's await freed the worker.
  const registered = run2.registrations.find((r) => r.type === 'kubernetes:batch/v1:Job');
  const freed = run2.ops.find((o) => o.op === 'await' && o.name === 'slow');
  assert.ok(registered && freed, transcript);
  const queuedSeconds = (freed.at - registered.at) / 1000;
  console.log(`the Job's step queued ${queuedSeconds.toFixed(1)} s behind the slow Deployment`);
  assert.ok(queuedSeconds > 3, `the Job's step waited only ${queuedSeconds} s`);
  const passLine = run2.logs.find((l) => l.urn.endsWith('::migrate-job-rollout') && /is gone/.test(l.message));
  assert.ok(passLine && passLine.at >= freed.at, `the answer came once the worker was free\n${transcript}`);
  assert.deepEqual(
    run2.ops.filter((o) => o.kind === 'Job' && o.op !== 'read'),
    [],
    'the engine made no provider call for the unchanged Job',
  );

  assert.deepEqual(
    linesOf(run2, 'migrate-job-rollout'),
    [
      `Job ${namespace}/migrate ran in an earlier update and is gone (it was removed after it ran); this update changed nothing, so there is nothing to run`,
    ],
    transcript,
  );
  assert.equal(stack.monitor.outputsOf('migrate-job-rollout')?.value.outcome, 'unchanged');
});
