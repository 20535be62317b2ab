/**
 * Edges of the success verdict on the real control plane, from a table: every row's success must
 * come only once the current template is rolled out (assertRolledOut), whatever the strategy,
 * scale or history of the rollout.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RolloutEvent } from '../../../src/core/types.js';
import { assertRolledOut } from '../../helpers/rolled-out.js';
import {
  createDeployment,
  type DeploymentShape,
  deploymentOf,
  describeVerdict,
  editDeployment,
  eventSeen,
  namespaceFor,
  type Traced,
  trace,
  updateDeployment,
  waitRolledOut,
} from './helpers.js';

const newRsSeen = (events: RolloutEvent[]) => eventSeen(events, (e) => e.type === 'replicaset' && e.role === 'new', 'the new ReplicaSet');

interface Row {
  name: string;
  before: DeploymentShape;
  after: DeploymentShape;
  /** Runs while the rollout is traced. */
  during?: (ns: string, events: RolloutEvent[]) => Promise<void>;
  /** Extra checks on the result. */
  check?: (r: Traced) => void;
}

const rows: Row[] = [
  {
    name: 'scaled from 2 to 4 mid-rollout: success only with 4 updated',
    before: { replicas: 2 },
    // 12 s per new pod: the scale lands well before the rollout could finish at 2 replicas.
    after: { replicas: 2, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=12' } },
    during: async (ns, events) => {
      await newRsSeen(events);
      await editDeployment(ns, 'web', (d) => {
        d.spec!.replicas = 4;
      });
    },
    check: (r) => {
      assert.equal(r.verdict.replicas.desired, 4);
      assert.ok(r.of('scaled').some((e) => e.to === 4));
    },
  },
  {
    name: 'maxSurge 0 (maxUnavailable 1)',
    before: { replicas: 3 },
    after: { replicas: 3, image: 'nginx:1.20', strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
  },
  { name: 'Recreate', before: { replicas: 3 }, after: { replicas: 3, image: 'nginx:1.20', strategy: { type: 'Recreate' } } },
  {
    name: 'minReadySeconds 3: success only once the updated pods are available',
    before: { replicas: 2 },
    after: { replicas: 2, image: 'nginx:1.20', minReadySeconds: 3 },
    check: (r) => assert.ok(r.ms >= 2_500, `minReadySeconds waited: ${r.ms} ms`),
  },
  { name: '0 replicas', before: { replicas: 0 }, after: { replicas: 0, image: 'nginx:1.20' } },
  {
    name: 'kubectl rollout restart (a template annotation) is a new revision, not a rollback',
    before: { replicas: 2 },
    after: { replicas: 2, annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-23T15:00:00Z' } },
    check: (r) => {
      assert.deepEqual(
        r.of('revision').map((e) => [e.revision, e.change, e.restores]),
        [['2', 'new', undefined]],
      );
      assert.doesNotMatch(r.verdict.summary, /rollback/);
    },
  },
];

describe('success edges', { concurrency: true }, () => {
  for (const row of rows) {
    it(row.name, async (t) => {
      const ns = await namespaceFor(t, 'edge');
      await createDeployment(ns, 'web', row.before);
      const before = await waitRolledOut(ns, 'web');
      const changed = await updateDeployment(ns, 'web', row.after);
      const r = await trace(
        ns,
        'web',
        {
          timeoutSeconds: 180,
          baselineRevision: before.metadata?.annotations?.['deployment.kubernetes.io/revision'],
          minGeneration: changed.metadata?.generation,
        },
        row.during && ((events) => row.during!(ns, events)),
      );
      t.diagnostic(describeVerdict(r));
      await assertRolledOut(ns, 'web', r.verdict, r.events);
      row.check?.(r);
    });
  }

  it('an undo mid-rollout: a rollback, and the verdict names the revision whose template it restored', async (t) => {
    const ns = await namespaceFor(t, 'edge-undo');
    await createDeployment(ns, 'web', { replicas: 2 });
    await waitRolledOut(ns, 'web');
    const changed = await updateDeployment(ns, 'web', { replicas: 2, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=30' } });
    const r = await trace(
      ns,
      'web',
      { timeoutSeconds: 180, baselineRevision: '1', minGeneration: changed.metadata?.generation },
      async (events) => {
        await newRsSeen(events);
        // `kubectl rollout undo`: revision 1's template back.
        await editDeployment(ns, 'web', (d) => {
          d.spec!.template = deploymentOf('web', { replicas: 2 }).spec!.template;
        });
      },
    );
    t.diagnostic(describeVerdict(r));
    await assertRolledOut(ns, 'web', r.verdict, r.events);
    assert.equal(r.verdict.revision, '3');
    assert.equal(r.verdict.restores, '1');
    assert.match(r.verdict.summary, /^revision 3 \(a rollback: the template of revision 1\) rolled out/);
    assert.ok(r.of('revision').some((e) => e.change === 'rollback' && e.restores === '1'));
  });

  it('a progress deadline exceeded, then recovered: fails by default, succeeds when the class only warns', async (t) => {
    const ns = await namespaceFor(t, 'edge-deadline');
    const shape = { replicas: 1, image: 'nginx:1.20', behaviour: { app: 'slow-start;seconds=12' }, progressDeadlineSeconds: 3 };
    const results = await Promise.all(
      [undefined, { classes: { 'progress-deadline': { action: 'warn' as const } } }].map(async (policy, i) => {
        const name = `web-${i}`;
        await createDeployment(ns, name, { replicas: 1 });
        await waitRolledOut(ns, name);
        const changed = await updateDeployment(ns, name, shape);
        return trace(ns, name, { timeoutSeconds: 180, minGeneration: changed.metadata?.generation, ...(policy ? { policy } : {}) });
      }),
    );
    const [strict, lenient] = results as [Traced, Traced];
    t.diagnostic(`default: ${describeVerdict(strict)}; warn: ${describeVerdict(lenient)}`);
    assert.equal(strict.verdict.outcome, 'failed', strict.verdict.summary);
    assert.equal(strict.verdict.problems[0]?.class, 'progress-deadline');
    assert.ok(
      lenient.of('problem').some((e) => e.problem.class === 'progress-deadline'),
      'the deadline was exceeded',
    );
    await assertRolledOut(ns, 'web-1', lenient.verdict, lenient.events);
  });
});
