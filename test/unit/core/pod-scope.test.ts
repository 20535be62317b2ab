/**
 * The reducer diagnoses again only the pods an observation can change (pod-scope.ts). After every
 * observation, the problems it holds must be the ones a diagnosis of every pod would give: same
 * ids, classes and explanations. Traces for each kind, with the changes that reach other pods than
 * the touched one (a node going NotReady, a StatefulSet's OrderedReady wait naming the ordinals,
 * a new revision).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { Observation, RolloutState, TrackTarget } from '../../../src/core/index.js';
import { initialState, reduce, resolvePolicy } from '../../../src/core/index.js';
import { currentProblems } from '../../../src/core/problems.js';
import {
  daemonSetObject,
  del,
  failedJobPod,
  iso,
  jobObject,
  podEvent,
  running,
  statefulSetObject,
  T0,
  TARGET,
  terminatedLast,
  tick,
  up,
  waiting,
  workloadPod,
} from './builders.js';

/**
 * Each problem's id, class and explanation. An image pull's words depend on the sightings before
 * it (a pull seen failing as "not found" stays so), which a second diagnosis of the same state
 * reads differently, so for pulls only the class is compared.
 */
const summary = (problems: RolloutState['problems']) =>
  Object.values(problems)
    .map((p) => `${p.id} ${p.class}${p.class.startsWith('image-pull') ? '' : `: ${p.explanation}`}`)
    .sort();

/** Reduces `observations` one by one; after each, the held problems equal a full diagnosis. @returns the final state. */
function assertScopedEqualsFull(observations: Observation[], target: Partial<TrackTarget>): RolloutState {
  let state = initialState({ ...TARGET, ...target }, resolvePolicy({}), T0);
  for (const [i, obs] of observations.entries()) {
    [state] = reduce(state, obs);
    if (state.verdict) break;
    const full = currentProblems(state, obs.at, [], 'all');
    assert.deepEqual(summary(state.problems), summary(full), `after observation ${i} (${obs.type} ${'kind' in obs ? obs.kind : ''})`);
  }
  return state;
}

const crashing = () => [waiting('CrashLoopBackOff', 'back-off 40s restarting failed container', { restarts: 3, last: terminatedLast(1) })];

function node(name: string, ready: 'True' | 'Unknown', at: number, taints: V1Node['spec'] = {}): V1Node {
  return {
    metadata: { name, uid: `node-${name}`, resourceVersion: `${name}${ready}${at}`, labels: {} },
    spec: taints,
    status: { conditions: [{ type: 'Ready', status: ready, lastTransitionTime: iso(at) as unknown as Date }] },
  };
}

describe('scoped diagnosis equals a diagnosis of every pod', () => {
  it('StatefulSet OrderedReady: the wait a failing pod names follows the other ordinals', () => {
    const sts = statefulSetObject(
      'db',
      { replicas: 3 },
      { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 1 },
      2,
    );
    const pod = (name: string, revision: string, o: { crash?: boolean; node?: string } = {}) =>
      workloadPod('StatefulSet', 'db', {
        name,
        revision,
        node: o.node ?? 'sim-node-1',
        ...(o.crash ? { ready: false, containers: crashing() } : {}),
      });
    const state = assertScopedEqualsFull(
      [
        up('StatefulSet', sts, 1),
        { type: 'synced', at: T0 + 1000 },
        up('Pod', pod('db-0', 'db-1'), 2),
        up('Pod', pod('db-1', 'db-1'), 2),
        up('Pod', pod('db-2', 'db-2', { crash: true }), 3),
        podEvent('db-2', 'BackOff', 'Back-off restarting failed container', 3),
        // db-1 recreated at the update revision: db-2's wait no longer names it.
        del('Pod', pod('db-1', 'db-1'), 4),
        up('Pod', pod('db-1', 'db-2', { crash: true, node: 'sim-node-2' }), 5),
        up('Node', node('sim-node-2', 'Unknown', 6), 6),
        tick(7),
        up('Node', node('sim-node-2', 'True', 8), 8),
        up('Pod', pod('db-1', 'db-2'), 9),
        tick(10),
      ],
      { kind: 'StatefulSet', name: 'db' },
    );
    assert.ok(
      Object.values(state.problems).some((p) => p.object.name === 'db-2' && /db-0 waits for it/.test(p.explanation)),
      summary(state.problems).join('\n'),
    );
  });

  it('DaemonSet: a new revision, a pod that cannot pull, a node that goes NotReady', () => {
    const ds = (generation: number) =>
      daemonSetObject(
        'agent',
        { desiredNumberScheduled: 2, updatedNumberScheduled: generation === 1 ? 2 : 0, numberReady: 1 },
        { generation },
      );
    const pod = (name: string, revision: string, nodeName: string, pull?: boolean) =>
      workloadPod('DaemonSet', 'agent', {
        name,
        revision,
        node: nodeName,
        ...(pull ? { ready: false, containers: [waiting('ImagePullBackOff', 'Back-off pulling image "agent:2"')] } : {}),
      });
    const state = assertScopedEqualsFull(
      [
        up('Node', node('n-1', 'True', 0), 0),
        up('Node', node('n-2', 'True', 0), 0),
        up('DaemonSet', ds(1), 1),
        up('Pod', pod('agent-a', '1', 'n-1'), 1),
        up('Pod', pod('agent-b', '1', 'n-2', true), 1),
        { type: 'synced', at: T0 + 1000 },
        up('DaemonSet', ds(2), 2),
        up('Pod', pod('agent-c', '2', 'n-1', true), 3),
        podEvent('agent-c', 'Failed', 'Failed to pull image "agent:2": not found', 3),
        up('Node', node('n-1', 'Unknown', 4), 4),
        tick(5),
      ],
      { kind: 'DaemonSet', name: 'agent' },
    );
    assert.ok(
      Object.values(state.problems).some((p) => p.object.name === 'agent-c'),
      summary(state.problems).join('\n'),
    );
    assert.ok(!Object.values(state.problems).some((p) => p.object.name === 'agent-b'), 'a pod of the old revision is not diagnosed');
  });

  it('Job: failed pods while the Job retries, then a running one', () => {
    const job = jobObject('migrate', { backoffLimit: 4, completions: 3, parallelism: 2 }, { active: 2, failed: 1 });
    const failed = (name: string) => failedJobPod(name, 2);
    const state = assertScopedEqualsFull(
      [
        up('Job', job, 1),
        { type: 'synced', at: T0 + 1000 },
        up('Pod', failed('migrate-a'), 2),
        up('Pod', workloadPod('Job', 'migrate', { name: 'migrate-b', containers: [running()] }), 2),
        up('Pod', failed('migrate-c'), 3),
        del('Pod', failed('migrate-a'), 4),
        tick(5),
      ],
      { kind: 'Job', name: 'migrate' },
    );
    assert.deepEqual(
      Object.values(state.problems).map((p) => `${p.class} ${p.object.name}`),
      ['job-pod-failed migrate-c'],
    );
  });
});
