import assert from 'node:assert/strict';
import { it } from 'node:test';
import { logTargets } from '../../../src/core/log-targets.js';
import { pod, run, running, terminatedLast, up, waiting } from './builders.js';
import { rollingTo2, UPDATE } from './scenario.js';

it('log targets: started instances of the new revision only, a restart is a new instance; a pod being deleted offers its ended ones', () => {
  const ended = { ...running(), state: { terminated: { exitCode: 1, reason: 'Error' } }, containerID: 'docker://e1' };
  const crashed = { ...running('app', { restarts: 1, last: terminatedLast(1) }), containerID: 'docker://b2' };
  const { state } = run(
    [
      ...rollingTo2({ replicas: 3 }),
      up('Pod', pod({ name: 'web-1-old', rs: 'web-1', containers: [{ ...running(), containerID: 'docker://o1' }] }), 1),
      up('Pod', pod({ name: 'web-2-a', rs: 'web-2', containers: [{ ...running(), containerID: 'docker://a1' }] }), 1),
      up('Pod', pod({ name: 'web-2-b', rs: 'web-2', containers: [crashed] }), 1),
      up('Pod', pod({ name: 'web-2-c', rs: 'web-2', containers: [waiting('ContainerCreating', undefined)] }), 1),
      up('Pod', pod({ name: 'web-2-d', rs: 'web-2', deleting: true, containers: [{ ...running(), containerID: 'docker://d1' }] }), 1),
      up('Pod', pod({ name: 'web-2-e', rs: 'web-2', deleting: true, containers: [ended] }), 1),
    ],
    UPDATE,
  );
  assert.deepEqual(logTargets(state), [
    { pod: 'web-2-a', container: 'app', instance: 'docker://a1', revision: '2', finished: false },
    { pod: 'web-2-b', container: 'app', instance: 'docker://b2', revision: '2', finished: false },
    { pod: 'web-2-e', container: 'app', instance: 'docker://e1', revision: '2', finished: true },
  ]);
  assert.deepEqual(logTargets(state, ['sidecar']), [], 'a container filter that matches nothing');
  assert.equal(logTargets(state, ['app']).length, 3);
});

it('log targets: a container waiting to restart offers the instance that ended, finished', () => {
  const backOff = waiting('CrashLoopBackOff', 'back-off 10s restarting failed container', { restarts: 1, last: terminatedLast(3) });
  const { state } = run(
    [
      ...rollingTo2({ replicas: 2 }),
      up('Pod', pod({ name: 'web-2-a', rs: 'web-2', containers: [backOff] }), 1),
      up('Pod', pod({ name: 'web-2-b', rs: 'web-2', containers: [waiting('CrashLoopBackOff', undefined, { restarts: 1 })] }), 1),
    ],
    UPDATE,
  );
  assert.deepEqual(
    logTargets(state),
    [{ pod: 'web-2-a', container: 'app', instance: 'docker://dead', revision: '2', finished: true }],
    'the crashed instance, read to its end; a waiting container with no ended instance offers none',
  );
});
