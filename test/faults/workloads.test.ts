/**
 * Fault suite for StatefulSets, DaemonSets and Jobs on a private control plane: the kube-apiserver
 * killed and restarted mid-rollout, and a forced 410 Gone (the apiserver restarted after the world
 * moved on, so the kind's and the pods' watches must re-list). The rollout is an update of a
 * rolled-out StatefulSet or DaemonSet, or a Job that completes; the real CLI must succeed only
 * once the new pods are ready (never before their 15 s start), with one verdict line, and exit
 * within 1 s of it.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { answersGone, withNamespace } from '../helpers/cluster.js';
import { expectVerdict, type FaultRun, figure, outdateResourceVersion, outputOf, traceCli, VERDICT_LINE } from '../helpers/faults.js';
import { usePrivateCluster } from '../helpers/private-cluster.js';
import { FAULT_KINDS, type FaultKind, kindArgs, SLOW_START_SECONDS } from '../helpers/workload-faults.js';

const cluster = usePrivateCluster();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Starts `k`'s rollout, traces it with the CLI and runs `fault` once a new pod is
 * ContainerCreating; asserts one SUCCEEDED verdict line naming the new template, no earlier than
 * that pod could be ready.
 */
async function survives(t: TestContext, k: FaultKind, label: string, fault: (ns: string) => Promise<string>): Promise<FaultRun> {
  const ns = await withNamespace(t, `fault-${k.arg}-${label.replace(/\W+/g, '-')}`);
  await k.prepare(ns);
  const startedAt = Date.now();
  await k.start(ns);
  let said = '';
  const run = await traceCli(kindArgs(k, ns, '--timeout', '150s'), [{ when: k.creating, run: async () => (said = await fault(ns)) }]);
  figure(t, `${label} (${k.kind})`, run, said);
  expectVerdict(run, { code: 0, verdict: await k.succeeded(ns) });
  const early = run.verdictAt! - startedAt;
  assert.ok(early >= SLOW_START_SECONDS * 1000, `success ${seconds(early)} after the rollout started: before a new pod could be ready`);
  const verdicts = run.stdout.split('\n').filter((line) => VERDICT_LINE.test(line));
  assert.equal(verdicts.length, 1, `one verdict line\n${outputOf(run)}`);
  return run;
}

// One case at a time: each one takes the apiserver down.
describe('fault: kube-apiserver mid StatefulSet, DaemonSet and Job rollouts', { timeout: 30 * 60_000 }, () => {
  for (const k of FAULT_KINDS) {
    it(`${k.kind}: apiserver killed and restarted mid-rollout: SUCCEEDED once it is back`, async (t) => {
      await survives(t, k, 'apiserver killed and restarted mid-rollout', async () => {
        const t0 = Date.now();
        await cluster().kill('kube-apiserver');
        await sleep(2000);
        await cluster().restart('kube-apiserver');
        return `apiserver down ${seconds(Date.now() - t0)}`;
      });
    });

    it(`${k.kind}: a forced 410 Gone on its watch and the pods': re-listed, SUCCEEDED`, async (t) => {
      let ns = '';
      let oldRv = '';
      await survives(t, k, 'forced 410 Gone', async (namespace) => {
        ns = namespace;
        oldRv = await outdateResourceVersion(namespace, () => cluster().restart('kube-apiserver'));
        return `apiserver restarted after resourceVersion ${oldRv}`;
      });
      const kindPath = `/apis/${k.group}/v1/namespaces/${ns}/${k.resource}`;
      assert.ok(await answersGone(ns, oldRv), `a pod watch from ${oldRv} should answer 410 Gone after the restart`);
      assert.ok(await answersGone(ns, oldRv, kindPath), `a ${k.resource} watch from ${oldRv} should answer 410 Gone`);
    });
  }
});
