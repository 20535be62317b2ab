/**
 * The feature × kind table: every option whose meaning depends on the kind either changes what a
 * trace of that kind does (a scenario per cell shows it) or is refused with a sentence naming the
 * option and the kind, before anything is opened: by resolveTrackOptions, or for the CLI's own
 * `--pulumi-messages` by the CLI. A cell the facts table marks as working without a scenario here
 * fails, so the table cannot silently grow. The behaviours no option turns on are in
 * feature-kind-behaviours.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1DaemonSet } from '@kubernetes/client-node';
import type { Observation, PolicyOverrides, WorkloadKind } from '../../../src/core/index.js';
import {
  KIND_FACTS,
  KIND_FEATURES,
  type KindFeature,
  resolvePolicy,
  successLogContainers,
  WORKLOAD_KINDS,
} from '../../../src/core/index.js';
import { isRolloutTraceError } from '../../../src/errors.js';
import { formatVerdict } from '../../../src/report/format-verdict.js';
import { resolveTrackOptions } from '../../../src/track/options.js';
import { isOneParagraph, runCliInProcess } from '../../integration/cli/run-cli.js';
import {
  availableTrue,
  daemonSetObject,
  deployment,
  jobObject,
  ofType,
  progressing,
  replicaSet,
  run,
  running,
  statefulSetObject,
  T0,
  terminatedLast,
  tick,
  up,
  verdictOf,
  waiting,
  workloadPod,
} from './builders.js';
import { doneAt2, newPod, rollingTo2, UPDATE } from './scenario.js';

const SYNCED: Observation = { type: 'synced', at: T0 };
const outcome = (obs: Observation[], target: Record<string, unknown>, policy?: PolicyOverrides) =>
  verdictOf(run(obs, target, resolvePolicy(policy)).events)?.outcome;

/** StatefulSet db of 3 rolling to db-2: two pods of db-2 Ready, db-0 still on db-1 and restarting. */
function stsHalfway(): Observation[] {
  const sts = statefulSetObject(
    'db',
    { replicas: 3 },
    { readyReplicas: 2, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 2, currentReplicas: 1 },
    2,
  );
  const pods = [
    workloadPod('StatefulSet', 'db', { name: 'db-2', revision: 'db-2' }),
    workloadPod('StatefulSet', 'db', { name: 'db-1', revision: 'db-2' }),
    workloadPod('StatefulSet', 'db', {
      name: 'db-0',
      revision: 'db-1',
      ready: false,
      containers: [waiting('ContainerCreating', undefined)],
    }),
  ];
  return [up('StatefulSet', sts, 1), ...pods.map((p) => up('Pod', p, 1)), SYNCED];
}

/** DaemonSet agent on 3 nodes at generation 2: two nodes run a Ready pod of it, the third one of generation 1. */
function dsHalfway(maxUnavailable?: number | string): Observation[] {
  const ds: V1DaemonSet = daemonSetObject(
    'agent',
    { desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 2, numberAvailable: 3, currentNumberScheduled: 3 },
    { generation: 2 },
  );
  if (maxUnavailable !== undefined) ds.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } };
  const pods = ['a', 'b', 'c'].map((n) =>
    workloadPod('DaemonSet', 'agent', { name: `agent-${n}`, revision: n === 'c' ? '1' : '2', node: `node-${n}` }),
  );
  return [up('DaemonSet', ds, 1), ...pods.map((p) => up('Pod', p, 1)), SYNCED];
}

/** Job migrate of 4 completions: 2 succeeded, 2 running. */
function jobHalfway(): Observation[] {
  const job = jobObject('migrate', { completions: 4, parallelism: 2 }, { succeeded: 2, active: 2 });
  const pods = ['a', 'b'].map((n) => workloadPod('Job', 'migrate', { name: `migrate-${n}`, phase: 'Succeeded', ready: false }));
  return [up('Job', job, 1), ...pods.map((p) => up('Pod', p, 1)), SYNCED];
}

/** A pod of `kind` whose container restarted at 5 s (exit 1) and is Ready again, its workload rolled out. */
function recovered(kind: 'Deployment' | 'StatefulSet' | 'DaemonSet'): Observation[] {
  const c = running('app', { restarts: 1, startedAt: new Date(T0 + 5000).toISOString(), last: terminatedLast(1) });
  if (kind === 'Deployment') return [...rollingTo2({ image: 'nginx:1.19' }), newPod('web-2-aaa', c, 6), ...doneAt2(6)];
  if (kind === 'StatefulSet') {
    const sts = statefulSetObject(
      'db',
      { replicas: 1 },
      { readyReplicas: 1, currentRevision: 'db-2', updateRevision: 'db-2', updatedReplicas: 1 },
    );
    return [
      up('StatefulSet', sts, 6),
      up('Pod', workloadPod('StatefulSet', 'db', { name: 'db-0', revision: 'db-2', containers: [c] }), 6),
      SYNCED,
    ];
  }
  const ds = daemonSetObject('agent', { desiredNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1 });
  return [
    up('DaemonSet', ds, 6),
    up('Pod', workloadPod('DaemonSet', 'agent', { name: 'agent-a', revision: '1', containers: [c] }), 6),
    SYNCED,
  ];
}

const TARGETS = {
  Deployment: UPDATE,
  StatefulSet: { kind: 'StatefulSet', name: 'db' },
  DaemonSet: { kind: 'DaemonSet', name: 'agent' },
} as const;

/** `--settle 30`: success waits until 30 s after the restart (at 35 s), not the default 5 s. */
function settleWorks(kind: 'Deployment' | 'StatefulSet' | 'DaemonSet'): void {
  const obs = recovered(kind);
  const target = TARGETS[kind];
  assert.equal(outcome(obs, target), undefined, 'rolled out, but its pod restarted 1 s ago: held');
  assert.equal(outcome([...obs, tick(11)], target), 'succeeded', 'the default settle time ended at 10 s');
  assert.equal(outcome([...obs, tick(11), tick(34)], target, { settleSeconds: 30 }), undefined, 'held until 35 s');
  assert.equal(outcome([...obs, tick(11), tick(36)], target, { settleSeconds: 30 }), 'succeeded');
}

/** The Deployment's partial modes: 4 desired, all created from the current template, `ready` of them Ready. */
function deploymentWith(ready: number): Observation[] {
  const d = deployment({
    revision: '2',
    generation: 2,
    replicas: 4,
    conditions: [availableTrue, progressing('ReplicaSetUpdated', 'web-2')],
    status: { updatedReplicas: 4, replicas: 5 },
  });
  return [up('ReplicaSet', replicaSet({ name: 'web-2', revision: '2', replicas: 4, ready }), 1), up('Deployment', d, 1)];
}

const STS = TARGETS.StatefulSet;
const DS = TARGETS.DaemonSet;
const JOB = { kind: 'Job', name: 'migrate' } as const;

/** One scenario per cell that works: each asserts what the option changes. */
const WORKS: Partial<Record<WorkloadKind, Partial<Record<KindFeature, () => void>>>> = {
  Deployment: {
    'success-percent': () => {
      assert.equal(outcome(deploymentWith(3), UPDATE), undefined);
      assert.equal(outcome(deploymentWith(3), UPDATE, { success: { mode: 'percent', percent: 75 } }), 'succeeded');
      assert.equal(outcome(deploymentWith(2), UPDATE, { success: { mode: 'percent', percent: 75 } }), undefined);
    },
    'success-pods': () => {
      assert.equal(outcome(deploymentWith(2), UPDATE, { success: { mode: 'pods', pods: 2 } }), 'succeeded');
      assert.equal(outcome(deploymentWith(1), UPDATE, { success: { mode: 'pods', pods: 2 } }), undefined);
    },
    'success-max-unavailable': () => {
      assert.equal(outcome(deploymentWith(3), UPDATE, { success: { mode: 'maxUnavailable' } }), 'succeeded', '4 - 25%');
      assert.equal(outcome(deploymentWith(2), UPDATE, { success: { mode: 'maxUnavailable' } }), undefined);
    },
    settle: () => settleWorks('Deployment'),
    'baseline-revision': () => {
      const revision = (target: object) => ofType(run(doneAt2(1), target).events, 'revision')[0];
      assert.deepEqual([revision({ baselineRevision: '1' })?.previous, revision({ baselineRevision: '1' })?.change], ['1', 'new']);
      assert.equal(revision({})?.change, 'initial');
    },
    'pulumi-messages': () => {
      const failed = run(
        [...rollingTo2(), newPod('web-2-aaa', waiting('ErrImagePull', 'manifest unknown: manifest unknown'), 1), tick(11)],
        UPDATE,
      );
      const v = verdictOf(failed.events);
      assert.equal(v?.outcome, 'failed');
      const messages = v?.pulumiMessages ?? [];
      assert.ok(messages.length > 0);
      // What the CLI's sinks print with the flag, and without it.
      const block = (pulumiMessages: boolean) => formatVerdict(v!, { color: false, pulumiMessages });
      for (const m of messages) assert.ok(block(true).includes(`* ${m}`), block(true));
      assert.ok(!block(false).includes(messages[0]!));
    },
  },
  StatefulSet: {
    'success-percent': () => {
      assert.equal(outcome(stsHalfway(), STS), undefined, 'full waits for every ordinal');
      assert.equal(outcome(stsHalfway(), STS, { success: { mode: 'percent', percent: 60 } }), 'succeeded');
      assert.equal(outcome(stsHalfway(), STS, { success: { mode: 'percent', percent: 100 } }), undefined);
    },
    'success-pods': () => {
      assert.equal(outcome(stsHalfway(), STS, { success: { mode: 'pods', pods: 2 } }), 'succeeded');
      assert.equal(outcome(stsHalfway(), STS, { success: { mode: 'pods', pods: 3 } }), undefined, 'db-0 runs the old revision');
    },
    settle: () => settleWorks('StatefulSet'),
  },
  DaemonSet: {
    'success-percent': () => {
      assert.equal(outcome(dsHalfway(), DS), undefined, 'full waits for every node');
      assert.equal(outcome(dsHalfway(), DS, { success: { mode: 'percent', percent: 66 } }), 'succeeded');
      assert.equal(outcome(dsHalfway(), DS, { success: { mode: 'percent', percent: 67 } }), undefined);
    },
    'success-pods': () => {
      assert.equal(outcome(dsHalfway(), DS, { success: { mode: 'pods', pods: 2 } }), 'succeeded');
      assert.equal(outcome(dsHalfway(), DS, { success: { mode: 'pods', pods: 3 } }), undefined, 'node-c runs generation 1');
    },
    'success-max-unavailable': () => {
      assert.equal(outcome(dsHalfway(), DS, { success: { mode: 'maxUnavailable' } }), 'succeeded', 'default maxUnavailable 1');
      assert.equal(outcome(dsHalfway(0), DS, { success: { mode: 'maxUnavailable' } }), undefined, 'maxUnavailable 0 (with maxSurge)');
      assert.equal(outcome(dsHalfway('34%'), DS, { success: { mode: 'maxUnavailable' } }), 'succeeded', '34% of 3 rounds up to 2');
    },
    settle: () => settleWorks('DaemonSet'),
  },
  Job: {
    'success-percent': () => {
      assert.equal(outcome(jobHalfway(), JOB), undefined, 'full waits for Complete');
      assert.equal(outcome(jobHalfway(), JOB, { success: { mode: 'percent', percent: 50 } }), 'succeeded');
      assert.equal(outcome(jobHalfway(), JOB, { success: { mode: 'percent', percent: 75 } }), undefined);
    },
    'success-pods': () => {
      assert.equal(outcome(jobHalfway(), JOB, { success: { mode: 'pods', pods: 2 } }), 'succeeded');
      assert.equal(outcome(jobHalfway(), JOB, { success: { mode: 'pods', pods: 3 } }), undefined);
    },
    'logs-on-success': () => {
      const { state } = run(jobHalfway(), JOB);
      assert.deepEqual(
        successLogContainers(state).map((c) => c.pod),
        ['migrate-a', 'migrate-b'],
      );
    },
  },
};

/** The options that ask for each feature, as a library caller writes them. */
const ASKING: Record<Exclude<KindFeature, 'pulumi-messages'>, Record<string, unknown>> = {
  'success-percent': { policy: { success: { mode: 'percent', percent: 75 } } },
  'success-pods': { policy: { success: { mode: 'pods', pods: 2 } } },
  'success-max-unavailable': { policy: { success: { mode: 'maxUnavailable' } } },
  settle: { policy: { settleSeconds: 30 } },
  'baseline-revision': { baselineRevision: '3' },
  'logs-on-success': { logs: { onSuccess: true } },
};

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://127.0.0.1:1" } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: x, context: { cluster: c, user: u, namespace: apps } }]
current-context: x
`;

/** The library's refusal (`bad-input`, before anything is opened) of the option asking for `feature`. */
function libraryRefusal(kind: WorkloadKind, feature: Exclude<KindFeature, 'pulumi-messages'>): string {
  const options = { name: 'x', kind, kubeconfig: KUBECONFIG, ...ASKING[feature] };
  try {
    resolveTrackOptions(options as never);
  } catch (err) {
    assert.ok(isRolloutTraceError(err) && err.code === 'bad-input', String(err));
    return err.message;
  }
  assert.fail(`${kind} accepted ${feature}`);
}

/** The CLI's refusal of its own flag `--pulumi-messages` (its sinks print the messages): exit 2, before any cluster is read. */
async function cliRefusal(kind: WorkloadKind): Promise<string> {
  const cli = await runCliInProcess([KIND_FACTS[kind].short, 'x', '--pulumi-messages', '-n', 'apps']);
  assert.equal(cli.code, 2, cli.stderr);
  return cli.stderr.replace(/^rollout-trace: /, '');
}

describe('feature × kind', () => {
  for (const kind of WORKLOAD_KINDS) {
    for (const feature of KIND_FEATURES) {
      const why = KIND_FACTS[kind].features[feature];
      if (why === true) {
        it(`${kind} × ${feature}: works`, () => {
          const scenario = WORKS[kind]?.[feature];
          assert.ok(scenario, `the facts table says ${feature} works for a ${kind}, but no scenario here shows it`);
          scenario();
        });
        continue;
      }
      it(`${kind} × ${feature}: refused in one sentence`, async () => {
        assert.equal(WORKS[kind]?.[feature], undefined, 'a refused cell has no scenario');
        const sentence = feature === 'pulumi-messages' ? await cliRefusal(kind) : libraryRefusal(kind, feature);
        assert.match(sentence, new RegExp(`has no meaning for an? ${kind} \\(${KIND_FACTS[kind].short}/x\\): `));
        assert.ok(sentence.includes(why), sentence);
        assert.ok(isOneParagraph(sentence), 'one paragraph');
      });
    }
  }
  it('the same options are accepted for every kind they work for', () => {
    for (const kind of WORKLOAD_KINDS) {
      for (const [feature, extra] of Object.entries(ASKING)) {
        if (KIND_FACTS[kind].features[feature as KindFeature] !== true) continue;
        assert.doesNotThrow(
          () => resolveTrackOptions({ name: 'x', kind, kubeconfig: KUBECONFIG, ...extra } as never),
          `${kind} ${feature}`,
        );
      }
    }
  });
});
