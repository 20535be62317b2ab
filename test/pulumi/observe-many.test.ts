/**
 * Several Deployments traced at once with `traceDeployments()`, on an explicit kubernetes
 * provider whose kubeconfig (a path) and namespace the traces must reuse ($KUBECONFIG points
 * nowhere): a named one and an auto-named one (whose name the trace must discover while the
 * provider creates it), both first rollouts. Each trace gets its own row.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kubeconfigPath, withNamespace } from '../helpers/cluster.js';
import { nginxArgs } from './harness/fixtures.js';
import { runProgram, visible } from './harness/program.js';
import { renderTranscript } from './harness/transcript.js';

test('observe: several Deployments (named and auto-named) on an explicit provider', async (t) => {
  const namespace = await withNamespace(t, 'pulumi-many');
  const saved = process.env.KUBECONFIG;
  process.env.KUBECONFIG = '/nonexistent/kubeconfig';
  t.after(() => (process.env.KUBECONFIG = saved));

  const outcomes: Record<string, string> = {};
  const run = await runProgram({
    program: async () => {
      const lib = await import('../../src/pulumi/index.js');
      const k8s = await import('@pulumi/kubernetes');
      lib.traceDeployments();
      const provider = new k8s.Provider('cluster', { kubeconfig: kubeconfigPath(), namespace });
      const withoutNamespace = (name: string | undefined, replicas: number) => {
        const args = nginxArgs(namespace, 'nginx:1.19', replicas, name);
        return { ...args, metadata: name ? { name } : {} };
      };
      const frontend = new k8s.apps.v1.Deployment('frontend', withoutNamespace('frontend', 2), { provider });
      const api = new k8s.apps.v1.Deployment('api', withoutNamespace(undefined, 1), { provider });
      for (const [key, d] of Object.entries({ frontend, api })) lib.rolloutOf(d)!.outcome.apply((o) => (outcomes[key] = o));
    },
  });
  console.log(renderTranscript(run.logs, { startedAt: run.startedAt }));

  assert.deepEqual(run.errors, []);
  assert.deepEqual(outcomes, { frontend: 'succeeded', api: 'succeeded' });
  const rows = (name: string) =>
    visible(run)
      .filter((l) => l.urn.endsWith(`::${name}-rollout`))
      .map((l) => l.message);
  assert.ok(rows('frontend').includes(`new Deployment ${namespace}/frontend: tracing its first rollout`));
  assert.ok(
    rows('frontend').some((m) => /revision 1 rolled out: 2\/2 pods ready/.test(m)),
    rows('frontend').join('\n'),
  );
  assert.ok(rows('api').includes(`new Deployment ${namespace}/api-*: tracing its first rollout`));
  assert.ok(
    rows('api').some((m) => new RegExp(`tracing Deployment ${namespace}/api-[a-z0-9]{8}$`).test(m)),
    rows('api').join('\n'),
  );
  assert.ok(
    rows('api').some((m) => /revision 1 rolled out: 1\/1 pods ready/.test(m)),
    rows('api').join('\n'),
  );
});
