/**
 * Pods the API server fails to create for a reason of its own are retried by the ReplicaSet
 * controller, so they must not fail a rollout that then completes. Found by the bench: a 2,000-pod
 * rollout got "Internal error occurred: resource quota evaluation timed out" for over 10 s, and
 * rollout-trace said FAILED while `kubectl rollout status` went on to succeed. Here the real
 * apiserver cannot call an admission webhook (a closed port) for longer than the old 10 s window,
 * then the webhook goes away and the rollout completes. A quota refusal waits while pods that
 * hold the quota terminate, the workload's own or another's, and fails when none does.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { AdmissionregistrationV1Api } from '@kubernetes/client-node';
import { startPrivateNode } from '../../helpers/private-node.js';
import { assertRolledOut } from '../../helpers/rolled-out.js';
import {
  clients,
  createDeployment,
  type DeploymentShape,
  describeVerdict,
  eventSeen,
  kubeConfig,
  namespaceFor,
  podQuota,
  trace,
  updateDeployment,
  waitRolledOut,
  waitUntil,
} from './helpers.js';

/** A loopback port nothing listens on (the webhook call is refused at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a create the API server fails, then retries', () => {
  it('an unreachable admission webhook for longer than 10 s, then gone: SUCCEEDED, the transient problem cleared', async (t) => {
    const ns = await namespaceFor(t, 'create-retry');
    const { core } = clients();
    const label = { 'rollout-trace.test/unreachable-webhook': ns };
    const namespace = await core.readNamespace({ name: ns });
    namespace.metadata = { ...namespace.metadata, labels: { ...namespace.metadata?.labels, ...label } };
    await core.replaceNamespace({ name: ns, body: namespace });
    const admission = kubeConfig().makeApiClient(AdmissionregistrationV1Api);
    const name = `rt-unreachable-${ns}`;
    await admission.createValidatingWebhookConfiguration({
      body: {
        metadata: { name },
        webhooks: [
          {
            name: 'pods.rollout-trace.test',
            clientConfig: { url: `https://127.0.0.1:${await closedPort()}/validate` },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
            namespaceSelector: { matchLabels: label },
            failurePolicy: 'Fail',
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
            timeoutSeconds: 2,
          },
        ],
      },
    });
    let removed = false;
    const remove = async () => {
      if (!removed) await admission.deleteValidatingWebhookConfiguration({ name });
      removed = true;
    };
    t.after(remove);
    await createDeployment(ns, 'web', { replicas: 2 });

    const r = await trace(ns, 'web', { timeoutSeconds: 300 }, async (events) => {
      const seen = await eventSeen(
        events,
        (e) => e.type === 'problem' && e.problem.class === 'replica-failure',
        'the replica-failure problem',
        60_000,
      );
      const p = seen.type === 'problem' ? seen.problem : undefined;
      assert.equal(p?.transient, true, p?.message);
      assert.match(p?.message ?? '', /failed calling webhook "pods\.rollout-trace\.test"/);
      // Past the 10 s a refusal gets, still no verdict: then the webhook goes.
      await waitUntil(() => Date.now() > (p?.firstSeen ?? 0) + 14_000 || undefined, { what: '14 s of failed creates', timeoutMs: 30_000 });
      assert.equal(events.filter((e) => e.type === 'verdict').length, 0, 'no verdict while the controller retries');
      await remove();
    });

    assert.equal(r.verdict.outcome, 'succeeded', describeVerdict(r));
    assert.ok(
      r.of('problem-cleared').some((e) => e.problem.class === 'replica-failure'),
      'the problem was cleared',
    );
    await assertRolledOut(ns, 'web', r.verdict, r.events);
  });

  it('a quota sized for the replicas: the new pod waits while the old one it replaces takes its grace period to stop, then SUCCEEDED', async (t) => {
    const ns = await namespaceFor(t, 'quota-surge');
    // Old pods take their 20 s grace period to stop (busybox ignores SIGTERM), on a node that honours it.
    const node = await startPrivateNode(t, undefined, undefined, { maxGraceSeconds: 20 });
    const shape = (image: string): DeploymentShape => ({
      replicas: 2,
      image,
      container: { command: ['sleep', '3600'] },
      podSpec: { ...node.podSpec, terminationGracePeriodSeconds: 20 },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
    });
    await createDeployment(ns, 'web', shape('busybox:1.32'));
    await waitRolledOut(ns, 'web', 90_000);
    await podQuota(ns, 2);
    await updateDeployment(ns, 'web', shape('busybox:1.33'));
    const r = await trace(ns, 'web', { timeoutSeconds: 240, minGeneration: 2 });
    t.diagnostic(describeVerdict(r));
    const refused = r.of('problem').find((e) => e.problem.class === 'replica-failure');
    assert.match(refused?.problem.explanation ?? '', /exceeded quota/, 'the quota refused the surge pod');
    assert.equal(refused?.problem.transient, true, 'while old pods terminate, it waits');
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    await assertRolledOut(ns, 'web', r.verdict, r.events);
  });

  it("a quota another workload's terminating pod holds (a Deployment deleted to be replaced): waits for it, then SUCCEEDED", async (t) => {
    const ns = await namespaceFor(t, 'quota-other');
    const node = await startPrivateNode(t, undefined, undefined, { maxGraceSeconds: 20 });
    const slowToStop: DeploymentShape = {
      replicas: 1,
      image: 'busybox:1.32',
      container: { command: ['sleep', '3600'] },
      podSpec: { ...node.podSpec, terminationGracePeriodSeconds: 20 },
    };
    await createDeployment(ns, 'api', slowToStop);
    await waitRolledOut(ns, 'api', 90_000);
    await podQuota(ns, 1);
    // api's pod holds the quota for its 20 s grace period; web's trace does not watch it.
    await clients().apps.deleteNamespacedDeployment({ name: 'api', namespace: ns });
    await createDeployment(ns, 'web', { replicas: 1 });
    const r = await trace(ns, 'web', { timeoutSeconds: 240 });
    t.diagnostic(describeVerdict(r));
    const refused = r.of('problem').filter((e) => e.problem.class === 'replica-failure');
    assert.match(refused[0]?.problem.explanation ?? '', /exceeded quota/, "the quota refused web's pod");
    assert.ok(
      refused.some((e) => e.problem.transient === true),
      "api's pod terminating made it wait",
    );
    assert.equal(r.verdict.outcome, 'succeeded', r.verdict.summary);
    await assertRolledOut(ns, 'web', r.verdict, r.events);
  });

  it('a quota another running workload fills: FAILED once a list after the window found no pod terminating', async (t) => {
    const ns = await namespaceFor(t, 'quota-full');
    await createDeployment(ns, 'api', { replicas: 1 });
    await waitRolledOut(ns, 'api', 90_000);
    await podQuota(ns, 1);
    await createDeployment(ns, 'web', { replicas: 1 });
    const r = await trace(ns, 'web', { timeoutSeconds: 120 });
    t.diagnostic(describeVerdict(r));
    assert.equal(r.verdict.outcome, 'failed', r.verdict.summary);
    const p = r.verdict.problems[0];
    assert.equal(p?.class, 'replica-failure');
    assert.equal(p.transient, undefined, 'no pod frees the quota');
    const after = r.verdict.finishedAt - p.firstSeen;
    assert.ok(after >= 10_000 && after < 25_000, `failed ${after} ms after the first refusal: its 10 s window, then a list`);
  });
});
