/**
 * Pods a StatefulSet's, DaemonSet's or Job's own controller cannot create, on the real control
 * plane (real admission: ResourceQuota and LimitRanger; the real StatefulSet, DaemonSet and Job
 * controllers, which report a refused create as a FailedCreate Event on the workload): the
 * StatefulSet and the DaemonSet fail within the `replica-failure` window naming the refusal; a Job
 * that a quota holds back while one of its pods runs is reported and waits (its pods free the
 * quota as they end); a Job whose pods a LimitRange refuses fails.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDaemonSet, createJob, createStatefulSet } from '../../helpers/workloads.js';
import { clients, describeVerdict, namespaceFor, podQuota, trace } from './helpers.js';

describe('pods a workload controller cannot create', { concurrency: true }, () => {
  it('a StatefulSet held by a quota fails within the window, naming the pod and the quota', async (t) => {
    const ns = await namespaceFor(t, 'sts-quota');
    await podQuota(ns, 1);
    await createStatefulSet(ns, 'db', { replicas: 2, podManagementPolicy: 'Parallel' });
    const r = await trace(ns, 'db', { kind: 'StatefulSet', timeoutSeconds: 90 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'replica-failure');
    assert.deepEqual(p.object, { kind: 'StatefulSet', name: 'db' });
    assert.match(p.explanation, /^pod db-[01] cannot be created: pods "db-[01]" is forbidden: exceeded quota: pods-1/);
    assert.ok(r.ms < 45_000, `within the 10 s window after the refusal (${r.ms} ms)`);
  });

  it('a DaemonSet held by a quota fails, naming the refusal', async (t) => {
    const ns = await namespaceFor(t, 'ds-quota');
    await podQuota(ns, 1);
    await createDaemonSet(ns, 'agent', { image: 'registry.local/log-agent:1.0' });
    const r = await trace(ns, 'agent', { kind: 'DaemonSet', timeoutSeconds: 90 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
    assert.equal(r.verdict.problems[0]?.class, 'replica-failure');
    assert.match(
      r.verdict.problems[0]?.explanation ?? '',
      /^pods cannot be created: pods "agent-\S*" is forbidden: exceeded quota: pods-1/,
    );
  });

  it('a Job a quota holds back while its first pod runs is reported, and waits', async (t) => {
    const ns = await namespaceFor(t, 'job-quota');
    await podQuota(ns, 1);
    await createJob(ns, 'batch', { behaviour: { app: 'crash;exitCode=0;after=600' }, completions: 2, parallelism: 2 });
    const r = await trace(ns, 'batch', { kind: 'Job', timeoutSeconds: 25 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'timed-out', 'not failed: the running pod frees the quota when it ends');
    const p = r.verdict.problems.find((x) => x.class === 'replica-failure');
    assert.match(p?.explanation ?? '', /^pods cannot be created: pods "batch-\S*" is forbidden: exceeded quota: pods-1/);
    const reported = r.of('problem').find((e) => e.problem.class === 'replica-failure');
    assert.equal(reported?.failsAt, undefined, 'reported with no window of its own');
  });

  it('a Job whose pods a LimitRange refuses fails', async (t) => {
    const ns = await namespaceFor(t, 'job-limits');
    await clients().core.createNamespacedLimitRange({
      namespace: ns,
      body: { metadata: { name: 'small' }, spec: { limits: [{ type: 'Container', max: { cpu: '100m' } }] } },
    });
    await createJob(ns, 'migrate', { container: { resources: { limits: { cpu: '200m' } } } });
    const r = await trace(ns, 'migrate', { kind: 'Job', timeoutSeconds: 90 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
    assert.equal(r.verdict.problems[0]?.class, 'replica-failure');
    assert.match(r.verdict.problems[0]?.explanation ?? '', /^pods cannot be created: .*maximum cpu usage per Container is 100m/);
  });
});
