/**
 * Resource quantities in every form the API server stores reach the simulated kubelet's admission
 * as a real kubelet reads them: a pod requesting `memory: 64e6` (kept as written) and `cpu: 0.5`
 * (stored as `500m`) runs to Ready.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPod, report, took, waitPod, withNamespace } from './support.js';

test('a pod requesting memory 64e6 and cpu 0.5 runs to Ready', async (t) => {
  const ns = await withNamespace(t, 'kubelet-quantities');
  const t0 = Date.now();
  const resources = { requests: { memory: '64e6', cpu: '0.5' }, limits: { memory: '1.5e8', cpu: '1' } };
  await createPod(ns, 'sized', { containers: [{ name: 'app', image: 'nginx:1.19', resources }], terminationGracePeriodSeconds: 1 });
  const pod = await waitPod(
    ns,
    'sized',
    (p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') && p,
    'Ready (a kubelet that cannot read a quantity leaves it Pending)',
  );
  report(t, `Ready after ${took(t0)}`);
  // The API server keeps the exponent form and writes 0.5 as 500m.
  assert.deepEqual(pod.spec?.containers[0]?.resources?.requests, { memory: '64e6', cpu: '500m' });
  assert.deepEqual(pod.spec?.containers[0]?.resources?.limits, { memory: '150e6', cpu: '1' });
  assert.equal(pod.status?.qosClass, 'Burstable');
});
