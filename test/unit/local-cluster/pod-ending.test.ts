/**
 * The simulated kubelet's admission (lifecycle/predicate.go `GeneralPredicates` order: pods, cpu,
 * memory, node selector), the eviction manager's admission under node pressure, and the 1.20
 * eviction message.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { admissionFailure, binaryQuantity, evictionMessage, pressureAdmissionFailure } from '../../../local-cluster/kubelet/pod-ending.js';

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

describe("the eviction manager's admission under node pressure", () => {
  const rejected = { reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' };
  it('admits every pod when the node reports no pressure', () => {
    assert.equal(pressureAdmissionFailure(podWith(), []), undefined);
  });
  it('rejects a BestEffort pod under memory pressure, with the condition list', () => {
    assert.deepEqual(pressureAdmissionFailure(podWith(), ['MemoryPressure']), rejected);
  });
  it('admits under memory pressure a pod with a request or a limit, or one tolerating the memory-pressure taint', () => {
    assert.equal(pressureAdmissionFailure(podWith({ cpu: '10m' }), ['MemoryPressure']), undefined);
    const limited: V1Pod = { spec: { containers: [{ name: 'app', image: 'nginx', resources: { limits: { memory: '1Gi' } } }] } };
    assert.equal(pressureAdmissionFailure(limited, ['MemoryPressure']), undefined);
    const tolerates = podWith(
      {},
      { tolerations: [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }] },
    );
    assert.equal(pressureAdmissionFailure(tolerates, ['MemoryPressure']), undefined);
    assert.equal(pressureAdmissionFailure(podWith({}, { tolerations: [{ operator: 'Exists' }] }), ['MemoryPressure']), undefined);
  });
  it('a toleration of another taint or effect does not count', () => {
    const other = podWith({}, { tolerations: [{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists' }] });
    assert.deepEqual(pressureAdmissionFailure(other, ['MemoryPressure']), rejected);
    const noExecute = podWith(
      {},
      { tolerations: [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoExecute' }] },
    );
    assert.deepEqual(pressureAdmissionFailure(noExecute, ['MemoryPressure']), rejected);
  });
  it('rejects every pod that is not critical under disk pressure, or under two pressures', () => {
    assert.deepEqual(pressureAdmissionFailure(podWith({ cpu: '1' }), ['DiskPressure']), {
      reason: 'Evicted',
      message: 'The node had condition: [DiskPressure]. ',
    });
    assert.equal(
      pressureAdmissionFailure(podWith({ cpu: '1' }), ['MemoryPressure', 'DiskPressure'])?.message,
      'The node had condition: [MemoryPressure DiskPressure]. ',
    );
  });
  it('admits critical pods: system-critical priority, mirror pods', () => {
    assert.equal(pressureAdmissionFailure(podWith({}, { priority: 2_000_000_000 }), ['DiskPressure']), undefined);
    assert.deepEqual(pressureAdmissionFailure(podWith({}, { priority: 1_999_999_999 }), ['MemoryPressure']), rejected);
    const mirror: V1Pod = { ...podWith(), metadata: { annotations: { 'kubernetes.io/config.mirror': 'abc' } } };
    assert.equal(pressureAdmissionFailure(mirror, ['DiskPressure']), undefined);
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
