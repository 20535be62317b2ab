/**
 * Missing ConfigMaps, Secrets and keys — really absent from the cluster — produce the real
 * kubelet's CreateContainerConfigError / FailedMount, and the pod recovers once they exist.
 * Optional references never fail.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clients, createPod, cs, eventsFor, report, took, waitEvent, waitPod, withNamespace } from './support.js';

describe('config references', { concurrency: true }, () => {
  test('env from a missing ConfigMap: CreateContainerConfigError, then Running once it is created', async (t) => {
    const ns = await withNamespace(t, 'kubelet-cfg');
    const { core } = clients();
    const t0 = Date.now();
    await createPod(ns, 'p', {
      containers: [
        { name: 'app', image: 'nginx:1.19', env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'mode' } } }] },
      ],
    });
    const s = await waitPod(
      ns,
      'p',
      (p) => cs(p)?.state?.waiting?.reason === 'CreateContainerConfigError' && cs(p),
      'CreateContainerConfigError',
    );
    report(t, `CreateContainerConfigError after ${took(t0)}`);
    assert.equal(s.state?.waiting?.message, 'configmap "app-config" not found');
    const failed = await waitEvent(ns, 'p', 'Failed', 'Error: configmap "app-config" not found');
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.involvedObject.fieldPath, 'spec.containers{app}');

    // A ConfigMap without the key: the kubelet's "couldn't find key" message.
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'app-config' }, data: { other: 'x' } } });
    const keyMissing = await waitPod(
      ns,
      'p',
      (p) => cs(p)?.state?.waiting?.message?.startsWith("couldn't") && cs(p),
      'missing key message',
      30_000,
    );
    assert.equal(keyMissing.state?.waiting?.message, `couldn't find key mode in ConfigMap ${ns}/app-config`);

    const t1 = Date.now();
    await core.replaceNamespacedConfigMap({
      name: 'app-config',
      namespace: ns,
      body: { metadata: { name: 'app-config' }, data: { mode: 'prod' } },
    });
    const running = await waitPod(ns, 'p', (p) => cs(p)?.ready && p, 'Ready after the key exists', 30_000);
    report(t, `recovered ${took(t1)} after the key was added`);
    assert.equal(running.status?.phase, 'Running');
  });

  test('envFrom a missing Secret: CreateContainerConfigError with secret "x" not found', async (t) => {
    const ns = await withNamespace(t, 'kubelet-secret');
    const { core } = clients();
    await createPod(ns, 'p', { containers: [{ name: 'app', image: 'nginx:1.19', envFrom: [{ secretRef: { name: 'db-creds' } }] }] });
    const s = await waitPod(
      ns,
      'p',
      (p) => cs(p)?.state?.waiting?.reason === 'CreateContainerConfigError' && cs(p),
      'CreateContainerConfigError',
    );
    assert.equal(s.state?.waiting?.message, 'secret "db-creds" not found');
    const t1 = Date.now();
    await core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'db-creds' }, stringData: { PASSWORD: 'x' } } });
    await waitPod(ns, 'p', (p) => cs(p)?.ready, 'Ready', 30_000);
    report(t, `recovered ${took(t1)} after the Secret was created`);
  });

  test('optional references to missing objects do not fail', async (t) => {
    const ns = await withNamespace(t, 'kubelet-optional');
    await createPod(ns, 'p', {
      containers: [
        {
          name: 'app',
          image: 'nginx:1.19',
          env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'nope', key: 'a', optional: true } } }],
          envFrom: [{ secretRef: { name: 'nope', optional: true } }],
          volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
        },
      ],
      volumes: [{ name: 'cfg', configMap: { name: 'nope', optional: true } }],
    });
    await waitPod(ns, 'p', (p) => cs(p)?.ready, 'Ready');
    const reasons = (await eventsFor(ns, 'p')).map((e) => e.reason);
    assert.ok(!reasons.includes('Failed') && !reasons.includes('FailedMount'), reasons.join(','));
  });

  test('a volume from a missing ConfigMap: FailedMount, ContainerCreating, then Running once it exists', async (t) => {
    const ns = await withNamespace(t, 'kubelet-mount');
    const { core } = clients();
    const t0 = Date.now();
    await createPod(ns, 'p', {
      containers: [{ name: 'app', image: 'nginx:1.19', volumeMounts: [{ name: 'site', mountPath: '/usr/share/nginx/html' }] }],
      volumes: [{ name: 'site', configMap: { name: 'site-content' } }],
    });
    const mount = await waitEvent(
      ns,
      'p',
      'FailedMount',
      'MountVolume.SetUp failed for volume "site" : configmap "site-content" not found',
    );
    report(t, `FailedMount after ${took(t0)}`);
    assert.equal(mount.type, 'Warning');
    assert.equal(mount.involvedObject.fieldPath, undefined);
    const pending = await waitPod(ns, 'p', (p) => p, 'pod');
    assert.equal(pending.status?.phase, 'Pending');
    assert.equal(cs(pending)?.state?.waiting?.reason, 'ContainerCreating');
    assert.equal(pending.status?.podIP, undefined, 'no sandbox (pod IP) before volumes are mounted');
    const t1 = Date.now();
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'site-content' }, data: { 'index.html': 'hi' } } });
    await waitPod(ns, 'p', (p) => cs(p)?.ready, 'Ready', 30_000);
    report(t, `recovered ${took(t1)} after the ConfigMap was created`);
  });

  test('a volume from a missing Secret: FailedMount with secret "x" not found', async (t) => {
    const ns = await withNamespace(t, 'kubelet-secretvol');
    await createPod(ns, 'p', {
      containers: [{ name: 'app', image: 'nginx:1.19', volumeMounts: [{ name: 'tls', mountPath: '/tls' }] }],
      volumes: [{ name: 'tls', secret: { secretName: 'tls-cert' } }],
    });
    await waitEvent(ns, 'p', 'FailedMount', 'MountVolume.SetUp failed for volume "tls" : secret "tls-cert" not found');
  });
});
