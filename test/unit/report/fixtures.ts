/** Events and verdicts for rendering tests, hand-built or traced through the reducer (never used to test tracking itself). */
import type { Problem, RolloutEvent, Verdict } from '../../../src/core/types.js';
import { failedJobObject, failedJobPod, jobObject, run, up, verdictOf } from '../core/builders.js';

export const T0 = Date.UTC(2026, 10, 22, 4, 0, 0);
export const NGINX = { namespace: 'demo', name: 'nginx' };

/** A rollout from revision 1 to 2 of a 2-replica Deployment, ending in success. */
export function successfulRollout(deployment = NGINX): RolloutEvent[] {
  const at = (s: number) => T0 + s * 1000;
  const d = { deployment, workload: { kind: 'Deployment' as const, ...deployment } };
  return [
    { ...d, at: at(0), type: 'started' },
    { ...d, at: at(0), type: 'revision', revision: '2', previous: '1', change: 'new' },
    { ...d, at: at(0), type: 'phase', phase: 'new-replicaset', message: 'new ReplicaSet nginx-2 created' },
    { ...d, at: at(0), type: 'replicaset', name: 'nginx-2', revision: '2', role: 'new', desired: 1, ready: 0, available: 0, created: true },
    { ...d, at: at(0), type: 'replicaset', name: 'nginx-1', revision: '1', role: 'old', desired: 2, ready: 2, available: 2, created: true },
    { ...d, at: at(1), type: 'pod', name: 'nginx-2-a', replicaSet: 'nginx-2', revision: '2', state: 'pending' },
    { ...d, at: at(1), type: 'pod', name: 'nginx-2-a', replicaSet: 'nginx-2', revision: '2', state: 'pending' },
    {
      ...d,
      at: at(2),
      type: 'pod',
      name: 'nginx-2-a',
      replicaSet: 'nginx-2',
      revision: '2',
      state: 'container-creating',
      previous: 'pending',
      node: 'node-1',
      detail: 'ContainerCreating',
    },
    {
      ...d,
      at: at(2),
      type: 'progress',
      desired: 2,
      ready: 2,
      updated: 1,
      available: 2,
      message: 'Waiting for app ReplicaSet to be available (0/2 Pods available)',
    },
    {
      ...d,
      at: at(3),
      type: 'progress',
      desired: 2,
      ready: 2,
      updated: 1,
      available: 2,
      message: 'Waiting for app ReplicaSet to be available (0/2 Pods available)',
    },
    {
      ...d,
      at: at(4),
      type: 'pod',
      name: 'nginx-2-a',
      replicaSet: 'nginx-2',
      revision: '2',
      state: 'ready',
      previous: 'container-creating',
    },
    { ...d, at: at(4), type: 'phase', phase: 'scaling-down-old', message: 'old ReplicaSet nginx-1 scaling down' },
    {
      ...d,
      at: at(5),
      type: 'replicaset',
      name: 'nginx-2',
      revision: '2',
      role: 'new',
      desired: 2,
      ready: 2,
      available: 2,
      created: false,
    },
    {
      ...d,
      at: at(5),
      type: 'replicaset',
      name: 'nginx-1',
      revision: '1',
      role: 'old',
      desired: 0,
      ready: 0,
      available: 0,
      created: false,
    },
    { ...d, at: at(6), type: 'phase', phase: 'complete', message: 'revision 2 is available' },
    { ...d, at: at(6), type: 'verdict', verdict: successVerdict(deployment) },
  ];
}

export function successVerdict(deployment = NGINX): Verdict {
  return {
    outcome: 'succeeded',
    workload: { kind: 'Deployment', ...deployment },
    deployment,
    revision: '2',
    summary: 'revision 2 rolled out: 2/2 pods ready',
    problems: [],
    replicas: { desired: 2, ready: 2, updated: 2, available: 2 },
    startedAt: T0,
    finishedAt: T0 + 6000,
    pulumiMessages: [],
    hints: [],
  };
}

export function imageProblem(pod = 'nginx-2-a'): Problem {
  return {
    id: `image-pull-not-found/Pod/${pod}/nginx`,
    class: 'image-pull-not-found',
    object: { kind: 'Pod', name: pod },
    container: 'nginx',
    reason: 'ImagePullBackOff',
    message: 'Back-off pulling image "nginx:nonexistent"',
    explanation: 'image "nginx:nonexistent" does not exist in its registry',
    restartCount: 0,
    firstSeen: T0 + 2000,
    lastSeen: T0 + 9000,
    events: [
      {
        type: 'Warning',
        reason: 'Failed',
        message: 'Failed to pull image "nginx:nonexistent": manifest unknown',
        object: `Pod/${pod}`,
        count: 2,
        lastSeen: '2026-11-22T04:00:05Z',
      },
      {
        type: 'Warning',
        reason: 'Failed',
        message: 'Failed to pull image "nginx:nonexistent": manifest unknown',
        object: `Pod/${pod}`,
        count: 3,
        lastSeen: '2026-11-22T04:00:09Z',
      },
      {
        type: 'Normal',
        reason: 'BackOff',
        message: 'Back-off pulling image "nginx:nonexistent"',
        object: `Pod/${pod}`,
        count: 4,
        lastSeen: '2026-11-22T04:00:09Z',
      },
    ],
    hints: [`kubectl -n demo describe pod ${pod}`],
  };
}

export function crashProblem(pod = 'nginx-2-b'): Problem {
  return {
    id: `crash-loop/Pod/${pod}/nginx`,
    class: 'crash-loop',
    object: { kind: 'Pod', name: pod },
    container: 'nginx',
    reason: 'CrashLoopBackOff',
    message: 'back-off 10s restarting failed container=nginx',
    explanation: 'container exits with code 1 right after starting, again and again',
    exitCode: 1,
    restartCount: 3,
    terminationMessage: 'boom',
    firstSeen: T0 + 2000,
    lastSeen: T0 + 9000,
    events: [],
    logs: [
      { pod, container: 'nginx', previous: true, lines: ['starting', 'fatal: config missing'] },
      { pod, container: 'nginx', previous: false, lines: [], error: 'container not running' },
    ],
    hints: [`kubectl -n demo logs ${pod} -c nginx --previous`],
  };
}

export function failedVerdict(problems: Problem[] = [imageProblem(), imageProblem('nginx-2-c'), crashProblem()]): Verdict {
  return {
    outcome: 'failed',
    deployment: NGINX,
    workload: { kind: 'Deployment' as const, ...NGINX },
    revision: '2',
    summary: 'pod nginx-2-a: image "nginx:nonexistent" does not exist in its registry',
    problems,
    replicas: { desired: 2, ready: 2, updated: 1, available: 2 },
    startedAt: T0,
    finishedAt: T0 + 9500,
    pulumiMessages: ['[Pod demo/nginx-2-a]: containers with unready status: [nginx] -- Back-off pulling image "nginx:nonexistent"'],
    hints: ['kubectl -n demo rollout status deployment/nginx', 'kubectl -n demo describe pod nginx-2-a'],
  };
}

/** A rollout that fails on a missing image. */
export function failedRollout(): RolloutEvent[] {
  const d = { deployment: NGINX, workload: { kind: 'Deployment' as const, ...NGINX } };
  const p = imageProblem();
  return [
    { ...d, at: T0, type: 'started' },
    { ...d, at: T0, type: 'revision', revision: '2', previous: '1', change: 'new' },
    { ...d, at: T0, type: 'replicaset', name: 'nginx-2', revision: '2', role: 'new', desired: 1, ready: 0, available: 0, created: true },
    { ...d, at: T0 + 1000, type: 'pod', name: 'nginx-2-a', replicaSet: 'nginx-2', revision: '2', state: 'waiting', detail: 'ErrImagePull' },
    { ...d, at: T0 + 2000, type: 'k8s-event', event: p.events[0]! },
    { ...d, at: T0 + 2100, type: 'k8s-event', event: p.events[1]! },
    { ...d, at: T0 + 2000, type: 'problem', problem: p, failsAt: T0 + 2000 },
    { ...d, at: T0 + 9500, type: 'verdict', verdict: failedVerdict([p]) },
  ];
}

/**
 * The verdict of Job apps/migrate (backoffLimit 0), traced through the reducer: its one pod exited
 * with code 3 ("no table"), and the Job failed (BackoffLimitExceeded).
 */
export function failedJobVerdict(): Verdict {
  const job = jobObject('migrate', { backoffLimit: 0 }, { active: 1 });
  const failed = failedJobObject('migrate', { backoffLimit: 0 }, 1);
  const { events } = run([up('Job', job, 1), up('Pod', failedJobPod('migrate-a', 3, 'no table'), 2), up('Job', failed, 3)], {
    kind: 'Job',
    name: 'migrate',
  });
  const verdict = verdictOf(events);
  if (!verdict) throw new Error('the failed Job reached no verdict');
  return verdict;
}
