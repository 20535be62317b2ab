/**
 * The source delivers a Node change only when its readiness changed (the core reads nothing
 * else of a Node): heartbeats (a new lastHeartbeatTime, a new resourceVersion) are not delivered.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { NodeReadinessFilter } from '../../../src/cluster/node-readiness-filter.js';
import type { KindToObject } from '../../../src/core/types.js';

const node = (rv: string, status: string, heartbeat: string, since = '2026-11-25T10:00:00Z'): KindToObject['Node'] => ({
  metadata: { name: 'n1', resourceVersion: rv },
  status: {
    conditions: [
      {
        type: 'Ready',
        status,
        reason: status === 'True' ? 'KubeletReady' : 'NodeStatusUnknown',
        lastHeartbeatTime: heartbeat as never,
        lastTransitionTime: since as never,
      },
    ],
  },
});

it('a Node is delivered when first seen, when its readiness changes and when it leaves, not on heartbeats', () => {
  const f = new NodeReadinessFilter();
  const seen = [
    f.changed('upsert', node('1', 'True', 'h1')),
    f.changed('upsert', node('2', 'True', 'h2')),
    f.changed('upsert', node('3', 'Unknown', 'h2', '2026-11-25T10:05:00Z')),
    f.changed('upsert', node('4', 'Unknown', 'h3', '2026-11-25T10:05:00Z')),
    f.changed('upsert', node('5', 'True', 'h4', '2026-11-25T10:06:00Z')),
    f.changed('delete', node('6', 'True', 'h4', '2026-11-25T10:06:00Z')),
    f.changed('upsert', node('7', 'True', 'h5')),
  ];
  assert.deepEqual(seen, [true, false, true, false, true, true, true]);
});

it('a taint or label change is delivered (it decides where a DaemonSet runs pods)', () => {
  const f = new NodeReadinessFilter();
  const n = node('1', 'True', 'h1');
  f.changed('upsert', n);
  const tainted = { ...n, spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } };
  assert.equal(f.changed('upsert', tainted), true);
  assert.equal(f.changed('upsert', tainted), false);
});

it('a NotReady Node that is deleted is delivered (the trackers forget it)', () => {
  const f = new NodeReadinessFilter();
  f.changed('upsert', node('1', 'False', 'h1'));
  assert.equal(f.changed('delete', node('2', 'False', 'h1')), true);
});
