/**
 * `full` success also needs the new ReplicaSet to hold every desired pod, ready. The Deployment's
 * counts sum every ReplicaSet's, and the Deployment and ReplicaSet watches are not ordered: after
 * a change that scales (1 → 2) and rolls out at once, the Deployment can read complete (2 updated,
 * 2 available, NewReplicaSetAvailable: an old pod still counted available) while the cached new
 * ReplicaSet still says 1 of 1, or 1 ready of 2. Seen once on the real control plane: "SUCCEEDED -
 * revision 3 rolled out: 1/2 pods ready".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { availableTrue, deployment, progressing, replicaSet, run, T0, up, verdictOf } from './builders.js';

const complete = () =>
  deployment({ revision: '3', generation: 3, replicas: 2, conditions: [availableTrue, progressing('NewReplicaSetAvailable', 'web-c')] });
const old = replicaSet({ name: 'web-b', revision: '2', replicas: 0, ready: 0, statusReplicas: 0 });

describe('the new ReplicaSet holds every desired pod, ready', () => {
  for (const [what, rs] of [
    ['cached at 1 of 1 (not yet scaled to 2)', replicaSet({ name: 'web-c', revision: '3', replicas: 1, ready: 1 })],
    ['scaled to 2 with 1 ready', replicaSet({ name: 'web-c', revision: '3', replicas: 2, ready: 1, statusReplicas: 2 })],
  ] as const) {
    it(`no success while the new ReplicaSet is ${what}, though the Deployment reads complete`, () => {
      const r = run([
        up('ReplicaSet', old, 1),
        up('ReplicaSet', rs, 1),
        up('Deployment', complete(), 2),
        { type: 'synced', at: T0 + 2000 },
      ]);
      assert.equal(verdictOf(r.events), undefined, JSON.stringify(verdictOf(r.events)?.summary));
    });
  }

  it('succeeds once the new ReplicaSet has both pods ready', () => {
    const partial = replicaSet({ name: 'web-c', revision: '3', replicas: 2, ready: 1, statusReplicas: 2 });
    const ready = replicaSet({ name: 'web-c', revision: '3', replicas: 2, ready: 2, statusReplicas: 2 });
    const r = run([
      up('ReplicaSet', old, 1),
      up('ReplicaSet', partial, 1),
      up('Deployment', complete(), 2),
      { type: 'synced', at: T0 + 2000 },
      up('ReplicaSet', ready, 3),
    ]);
    assert.equal(verdictOf(r.events)?.outcome, 'succeeded');
    assert.match(verdictOf(r.events)?.summary ?? '', /revision 3 rolled out: 2\/2 pods ready/);
  });
});
