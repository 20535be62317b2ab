/**
 * Each failure class on the real control plane (real scheduler, controllers and admission; the
 * simulated kubelet for container behaviour): the right diagnosis and a verdict within the
 * class's policy window. Time-to-verdict is printed with t.diagnostic.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { FailureClass } from '../../../src/core/types.js';
import { clients, createDeployment, type DeploymentShape, describeVerdict, namespaceFor, podQuota, type Traced, trace } from './helpers.js';

async function failing(t: TestContext, prefix: string, shape: DeploymentShape, setup?: (ns: string) => Promise<void>): Promise<Traced> {
  const ns = await namespaceFor(t, prefix);
  await setup?.(ns);
  await createDeployment(ns, 'app', shape);
  const r = await trace(ns, 'app', { timeoutSeconds: 150 });
  t.diagnostic(`${prefix}: time-to-verdict ${(r.ms / 1000).toFixed(1)} s (${describeVerdict(r)})`);
  return r;
}

function mainProblem(r: Traced, cls: FailureClass) {
  assert.equal(r.verdict.outcome, 'failed', `verdict: ${r.verdict.summary}`);
  const p = r.verdict.problems.find((x) => x.class === cls);
  assert.ok(p, `a ${cls} problem in ${JSON.stringify(r.verdict.problems.map((x) => `${x.class}:${x.reason}`))}`);
  return p;
}

/** Real apps crash before their readiness probe first passes; without one, the pod is Ready for a moment. */
const SLOW_PROBE = { httpGet: { path: '/ready', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 5 };

describe('failure verdicts', { concurrency: true }, () => {
  it('image not found: ErrImagePull/ImagePullBackOff fails fast', async (t) => {
    const r = await failing(t, 'img', { image: 'nginx:1.99-does-not-exist' });
    const p = mainProblem(r, 'image-pull-not-found');
    assert.match(p.reason, /ErrImagePull|ImagePullBackOff/);
    assert.match(p.explanation + p.message, /nginx:1.99-does-not-exist/);
    assert.equal(p.object.kind, 'Pod');
    assert.equal(p.container, 'app');
    assert.ok(r.ms < 45_000, `verdict within the 10 s window plus detection, took ${r.ms} ms`);
    assert.deepEqual(p.logs ?? [], [], 'no log tail for a container that never ran');
  });

  it("crash loop: exit code, restarts and the crashed instance's log tail", async (t) => {
    const r = await failing(t, 'crash', {
      behaviour: { app: 'crash;exitCode=3;message=config file missing;after=1;logs=starting up|fatal: cannot open /etc/app.conf' },
      container: { readinessProbe: SLOW_PROBE },
    });
    const p = mainProblem(r, 'crash-loop');
    assert.equal(p.exitCode, 3);
    assert.ok((p.restartCount ?? 0) >= 1, `restartCount ${p.restartCount}`);
    const previous = p.logs?.find((l) => l.previous);
    assert.ok(previous, `a previous-instance log tail in ${JSON.stringify(p.logs)}`);
    assert.ok(
      previous.lines.some((l) => l.includes('fatal: cannot open /etc/app.conf')),
      JSON.stringify(previous.lines),
    );
    assert.ok(r.ms < 120_000);
  });

  it('OOMKilled: exit code 137, reason OOMKilled', async (t) => {
    const r = await failing(t, 'oom', { behaviour: { app: 'oom' }, container: { readinessProbe: SLOW_PROBE } });
    const p = mainProblem(r, 'oom-killed');
    assert.equal(p.exitCode, 137);
    assert.match(`${p.reason} ${p.explanation} ${p.terminationMessage ?? ''}`, /OOMKilled|out of memory/i);
    assert.ok(r.ms < 120_000);
  });

  it('readiness probe failing: probe details and Unhealthy events', async (t) => {
    const r = await failing(t, 'ready', {
      behaviour: { app: 'not-ready' },
      container: { readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 2, failureThreshold: 2 } },
    });
    const p = mainProblem(r, 'readiness-probe');
    assert.equal(p.probe?.kind, 'readiness');
    assert.match(p.probe?.handler ?? '', /healthz|8080/);
    assert.ok(r.ms < 90_000);
  });

  it('missing ConfigMap: CreateContainerConfigError naming it', async (t) => {
    const r = await failing(t, 'cfg', { container: { envFrom: [{ configMapRef: { name: 'app-settings' } }] } });
    const p = mainProblem(r, 'config-error');
    assert.equal(p.reason, 'CreateContainerConfigError');
    assert.deepEqual(p.missing && { kind: p.missing.kind, name: p.missing.name }, { kind: 'ConfigMap', name: 'app-settings' });
    assert.match(p.explanation, /app-settings/);
    assert.ok(r.ms < 45_000);
  });

  it('missing volume source: FailedMount naming the Secret', async (t) => {
    const r = await failing(t, 'mount', {
      podSpec: { volumes: [{ name: 'creds', secret: { secretName: 'db-credentials' } }] },
      container: { volumeMounts: [{ name: 'creds', mountPath: '/creds' }] },
    });
    const p = mainProblem(r, 'mount-failed');
    assert.equal(p.reason, 'FailedMount');
    assert.match(`${p.message} ${p.explanation}`, /db-credentials/);
    assert.ok(r.ms < 60_000);
  });

  it('init container crash', async (t) => {
    const r = await failing(t, 'init', {
      podSpec: { initContainers: [{ name: 'migrate', image: 'busybox:1.32' }] },
      behaviour: { migrate: 'crash;exitCode=2;after=1;logs=migration 0042 failed' },
    });
    const p = mainProblem(r, 'init-container');
    assert.equal(p.container, 'migrate');
    assert.equal(p.initContainer, true);
    assert.equal(p.exitCode, 2);
    assert.ok(r.ms < 120_000);
  });

  it('an init container that keeps waiting: reported after 30 s with its log, and the timeout names it', async (t) => {
    const ns = await namespaceFor(t, 'init-wait');
    await createDeployment(ns, 'app', {
      podSpec: {
        initContainers: [{ name: 'wait-db', image: 'busybox:1.32', command: ['sh', '-c', 'until nc -z db 5432; do sleep 2; done'] }],
      },
      behaviour: { 'wait-db': 'waits;logs=waiting for db:5432' },
    });
    const r = await trace(ns, 'app', { timeoutSeconds: 45 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'timed-out', 'it warns: an init container may be doing long work');
    const p = r.verdict.problems.find((x) => x.class === 'init-running');
    assert.ok(p, JSON.stringify(r.verdict.problems.map((x) => x.class)));
    assert.deepEqual([p.container, p.initContainer], ['wait-db', true]);
    assert.ok(
      p.logs?.some((l) => l.lines.includes('waiting for db:5432')),
      JSON.stringify(p.logs),
    );
    assert.match(r.verdict.summary, /init container "wait-db": init container still running after 30 s/);
  });

  it('a startup probe that never passes: reported before the restarts, and the crash loop names it', async (t) => {
    const r = await failing(t, 'startup', {
      container: { startupProbe: { httpGet: { path: '/started', port: 8080 }, periodSeconds: 2, failureThreshold: 2 } },
      behaviour: { app: 'not-started' },
    });
    const early = r.of('problem').find((e) => e.problem.probe?.kind === 'startup' && e.problem.class === 'readiness-probe');
    assert.match(early?.problem.explanation ?? '', /^startup probe GET http:\/\/:8080\/started is failing/);
    const p = mainProblem(r, 'crash-loop');
    assert.equal(p.probe?.kind, 'startup');
    assert.match(p.explanation, /^container was restarted by the kubelet: its startup probe GET http:\/\/:8080\/started is failing/);
    assert.ok(r.ms < 120_000);
  });

  it("unschedulable: the real scheduler's message", async (t) => {
    const r = await failing(t, 'sched', { container: { resources: { requests: { cpu: '500' } } } });
    const p = mainProblem(r, 'unschedulable');
    assert.equal(p.reason, 'Unschedulable');
    assert.match(p.message, /nodes are available.*Insufficient cpu/);
    assert.ok(r.ms < 45_000);
  });

  it('ResourceQuota: FailedCreate from admission', async (t) => {
    const r = await failing(t, 'quota', { replicas: 2 }, (ns) => podQuota(ns, 0));
    const p = mainProblem(r, 'replica-failure');
    assert.equal(p.reason, 'FailedCreate');
    assert.match(p.message, /exceeded quota: pods-0/);
    assert.ok(r.ms < 45_000);
  });

  it('PVC Pending (no provisioner): pvc-pending within an overridden 3 s window', async (t) => {
    const ns = await namespaceFor(t, 'pvc');
    await clients().core.createNamespacedPersistentVolumeClaim({
      namespace: ns,
      body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    });
    await createDeployment(ns, 'app', {
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
      container: { volumeMounts: [{ name: 'data', mountPath: '/data' }] },
    });
    const r = await trace(ns, 'app', { timeoutSeconds: 60, policy: { classes: { 'pvc-pending': { afterSeconds: 3 } } } });
    t.diagnostic(`pvc: time-to-verdict ${(r.ms / 1000).toFixed(1)} s (${describeVerdict(r)})`);
    const p = mainProblem(r, 'pvc-pending');
    assert.match(`${p.object.kind} ${p.explanation} ${p.message}`, /PersistentVolumeClaim/);
    assert.ok(r.ms < 30_000);
  });

  it('ProgressDeadlineExceeded set by the real Deployment controller (a pod stuck pulling past progressDeadlineSeconds)', async (t) => {
    // Pulling slowly is not a failure class, so only the controller's own deadline can end this.
    const r = await failing(t, 'deadline', { behaviour: { app: 'slow-start;seconds=120' }, progressDeadlineSeconds: 5 });
    const p = mainProblem(r, 'progress-deadline');
    assert.equal(p.reason, 'ProgressDeadlineExceeded');
    assert.deepEqual(p.object, { kind: 'Deployment', name: 'app' });
    assert.match(p.message, /^ReplicaSet "app-\w+" has timed out progressing\.$/);
    assert.match(p.explanation, /no progress for progressDeadlineSeconds \(5s\)/);
    assert.match(r.verdict.summary, /ProgressDeadlineExceeded/);
    // The controller counts the 5 s from the Deployment's creation, a moment before the trace
    // started (CI: 4,980 ms after the trace start); the bound says "not long before the deadline".
    assert.ok(r.ms >= 4_000 && r.ms < 60_000, `verdict after ${r.ms} ms`);
  });

  it('a transient image-pull error still rolls out', async (t) => {
    const ns = await namespaceFor(t, 'transient');
    // Always pull: otherwise the node's cached image skips the pull (and its failure).
    await createDeployment(ns, 'app', { behaviour: { app: 'pull-transient;failures=1' }, container: { imagePullPolicy: 'Always' } });
    const r = await trace(ns, 'app', { timeoutSeconds: 150 });
    t.diagnostic(`transient pull: ${describeVerdict(r)}`);
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    const pulls = r.of('problem').filter((e) => e.problem.class === 'image-pull-transient');
    assert.ok(pulls.length >= 1, `the transient pull error was reported: ${JSON.stringify(r.of('problem').map((e) => e.problem.class))}`);
  });
});
