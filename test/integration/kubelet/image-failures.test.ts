/**
 * Image pull failures on the simulated kubelet, with the real kubelet's status fields and events:
 * ErrImagePull then ImagePullBackOff (not found, unauthorized), transient errors that recover,
 * and slow starts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPod, cs, eventsFor, report, took, waitEvent, waitPod, withNamespace } from './support.js';

describe('image pulls', { concurrency: true }, () => {
  test('a nonexistent tag: ErrImagePull then ImagePullBackOff with manifest-unknown events', async (t) => {
    const ns = await withNamespace(t, 'kubelet-badtag');
    const t0 = Date.now();
    await createPod(ns, 'p', { containers: [{ name: 'app', image: 'nginx:1.99-does-not-exist' }] });
    const errPull = await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'ErrImagePull' && cs(p), 'ErrImagePull');
    report(t, `ErrImagePull after ${took(t0)}`);
    assert.equal(
      errPull.state?.waiting?.message,
      'rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:1.99-does-not-exist not found: manifest unknown: manifest unknown',
    );
    const backoff = await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'ImagePullBackOff' && p, 'ImagePullBackOff');
    report(t, `ImagePullBackOff after ${took(t0)}`);
    assert.equal(cs(backoff)?.state?.waiting?.message, 'Back-off pulling image "nginx:1.99-does-not-exist"');
    assert.equal(backoff.status?.phase, 'Pending');
    assert.equal(cs(backoff)?.ready, false);
    assert.equal(cs(backoff)?.imageID, '');
    assert.equal(cs(backoff)?.containerID, undefined);
    // Events are written on their own queue and may trail the status write a little.
    assert.equal((await waitEvent(ns, 'p', 'Pulling', 'Pulling image "nginx:1.99-does-not-exist"')).type, 'Normal');
    const pullFailed = await waitEvent(ns, 'p', 'Failed', /^Failed to pull image /);
    assert.equal(pullFailed.type, 'Warning');
    assert.ok(
      pullFailed.message!.startsWith(
        'Failed to pull image "nginx:1.99-does-not-exist": rpc error: code = Unknown desc = Error response from daemon: manifest for nginx:1.99-does-not-exist not found',
      ),
      pullFailed.message,
    );
    assert.equal((await waitEvent(ns, 'p', 'Failed', 'Error: ErrImagePull')).type, 'Warning');
    await waitEvent(ns, 'p', 'BackOff', 'Back-off pulling image "nginx:1.99-does-not-exist"');
    await waitEvent(ns, 'p', 'Failed', 'Error: ImagePullBackOff');
    for (const e of await eventsFor(ns, 'p')) {
      if (e.reason === 'Scheduled') continue;
      assert.equal(e.source?.component, 'kubelet');
      assert.match(e.source?.host ?? '', /^sim-node-\d+$/);
      assert.equal(e.involvedObject.fieldPath, 'spec.containers{app}');
      assert.equal(e.involvedObject.kind, 'Pod');
    }
  });

  test('an unknown Docker Hub repository: pull access denied', async (t) => {
    const ns = await withNamespace(t, 'kubelet-denied');
    const t0 = Date.now();
    await createPod(ns, 'p', { containers: [{ name: 'app', image: 'acme/nope:1.0' }] });
    const s = await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'ErrImagePull' && cs(p), 'ErrImagePull');
    report(t, `ErrImagePull after ${took(t0)}`);
    assert.equal(
      s.state?.waiting?.message,
      "rpc error: code = Unknown desc = Error response from daemon: pull access denied for acme/nope, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
    );
    await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'ImagePullBackOff', 'ImagePullBackOff');
    report(t, `ImagePullBackOff after ${took(t0)}`);
  });

  test('a transient pull error backs off, retries and recovers', async (t) => {
    const ns = await withNamespace(t, 'kubelet-transient');
    const t0 = Date.now();
    // Always: an IfNotPresent image another test already pulled on that node would not be pulled at all.
    await createPod(
      ns,
      'p',
      { containers: [{ name: 'app', image: 'redis:6.2', imagePullPolicy: 'Always' }] },
      { 'sim.rollout-trace.dev/app': 'pull-transient;failures=1' },
    );
    // ErrImagePull lasts about a second before ImagePullBackOff: accept either.
    const failed = await waitPod(
      ns,
      'p',
      (p) => ['ErrImagePull', 'ImagePullBackOff'].includes(cs(p)?.state?.waiting?.reason ?? '') && cs(p),
      'ErrImagePull',
    );
    report(t, `${failed.state?.waiting?.reason} after ${took(t0)}`);
    const running = await waitPod(ns, 'p', (p) => cs(p)?.state?.running && p, 'Running', 60_000);
    report(t, `recovered (Running) after ${took(t0)}`);
    assert.equal(cs(running)?.ready, true);
    assert.equal(cs(running)?.restartCount, 0);
    await waitEvent(
      ns,
      'p',
      'Failed',
      /^Failed to pull image "redis:6\.2": rpc error: code = Unknown desc = Error response from daemon: Get https:\/\/registry-1\.docker\.io\/v2\/: net\/http: request canceled while waiting for connection \(Client\.Timeout exceeded while awaiting headers\)$/,
    );
    await waitEvent(ns, 'p', 'Failed', 'Error: ErrImagePull');
    await waitEvent(ns, 'p', 'Pulled', /^Successfully pulled image "redis:6\.2" in [0-9.]+m?s$/);
    const pulling = (await eventsFor(ns, 'p')).find((e) => e.reason === 'Pulling');
    assert.equal(pulling?.count, 2, 'two pull attempts aggregated into one event with count 2');
  });

  test('a registry that cannot be resolved keeps failing with a lookup error', async (t) => {
    const ns = await withNamespace(t, 'kubelet-invalid');
    await createPod(ns, 'p', { containers: [{ name: 'app', image: 'registry.invalid/app:1' }] });
    const s = await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting?.reason === 'ErrImagePull' && cs(p), 'ErrImagePull');
    assert.match(s.state?.waiting?.message ?? '', /dial tcp: lookup registry\.invalid on .*: no such host$/);
  });

  test('slow-start keeps the container in ContainerCreating for the given seconds', async (t) => {
    const ns = await withNamespace(t, 'kubelet-slow');
    const t0 = Date.now();
    await createPod(
      ns,
      'p',
      { containers: [{ name: 'app', image: 'httpd:2.4', imagePullPolicy: 'Always' }] },
      { 'sim.rollout-trace.dev/app': 'slow-start;seconds=8' },
    );
    const creating = await waitPod(ns, 'p', (p) => cs(p)?.state?.waiting && p, 'ContainerCreating');
    assert.equal(cs(creating)?.state?.waiting?.reason, 'ContainerCreating');
    await waitPod(ns, 'p', (p) => cs(p)?.state?.running, 'Running', 30_000);
    const elapsed = Date.now() - t0;
    report(t, `Running after ${took(t0)}`);
    assert.ok(elapsed >= 8000, `started after ${elapsed} ms`);
    const pulled = await waitEvent(ns, 'p', 'Pulled');
    // The kubelet measures the 8 s pull with its own clock: a busy event loop can only lengthen it.
    assert.match(pulled.message ?? '', /^Successfully pulled image "httpd:2\.4" in ([89]|\d\d)\.\d+s$/);
  });
});
