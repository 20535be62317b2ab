/**
 * Container failures on the simulated kubelet with the real kubelet's status fields and events:
 * CrashLoopBackOff, OOMKilled, failing readiness probes, crashing init containers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type V1Pod, Watch } from '@kubernetes/client-node';
import { kubeConfig } from '../../helpers/cluster.js';
import { createPod, cs, eventsFor, report, took, waitEvent, waitPod, waitUntil, withNamespace } from './support.js';

describe('container failures', { concurrency: true }, () => {
  test('a crashing container: Error, restarts with back-off, CrashLoopBackOff with lastState.terminated', async (t) => {
    const ns = await withNamespace(t, 'kubelet-crash');
    const t0 = Date.now();
    await createPod(
      ns,
      'p',
      { containers: [{ name: 'app', image: 'nginx:1.19' }] },
      { 'sim.rollout-trace.dev/app': 'crash;exitCode=3;message=boom;after=1' },
    );
    const looping = await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'CrashLoopBackOff' && p, 'CrashLoopBackOff', 60_000);
    report(t, `CrashLoopBackOff after ${took(t0)} (restartCount ${cs(looping)?.restartCount})`);
    const s = cs(looping)!;
    assert.match(
      s.state?.waiting?.message ?? '',
      new RegExp(`^back-off \\d+s restarting failed container=app pod=p_${ns}\\(${looping.metadata?.uid}\\)$`),
    );
    assert.ok(s.restartCount >= 1);
    assert.equal(s.ready, false);
    assert.equal(s.started, false);
    const last = s.lastState?.terminated;
    assert.equal(last?.exitCode, 3);
    assert.equal(last?.reason, 'Error');
    assert.equal(last?.message, 'boom');
    assert.ok(last?.startedAt && last?.finishedAt);
    assert.equal(last?.containerID, s.containerID);
    assert.equal(looping.status?.phase, 'Running');
    const ready = looping.status?.conditions?.find((c) => c.type === 'Ready');
    assert.equal(ready?.status, 'False');
    assert.equal(ready?.reason, 'ContainersNotReady');
    assert.equal(ready?.message, 'containers with unready status: [app]');
    // The restart count keeps rising with the back-off.
    const later = await waitPod(ns, 'p', (p) => (cs(p)?.restartCount ?? 0) > s.restartCount && p, 'another restart', 60_000);
    report(t, `restartCount ${cs(later)?.restartCount} after ${took(t0)}`);
    const backoff = await waitEvent(ns, 'p', 'BackOff', 'Back-off restarting failed container');
    assert.equal(backoff.type, 'Warning');
    const started = (await eventsFor(ns, 'p')).find((e) => e.reason === 'Started');
    assert.ok((started?.count ?? 0) >= 2, `Started event count ${started?.count}`);
  });

  test('an OOM-killed container: exit 137, reason OOMKilled, CrashLoopBackOff', async (t) => {
    const ns = await withNamespace(t, 'kubelet-oom');
    const t0 = Date.now();
    await createPod(
      ns,
      'p',
      { containers: [{ name: 'app', image: 'redis:6.2', resources: { limits: { memory: '64Mi', cpu: '100m' } } }] },
      {
        'sim.rollout-trace.dev/app': 'oom',
      },
    );
    const p = await waitPod(ns, 'p', (p) => cs(p)?.lastState?.terminated && p, 'a terminated instance', 60_000);
    report(t, `OOMKilled after ${took(t0)}`);
    assert.equal(cs(p)?.lastState?.terminated?.exitCode, 137);
    assert.equal(cs(p)?.lastState?.terminated?.reason, 'OOMKilled');
    assert.equal(p.status?.qosClass, 'Guaranteed');
    await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'CrashLoopBackOff', 'CrashLoopBackOff', 60_000);
  });

  test('a failing readiness probe: Running, not Ready, Unhealthy events with a rising count', async (t) => {
    const ns = await withNamespace(t, 'kubelet-notready');
    const t0 = Date.now();
    await createPod(
      ns,
      'p',
      { containers: [{ name: 'app', image: 'nginx:1.19', readinessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 1 } }] },
      { 'sim.rollout-trace.dev/app': 'not-ready' },
    );
    await waitPod(ns, 'p', (p) => cs(p)?.state?.running, 'Running');
    const first = await waitEvent(ns, 'p', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503');
    report(t, `first Unhealthy after ${took(t0)}`);
    assert.equal(first.type, 'Warning');
    assert.equal(first.involvedObject.fieldPath, 'spec.containers{app}');
    const counted = await waitUntil(async () => (await eventsFor(ns, 'p')).find((e) => e.reason === 'Unhealthy' && (e.count ?? 0) >= 3), {
      what: 'Unhealthy count >= 3',
      timeoutMs: 30_000,
      intervalMs: 300,
    });
    report(t, `Unhealthy count ${counted.count} after ${took(t0)}`);
    assert.equal(counted.metadata.name, first.metadata.name, 'repeats update the same Event');
    const pod = await waitPod(ns, 'p', (p) => p, 'pod');
    assert.equal(pod.status?.phase, 'Running');
    assert.equal(cs(pod)?.ready, false);
    assert.equal(cs(pod)?.started, true);
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'ContainersReady')?.status, 'False');
  });

  test("readiness waits for the probe's initialDelaySeconds", async (t) => {
    const ns = await withNamespace(t, 'kubelet-delay');
    await createPod(ns, 'p', {
      containers: [{ name: 'app', image: 'nginx:1.19', readinessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: 3 } }],
    });
    const running = await waitPod(ns, 'p', (p) => cs(p)?.state?.running && p, 'Running');
    assert.equal(cs(running)?.ready, false);
    const startedAt = new Date(cs(running)!.state!.running!.startedAt!).getTime();
    const ready = await waitPod(ns, 'p', (p) => cs(p)?.ready && p, 'Ready', 30_000);
    const readyAt = new Date(ready.status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime!).getTime();
    report(t, `Ready ${(readyAt - startedAt) / 1000}s after the container started`);
    assert.ok(readyAt - startedAt >= 3000, `ready ${readyAt - startedAt} ms after start`);
  });

  test('a crashing init container: Init:CrashLoopBackOff, app container PodInitializing', async (t) => {
    const ns = await withNamespace(t, 'kubelet-init');
    const t0 = Date.now();
    await createPod(
      ns,
      'p',
      {
        initContainers: [
          { name: 'first', image: 'busybox:1.32', command: ['sh', '-c', 'echo ok'] },
          { name: 'migrate', image: 'busybox:1.32', command: ['sh', '-c', 'migrate'] },
        ],
        containers: [{ name: 'app', image: 'nginx:1.19' }],
      },
      { 'sim.rollout-trace.dev/migrate': 'crash;exitCode=2;after=0.5' },
    );
    const p = await waitPod(
      ns,
      'p',
      (p) => p.status?.initContainerStatuses?.[1]?.state?.waiting?.reason === 'CrashLoopBackOff' && p,
      'Init:CrashLoopBackOff',
      60_000,
    );
    report(t, `Init:CrashLoopBackOff after ${took(t0)}`);
    const [first, migrate] = p.status!.initContainerStatuses!;
    assert.equal(first.state?.terminated?.reason, 'Completed');
    assert.equal(first.state?.terminated?.exitCode, 0);
    assert.equal(first.ready, true);
    assert.equal(migrate.lastState?.terminated?.exitCode, 2);
    assert.equal(migrate.lastState?.terminated?.reason, 'Error');
    assert.equal(cs(p)?.state?.waiting?.reason, 'PodInitializing');
    assert.equal(p.status?.phase, 'Pending');
    const init = p.status?.conditions?.find((c) => c.type === 'Initialized');
    assert.equal(init?.status, 'False');
    assert.equal(init?.reason, 'ContainersNotInitialized');
    assert.equal(init?.message, 'containers with incomplete status: [migrate]');
    const backoff = await waitEvent(ns, 'p', 'BackOff', 'Back-off restarting failed container');
    assert.equal(backoff.involvedObject.fieldPath, 'spec.initContainers{migrate}');
  });

  test('init containers run in order, complete, then the app starts', async (t) => {
    const ns = await withNamespace(t, 'kubelet-initok');
    // The first init container runs ~0.3 s: a watch sees that status write, a poll could miss it.
    const seen: V1Pod[] = [];
    const watching = await new Watch(kubeConfig()).watch(
      `/api/v1/namespaces/${ns}/pods`,
      {},
      (_type, pod: V1Pod) => seen.push(pod),
      () => undefined,
    );
    t.after(() => watching.abort());
    const t0 = Date.now();
    await createPod(ns, 'p', {
      initContainers: [
        { name: 'one', image: 'busybox:1.32', command: ['sh', '-c', 'echo one'] },
        { name: 'two', image: 'busybox:1.32', command: ['sh', '-c', 'echo two'] },
      ],
      containers: [{ name: 'app', image: 'nginx:1.19' }],
    });
    const initializing = await waitUntil(() => seen.find((p) => p.status?.initContainerStatuses?.[0]?.state?.running), {
      what: 'first init running',
    });
    assert.equal(initializing.status?.initContainerStatuses?.[1]?.state?.waiting?.reason, 'PodInitializing');
    assert.equal(cs(initializing)?.state?.waiting?.reason, 'PodInitializing');
    const ready = await waitPod(ns, 'p', (p) => cs(p)?.ready && p, 'Ready', 30_000);
    report(t, `Ready after ${took(t0)}`);
    const [one, two] = ready.status!.initContainerStatuses!;
    assert.equal(one.state?.terminated?.reason, 'Completed');
    assert.equal(two.state?.terminated?.reason, 'Completed');
    assert.ok(new Date(one.state!.terminated!.finishedAt!).getTime() <= new Date(two.state!.terminated!.startedAt!).getTime());
    assert.equal(ready.status?.conditions?.find((c) => c.type === 'Initialized')?.status, 'True');
  });
  test('shell commands that end: `exit 3` crash-loops with its exit code, restartPolicy Never completes', async (t) => {
    const ns = await withNamespace(t, 'kubelet-script');
    const t0 = Date.now();
    await createPod(ns, 'exits', { containers: [{ name: 'app', image: 'busybox:1.32', command: ['sh', '-c', 'echo hello; exit 3'] }] });
    await createPod(ns, 'sleeps', {
      containers: [{ name: 'app', image: 'busybox:1.32', command: ['sh', '-c', 'echo hello; sleep 3600'] }],
    });
    await createPod(ns, 'once', {
      restartPolicy: 'Never',
      containers: [{ name: 'app', image: 'busybox:1.32', command: ['echo', 'done'] }],
    });
    const exits = await waitPod(ns, 'exits', (p) => cs(p)?.lastState?.terminated && p, 'a terminated instance');
    assert.equal(cs(exits)?.lastState?.terminated?.exitCode, 3);
    assert.equal(cs(exits)?.lastState?.terminated?.reason, 'Error');
    const once = await waitPod(ns, 'once', (p) => p.status?.phase === 'Succeeded' && p, 'Succeeded');
    report(t, `Succeeded after ${took(t0)}`);
    assert.equal(cs(once)?.state?.terminated?.reason, 'Completed');
    assert.equal(cs(once)?.state?.terminated?.exitCode, 0);
    assert.equal(once.status?.conditions?.find((c) => c.type === 'Ready')?.reason, 'PodCompleted');
    // A loaded machine may not have started it yet: wait for it to run, then it must not have ended.
    const sleeps = await waitPod(ns, 'sleeps', (p) => (cs(p)?.state?.running || cs(p)?.lastState?.terminated) && p, 'running or ended');
    assert.ok(cs(sleeps)?.state?.running, `a sleeping shell keeps running: ${JSON.stringify(cs(sleeps))}`);
    assert.equal(cs(sleeps)?.lastState?.terminated, undefined, 'it never ended');
    assert.equal(cs(sleeps)?.restartCount, 0);
  });
  test('a failing liveness probe: Unhealthy, Killing "failed liveness probe, will be restarted", restarts', async (t) => {
    const ns = await withNamespace(t, 'kubelet-liveness');
    const t0 = Date.now();
    await createPod(
      ns,
      'p',
      {
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'app',
            image: 'nginx:1.19',
            livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 1, failureThreshold: 2 },
          },
        ],
      },
      { 'sim.rollout-trace.dev/app': 'not-live' },
    );
    const unhealthy = await waitEvent(ns, 'p', 'Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 503');
    assert.equal(unhealthy.type, 'Warning');
    const killing = await waitEvent(ns, 'p', 'Killing', 'Container app failed liveness probe, will be restarted');
    assert.equal(killing.involvedObject.fieldPath, 'spec.containers{app}');
    const restarted = await waitPod(
      ns,
      'p',
      (p) => (cs(p)?.restartCount ?? 0) >= 1 && cs(p)?.lastState?.terminated && p,
      'a restart',
      30_000,
    );
    report(t, `restarted after ${took(t0)}`);
    assert.equal(cs(restarted)?.lastState?.terminated?.reason, 'Completed', 'nginx exits 0 on SIGTERM');
  });
});
