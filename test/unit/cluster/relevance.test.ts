import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRoutinePodEvent, mayConcern, routinePodEventLineVersion } from '../../../src/cluster/relevance.js';
import type { KindToObject, Observation, WatchedKind } from '../../../src/core/types.js';
import { loadFixture, replay } from '../../fixtures/replay.js';

const ALL = [
  'first-rollout',
  'update-to-2',
  'broken-image',
  'crash-loop',
  'not-ready',
  'missing-configmap',
  'unschedulable',
  'quota',
  'rollback',
];

const rs = (name: string, owner?: string) =>
  ({
    metadata: { name, ownerReferences: owner ? [{ kind: 'Deployment', name: owner, controller: true }] : undefined },
  }) as KindToObject['ReplicaSet'];
const pod = (name: string, owners?: Array<{ kind: string; name: string; controller?: boolean }>) =>
  ({ metadata: { name, ownerReferences: owners } }) as KindToObject['Pod'];
const event = (kind: string, name: string) => ({ metadata: { name: 'e' }, involvedObject: { kind, name } }) as KindToObject['Event'];

describe('mayConcern: what a shared namespace watch forwards to the tracker of "web"', () => {
  const up = (kind: WatchedKind, o: KindToObject[WatchedKind]) => mayConcern('web', 'upsert', kind, o, 'Deployment');

  it('ReplicaSets of web (or without a Deployment owner) only', () => {
    assert.equal(up('ReplicaSet', rs('web-abc', 'web')), true);
    assert.equal(up('ReplicaSet', rs('api-abc', 'api')), false);
    assert.equal(up('ReplicaSet', rs('loose')), true);
    assert.equal(mayConcern('web', 'delete', 'ReplicaSet', rs('api-abc', 'api'), 'Deployment'), true);
  });

  it('Pods of web-* ReplicaSets, and every pod without a controller owner (orphaned)', () => {
    assert.equal(up('Pod', pod('web-abc-1', [{ kind: 'ReplicaSet', name: 'web-abc', controller: true }])), true);
    assert.equal(up('Pod', pod('api-abc-1', [{ kind: 'ReplicaSet', name: 'api-abc', controller: true }])), false);
    assert.equal(up('Pod', pod('db-0', [{ kind: 'StatefulSet', name: 'db', controller: true }])), false);
    assert.equal(up('Pod', pod('web-abc-1')), true);
    assert.equal(up('Pod', pod('api-abc-1', [])), true);
    assert.equal(
      mayConcern('web', 'delete', 'Pod', pod('api-abc-1', [{ kind: 'ReplicaSet', name: 'api-abc', controller: true }]), 'Deployment'),
      true,
    );
  });

  it('Events about web, its objects and PVCs; only the named Deployment', () => {
    assert.equal(up('Event', event('Pod', 'web-abc-1')), true);
    assert.equal(up('Event', event('Deployment', 'web')), true);
    assert.equal(up('Event', event('PersistentVolumeClaim', 'data')), true);
    assert.equal(up('Event', event('Pod', 'api-abc-1')), false);
    assert.equal(up('Deployment', { metadata: { name: 'web' } }), true);
    assert.equal(up('Deployment', { metadata: { name: 'api' } }), false);
  });

  it('for a StatefulSet, DaemonSet or Job tracker: its own pods and object only, never a ReplicaSet or a Deployment of its name', () => {
    const sts = (kind: WatchedKind, o: KindToObject[WatchedKind]) => mayConcern('db', 'upsert', kind, o, 'StatefulSet');
    assert.equal(sts('Pod', pod('db-0', [{ kind: 'StatefulSet', name: 'db', controller: true }])), true);
    assert.equal(sts('Pod', pod('db-x-0', [{ kind: 'StatefulSet', name: 'db-x', controller: true }])), false);
    assert.equal(sts('Pod', pod('db-abc-1', [{ kind: 'ReplicaSet', name: 'db-abc', controller: true }])), false);
    assert.equal(sts('ReplicaSet', rs('db-abc', 'db')), false);
    assert.equal(sts('StatefulSet', { metadata: { name: 'db' } }), true);
    assert.equal(sts('Deployment', { metadata: { name: 'db' } }), false);
    assert.equal(sts('Event', event('Pod', 'db-0')), true);
    assert.equal(
      mayConcern('migrate', 'upsert', 'Pod', pod('migrate-7x', [{ kind: 'Job', name: 'migrate', controller: true }]), 'Job'),
      true,
    );
    assert.equal(mayConcern('agent', 'upsert', 'DaemonSet', { metadata: { name: 'agent' } }, 'Job'), false);
  });

  for (const name of ALL) {
    it(`${name}: with another Deployment's objects mixed in, the filter drops them and nothing of web's`, () => {
      const f = loadFixture(name);
      const foreign = JSON.parse(
        JSON.stringify(f.observations.filter((o) => 'kind' in o && o.type === 'upsert'))
          .replace(new RegExp(`"${f.target.name}"`, 'g'), '"zz-other"')
          .replace(new RegExp(`"${f.target.name}-`, 'g'), '"zz-other-'),
      ) as Observation[];
      const mixed = [...f.observations, ...foreign].sort((a, b) => a.at - b.at);
      const kept = mixed.filter((o) => !('kind' in o) || mayConcern(f.target.name, o.type, o.kind, o.object, f.target.kind));
      assert.equal(kept.length, f.observations.length, 'every foreign upsert dropped, every own observation kept');
      assert.deepEqual(replay({ ...f, observations: kept }).events, replay(f).events);
    });
  }
});

describe("isRoutinePodEvent: a pod's routine Normal Events are sent only to trackers with user classifiers", () => {
  const e = (type: string, kind: string, reason: string) =>
    ({ metadata: { name: 'e' }, involvedObject: { kind, name: 'web-abc-1' }, type, reason }) as KindToObject['Event'];

  it('routine: Normal pod Events with a scheduler or kubelet routine reason; nothing else', () => {
    for (const reason of ['Scheduled', 'Pulling', 'Created', 'Started', 'Killing']) {
      assert.equal(isRoutinePodEvent(e('Normal', 'Pod', reason)), true, reason);
      assert.equal(isRoutinePodEvent(e('Warning', 'Pod', reason)), false, `Warning ${reason}`);
      assert.equal(isRoutinePodEvent(e('Normal', 'ReplicaSet', reason)), false, `ReplicaSet ${reason}`);
    }
    // Pulled says how long the image pull took: the verdict's timings read it.
    for (const reason of ['Pulled', 'TriggeredScaleUp', 'Unhealthy', 'BackOff', 'Failed', 'FailedScheduling', 'SuccessfulCreate']) {
      assert.equal(isRoutinePodEvent(e('Normal', 'Pod', reason)), false, reason);
    }
  });

  for (const name of ALL) {
    it(`${name}: without a pod's routine Events the recorded rollout gives the same events and verdict`, () => {
      const f = loadFixture(name);
      const kept = f.observations.filter(
        (o) => !('kind' in o) || o.kind !== 'Event' || o.type === 'delete' || !isRoutinePodEvent(o.object as KindToObject['Event']),
      );
      const dropped = f.observations.length - kept.length;
      if (name !== 'quota') assert.ok(dropped > 0, `the fixture has routine pod Events to drop (${dropped})`);
      // A deadline crossed between two observations is seen at the next one (the tracker's timer
      // fires at the deadline itself): the same events (their times aside), each at most one tick (1 s) later.
      const without = replay({ ...f, observations: kept }).events;
      const all = replay(f).events;
      const timeless = (es: typeof all) => JSON.parse(JSON.stringify(es, (k, v) => (['at', 'lastSeen', 'finishedAt'].includes(k) ? 0 : v)));
      assert.deepEqual(timeless(without), timeless(all));
      for (const [k, e] of without.entries()) assert.ok(e.at - all[k]!.at <= 1000, `${e.type} ${e.at - all[k]!.at} ms later`);
    });
  }
});

describe('routinePodEventLineVersion: routine pod Events passed over before JSON.parse', () => {
  it("on every recorded Event (the apiserver's field order): passed over exactly when routine, with its resourceVersion", () => {
    let routine = 0;
    for (const name of ALL) {
      for (const o of loadFixture(name).observations) {
        if (!('kind' in o) || o.kind !== 'Event') continue;
        const e = o.object as KindToObject['Event'];
        const line = JSON.stringify({ type: o.type === 'delete' ? 'DELETED' : 'MODIFIED', object: e });
        const version = routinePodEventLineVersion(line);
        assert.equal(
          version,
          isRoutinePodEvent(e) ? e.metadata?.resourceVersion : undefined,
          `${e.type} ${e.reason} ${e.involvedObject?.kind}`,
        );
        if (version !== undefined) routine++;
      }
    }
    assert.ok(routine > 20, `the fixtures hold routine pod Events (${routine})`);
  });

  it('never passes over a Warning, another reason, or a message that quotes the keys', () => {
    const ev = (over: Record<string, unknown>) =>
      JSON.stringify({
        type: 'ADDED',
        object: {
          kind: 'Event',
          apiVersion: 'v1',
          metadata: { name: 'e', namespace: 'ns', uid: 'u', resourceVersion: '42' },
          involvedObject: { kind: 'Pod', namespace: 'ns', name: 'web-abc-1', resourceVersion: '9' },
          reason: 'Pulling',
          message: 'ok',
          type: 'Normal',
          ...over,
        },
      });
    assert.equal(routinePodEventLineVersion(ev({})), '42');
    assert.equal(routinePodEventLineVersion(ev({ type: 'Warning' })), undefined);
    assert.equal(routinePodEventLineVersion(ev({ reason: 'TriggeredScaleUp', message: 'x "reason":"Pulling" y' })), undefined);
    assert.equal(routinePodEventLineVersion(ev({ reason: 'Unhealthy', message: '"type":"Normal"' })), undefined);
    assert.equal(routinePodEventLineVersion(ev({ involvedObject: { kind: 'ReplicaSet', name: 'web-abc' } })), undefined);
    assert.equal(routinePodEventLineVersion(ev({ metadata: { name: 'e', annotations: { type: 'Warning' } } })), undefined);
  });
});
