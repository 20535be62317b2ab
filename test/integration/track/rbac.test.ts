/**
 * RBAC-limited credentials: a ServiceAccount token kubeconfig whose Role lacks a permission gets
 * a `forbidden` error naming the verb, resource and namespace; a sufficient Role tracks fine.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RolloutTraceError } from '../../../src/errors.js';
import { trackRollout } from '../../../src/track/index.js';
import { READ, serviceAccountKubeConfig } from '../../helpers/rbac.js';
import { createDeployment, namespaceFor } from './helpers.js';

describe('RBAC-limited credentials', { concurrency: true }, () => {
  it('a Role without events list/watch: forbidden naming verb, resource and namespace', async (t) => {
    const ns = await namespaceFor(t, 'rbac-deny');
    await createDeployment(ns, 'web');
    const kc = await serviceAccountKubeConfig(ns, 'no-events', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: READ },
    ]);
    const err = await trackRollout({ name: 'web', kubeconfig: kc }).verdict.then(
      (v) => assert.fail(`expected forbidden, got verdict ${v.outcome}`),
      (e: unknown) => e,
    );
    assert.ok(err instanceof RolloutTraceError, String(err));
    t.diagnostic(err.message);
    assert.equal(err.code, 'forbidden');
    assert.match(err.message, /may not list events in namespace/);
    assert.ok(err.message.includes(`"${ns}"`));
    assert.ok(err.message.includes('system:serviceaccount') || err.message.includes('sa-no-events'), 'names who was refused');
    assert.match(err.message, /resources: \["events"\], verbs: \["get", "list", "watch"\]/);
  });

  it('a Role that may list but not watch pods: forbidden naming watch pods', async (t) => {
    const ns = await namespaceFor(t, 'rbac-nowatch');
    await createDeployment(ns, 'web');
    const kc = await serviceAccountKubeConfig(ns, 'no-pod-watch', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['events'], verbs: READ },
    ]);
    await assert.rejects(trackRollout({ name: 'web', kubeconfig: kc }).verdict, (err: unknown) => {
      assert.ok(err instanceof RolloutTraceError);
      t.diagnostic(err.message);
      assert.equal(err.code, 'forbidden');
      assert.match(err.message, /may not watch pods in namespace/);
      return true;
    });
  });

  it('a Role that may watch but not list events: forbidden naming list events, and no verdict', async (t) => {
    // The Event backlog's replay (src/cluster/backlog-replay.ts) watches Events without listing
    // them, but only when the Event list is still under way 50 ms after the Deployment list; a
    // refused list answers at once, so the trace fails before any Event is replayed.
    const ns = await namespaceFor(t, 'rbac-nolist');
    await createDeployment(ns, 'web');
    const kc = await serviceAccountKubeConfig(ns, 'no-event-list', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: READ },
      { apiGroups: [''], resources: ['events'], verbs: ['get', 'watch'] },
    ]);
    const tracking = trackRollout({ name: 'web', kubeconfig: kc });
    const verdicts: string[] = [];
    tracking.subscribe((e) => {
      if (e.type === 'verdict') verdicts.push(e.verdict.outcome);
    });
    await assert.rejects(tracking.verdict, (err: unknown) => {
      assert.ok(err instanceof RolloutTraceError, String(err));
      t.diagnostic(err.message);
      assert.equal(err.code, 'forbidden');
      assert.match(err.message, /may not list events in namespace/);
      return true;
    });
    assert.deepEqual(verdicts, [], 'no verdict was published');
  });

  it('a sufficient Role tracks the rollout (namespace from the token kubeconfig context)', async (t) => {
    const ns = await namespaceFor(t, 'rbac-ok');
    await createDeployment(ns, 'web', { replicas: 2 });
    const kc = await serviceAccountKubeConfig(ns, 'tracker', [
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
      { apiGroups: [''], resources: ['pods', 'events'], verbs: READ },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
    ]);
    const tracking = trackRollout({ name: 'web', kubeconfig: kc });
    const warnings: string[] = [];
    tracking.subscribe((e) => {
      if (e.type === 'k8s-event' && e.event.reason === 'NodesNotReadable') warnings.push(e.event.message);
    });
    const v = await tracking.verdict;
    t.diagnostic(`${v.summary}; ${warnings.join(' | ')}`);
    assert.equal(v.outcome, 'succeeded');
    assert.equal(v.deployment.namespace, ns);
    // A namespaced Role cannot read Nodes: one warning line, no crash, no failure.
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /may not list and watch nodes \(HTTP 403\), so pods on a NotReady node are not diagnosed/);
  });
});
