/**
 * The simulated kubelet's list + watch hands each object to its sink: an error in the handling of
 * one object is logged with its name, and the others are still handled.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { ObjectWatch } from '../../../local-cluster/kubelet/object-watch.js';

type Obj = { metadata: { uid: string; namespace: string; name: string; resourceVersion?: string } };

const pod = (name: string): Obj => ({ metadata: { uid: `uid-${name}`, namespace: 'shop', name } });

it('an error while handling one listed pod is logged with its name, and the next pod is still handled', async () => {
  const kc = new KubeConfig();
  // Nothing listens there: the watch after the list fails at once, and the test stops it.
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const handled: string[] = [];
  const logs: string[] = [];
  const sink = {
    upsert(obj: Obj) {
      if (obj.metadata.name === 'bad') throw new Error('invalid quantity "64e6"');
      handled.push(obj.metadata.name);
    },
    remove() {},
    known: () => [],
  };
  const target = {
    path: '/api/v1/pods',
    what: 'pod watch for sim-node-1',
    list: async () => ({ items: [pod('bad'), pod('good')], metadata: { resourceVersion: '1' } }),
  };
  const watch = new ObjectWatch<Obj>(kc, target, sink, (line) => logs.push(line));
  await watch.start();
  watch.stop();
  assert.deepEqual(handled, ['good']);
  assert.deepEqual(logs, ['pod watch for sim-node-1: handling shop/bad failed: invalid quantity "64e6"']);
});
