/** Events are looked up per involved object through an index kept by intake. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubeEventsAbout } from '../../../src/core/relations.js';
import { event, run, up } from './builders.js';

describe('kubeEventsAbout', () => {
  it('returns the events of one object in arrival order; an updated event stays in place, once', () => {
    const a1 = event({ kind: 'Pod', name: 'web-1-a', reason: 'Failed', message: 'one', uid: 'u1' });
    const b1 = event({ kind: 'Pod', name: 'web-1-b', reason: 'Failed', message: 'other pod', uid: 'u2' });
    const rs = event({ kind: 'ReplicaSet', name: 'web-1-a', reason: 'FailedCreate', message: 'same name, other kind', uid: 'u3' });
    const a2 = event({ kind: 'Pod', name: 'web-1-a', reason: 'BackOff', message: 'two', uid: 'u4' });
    const a1again = { ...a1, count: 5, metadata: { ...a1.metadata, resourceVersion: '9' } };
    const foreign = event({ kind: 'Pod', name: 'api-1-a', reason: 'Failed', message: 'not ours', uid: 'u5' });
    const { state } = run([
      up('Event', a1, 1),
      up('Event', b1, 2),
      up('Event', rs, 3),
      up('Event', a2, 4),
      up('Event', a1again, 5),
      up('Event', foreign, 6),
    ]);
    assert.deepEqual(
      kubeEventsAbout(state, 'Pod', 'web-1-a').map((e) => `${e.message}:${e.count}`),
      ['one:5', 'two:1'],
    );
    assert.deepEqual(
      kubeEventsAbout(state, 'ReplicaSet', 'web-1-a').map((e) => e.message),
      ['same name, other kind'],
    );
    assert.deepEqual(kubeEventsAbout(state, 'Pod', 'api-1-a'), []);
  });
});
