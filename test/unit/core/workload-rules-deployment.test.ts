/**
 * The Deployment rule from a table (kubectl's `rollout status` words, kstatus's reasons): observed
 * generation, updated, old pods pending termination, availability, a paused rollout and a passed
 * progress deadline. Sources: docs/dev/workload-rules.md.
 */
import { describe, it } from 'node:test';
import type { V1Deployment, V1DeploymentStatus } from '@kubernetes/client-node';
import { deploymentRule } from '../../../src/core/kinds/deployment.js';
import type { PodProgress } from '../../../src/core/kinds/rule.js';
import { check, type Expected } from './workload-rules-check.js';

function dep(generation: number, status?: Partial<V1DeploymentStatus>, o: { replicas?: number; paused?: boolean } = {}): V1Deployment {
  return {
    metadata: { name: 'web', namespace: 'ns', generation },
    spec: { replicas: o.replicas ?? 3, selector: {}, template: {}, ...(o.paused ? { paused: true } : {}) },
    status,
  } as V1Deployment;
}

/** `n` pods, all of the current template, Ready and available. */
const all = (g: number, n: number): Partial<V1DeploymentStatus> => ({
  observedGeneration: g,
  replicas: n,
  updatedReplicas: n,
  readyReplicas: n,
  availableReplicas: n,
});

const deadline = {
  type: 'Progressing',
  status: 'False',
  reason: 'ProgressDeadlineExceeded',
  message: 'ReplicaSet "web-2" has timed out progressing.',
};

const rows: { name: string; obj: V1Deployment; want: Expected<PodProgress> }[] = [
  {
    name: 'no status yet',
    obj: dep(1),
    want: { state: 'progressing', reason: 'NotObserved', message: 'Waiting for deployment spec update to be observed...' },
  },
  {
    name: 'a new generation not observed yet, although the old one is complete',
    obj: dep(2, all(1, 3)),
    want: { state: 'progressing', reason: 'NotObserved' },
  },
  {
    name: 'one of three pods updated',
    obj: dep(2, { ...all(2, 3), updatedReplicas: 1, replicas: 4 }),
    want: {
      state: 'progressing',
      reason: 'PodsNotUpdated',
      message: 'Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...',
      progress: { desired: 3, updated: 1 },
    },
  },
  {
    name: 'all updated, an old pod still terminating',
    obj: dep(2, { ...all(2, 3), replicas: 4 }),
    want: {
      state: 'progressing',
      reason: 'OldPodsPending',
      message: 'Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...',
    },
  },
  {
    name: 'all updated, two not available yet (minReadySeconds)',
    obj: dep(2, { ...all(2, 3), availableReplicas: 1 }),
    want: {
      state: 'progressing',
      reason: 'PodsNotAvailable',
      message: 'Waiting for deployment "web" rollout to finish: 1 of 3 updated replicas are available...',
    },
  },
  {
    name: 'rolled out',
    obj: dep(2, all(2, 3)),
    want: { state: 'done', reason: 'RolledOut', message: 'deployment "web" successfully rolled out', progress: { ready: 3, available: 3 } },
  },
  {
    name: 'scaled to zero',
    obj: dep(3, all(3, 0), { replicas: 0 }),
    want: { state: 'done', reason: 'RolledOut' },
  },
  {
    name: 'paused with the template not rolled out: nobody will finish it',
    obj: dep(2, { ...all(2, 3), updatedReplicas: 0 }, { paused: true }),
    want: { state: 'blocked', reason: 'Paused', message: /is paused \(spec\.paused: true\) and 0 of 3 pods run the current template/ },
  },
  {
    name: 'paused once rolled out is done',
    obj: dep(2, all(2, 3), { paused: true }),
    want: { state: 'done', reason: 'RolledOut' },
  },
  {
    name: 'the progress deadline passed',
    obj: dep(2, { ...all(2, 3), updatedReplicas: 1, conditions: [deadline] as V1DeploymentStatus['conditions'] }),
    want: { state: 'failed', reason: 'ProgressDeadlineExceeded', message: 'deployment "web" exceeded its progress deadline' },
  },
];

describe('deploymentRule', () => {
  for (const row of rows) it(row.name, () => check(deploymentRule(row.obj), row.want));
});
