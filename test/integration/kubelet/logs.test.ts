/**
 * Container logs served by the simulated kubelet through the real apiserver (`pods/log`),
 * including `previous`, `tailLines`, `timestamps` and the kubelet's error texts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clients, createPod, cs, report, took, waitPod, withNamespace } from './support.js';

function apiMessage(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message ?? body;
    } catch {
      return body;
    }
  }
  return (body as { message?: string })?.message ?? String(err);
}

test('logs of a running nginx pod come back through the apiserver, with tailLines and timestamps', async (t) => {
  const ns = await withNamespace(t, 'kubelet-logs');
  const { core } = clients();
  await createPod(
    ns,
    'web',
    { containers: [{ name: 'nginx', image: 'nginx:1.19' }] },
    { 'sim.rollout-trace.dev/nginx': 'logs=GET / 200|GET /healthz 200' },
  );
  await waitPod(ns, 'web', (p) => cs(p)?.state?.running, 'Running');
  const t0 = Date.now();
  const all = await core.readNamespacedPodLog({ name: 'web', namespace: ns, container: 'nginx' });
  report(t, `readNamespacedPodLog answered in ${took(t0)}`);
  assert.match(all, /^\/docker-entrypoint\.sh: \/docker-entrypoint\.d\/ is not empty/);
  assert.match(all, /Configuration complete; ready for start up\n/);
  assert.ok(all.endsWith('GET / 200\nGET /healthz 200\n'), all);
  const tail = await core.readNamespacedPodLog({ name: 'web', namespace: ns, tailLines: 1 });
  assert.equal(tail, 'GET /healthz 200\n');
  const stamped = await core.readNamespacedPodLog({ name: 'web', namespace: ns, tailLines: 2, timestamps: true });
  assert.match(stamped, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z GET \/ 200\n\S+ GET \/healthz 200\n$/);
  await assert.rejects(core.readNamespacedPodLog({ name: 'web', namespace: ns, previous: true }), (err) => {
    assert.equal((err as { code?: number }).code, 400);
    assert.equal(apiMessage(err), 'previous terminated container "nginx" in pod "web" not found');
    return true;
  });
});

test("previous=true returns the crashed instance's output including its last line", async (t) => {
  const ns = await withNamespace(t, 'kubelet-prevlogs');
  const { core } = clients();
  await createPod(
    ns,
    'app',
    { containers: [{ name: 'app', image: 'registry.local/shop/api:2.1.0' }] },
    {
      'sim.rollout-trace.dev/app': 'crash;exitCode=1;message=panic: database unreachable;after=1;logs=starting api|connecting to db',
    },
  );
  const p = await waitPod(ns, 'app', (p) => cs(p)?.lastState?.terminated && p, 'a crashed instance', 60_000);
  const t0 = Date.now();
  const previous = await core.readNamespacedPodLog({ name: 'app', namespace: ns, container: 'app', previous: true });
  report(t, `previous logs answered in ${took(t0)}`);
  assert.equal(previous, 'starting api\nconnecting to db\npanic: database unreachable\n');
  assert.equal(cs(p)?.lastState?.terminated?.message, 'panic: database unreachable');
});

test('logs of a container that cannot start explain why (kubelet texts)', async (t) => {
  const ns = await withNamespace(t, 'kubelet-nologs');
  const { core } = clients();
  await createPod(ns, 'p', { containers: [{ name: 'app', image: 'nginx:nonexistent' }] });
  await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'ImagePullBackOff', 'ImagePullBackOff');
  await assert.rejects(core.readNamespacedPodLog({ name: 'p', namespace: ns }), (err) => {
    assert.equal((err as { code?: number }).code, 400);
    assert.equal(apiMessage(err), 'container "app" in pod "p" is waiting to start: trying and failing to pull image');
    return true;
  });
});
