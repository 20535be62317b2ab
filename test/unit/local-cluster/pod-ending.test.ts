/**
 * The simulated kubelet's admission (lifecycle/predicate.go `GeneralPredicates` order: pods, cpu,
 * memory, node selector) and its 1.20 eviction message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { admissionFailure, binaryQuantity, evictionMessage } from '../../../local-cluster/kubelet/pod-ending.js';

const NODE = { cpu: 4000, memory: 8 * 2 ** 30, pods: 3, labels: { 'kubernetes.io/hostname': 'n1', disk: 'ssd' } };
const podWith = (requests: Record<string, string> = {}, extra: Partial<NonNullable<V1Pod['spec']>> = {}): V1Pod => ({
  spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests } }], ...extra },
});

describe('simulated kubelet admission', () => {
  it('admits a pod that fits', () => {
    assert.equal(admissionFailure(podWith({ cpu: '1', memory: '1Gi' }), NODE, [podWith({ cpu: '2' })]), undefined);
  });
  it('OutOfcpu in millicores, with what the running pods use', () => {
    assert.deepEqual(admissionFailure(podWith({ cpu: '2500m' }), NODE, [podWith({ cpu: '2' })]), {
      reason: 'OutOfcpu',
      message: "Node didn't have enough resource: cpu, requested: 2500, used: 2000, capacity: 4000",
    });
  });
  it('OutOfmemory in bytes', () => {
    assert.equal(admissionFailure(podWith({ memory: '9Gi' }), NODE, [])?.reason, 'OutOfmemory');
  });
  it('OutOfpods comes first', () => {
    const full = [podWith(), podWith(), podWith()];
    assert.deepEqual(admissionFailure(podWith({ cpu: '100' }), NODE, full), {
      reason: 'OutOfpods',
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    });
  });
  it('an init container counts when it asks more than the containers together', () => {
    const pod = podWith({ cpu: '1' }, { initContainers: [{ name: 'init', image: 'busybox', resources: { requests: { cpu: '5' } } }] });
    assert.equal(admissionFailure(pod, NODE, [])?.reason, 'OutOfcpu');
  });
  it('NodeAffinity when the node selector does not match', () => {
    assert.deepEqual(admissionFailure(podWith({}, { nodeSelector: { disk: 'hdd' } }), NODE, []), {
      reason: 'NodeAffinity',
      message: 'Predicate NodeAffinity failed',
    });
    assert.equal(admissionFailure(podWith({}, { nodeSelector: { disk: 'ssd' } }), NODE, []), undefined);
  });
});

describe('the 1.20 eviction message', () => {
  it('names the containers whose usage exceeds their request', () => {
    assert.equal(
      evictionMessage('memory', [
        { name: 'app', usage: '301Mi' },
        { name: 'sidecar', request: '512Mi', usage: '100Mi' },
      ]),
      'The node was low on resource: memory. Container app was using 301Mi, which exceeds its request of 0. ',
    );
  });
  it('writes quantities as BinarySI does', () => {
    assert.deepEqual([binaryQuantity(2 ** 30), binaryQuantity(1536 * 1024), binaryQuantity(1000)], ['1Gi', '1536Ki', '1000']);
  });
});
