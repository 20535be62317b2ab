/**
 * The assertion every success must pass: the verdict came only once the Deployment's *current*
 * template was rolled out (kubectl's rule), and the revision it names holds that template.
 */
import assert from 'node:assert/strict';
import { templateKey } from '../../src/core/k8s.js';
import type { RolloutEvent, Verdict } from '../../src/core/types.js';
import { clients } from './cluster.js';

const REVISION = 'deployment.kubernetes.io/revision';

/**
 * Asserts that `verdict` succeeded with every desired pod updated and ready (and, from the
 * events, that no success came while a `progress` event still said fewer were updated), and
 * that the ReplicaSet of its revision carries the Deployment's template as it is now.
 */
export async function assertRolledOut(namespace: string, name: string, verdict: Verdict, events: RolloutEvent[]): Promise<void> {
  assert.equal(verdict.outcome, 'succeeded', verdict.summary);
  const { desired, updated, ready, available } = verdict.replicas;
  assert.equal(updated, desired, `updated ${updated} of ${desired} at the verdict: ${verdict.summary}`);
  assert.ok(ready >= desired && available >= desired, `ready ${ready}, available ${available} of ${desired} at the verdict`);
  const lastProgress = events.filter((e) => e.type === 'progress').at(-1);
  if (lastProgress?.type === 'progress')
    assert.ok(lastProgress.updated >= desired, `the last progress before the verdict: ${lastProgress.updated} updated`);
  const { apps } = clients();
  const d = await apps.readNamespacedDeployment({ name, namespace });
  assert.equal(d.metadata?.annotations?.[REVISION], verdict.revision, 'the verdict names the current revision');
  const sets = await apps.listNamespacedReplicaSet({ namespace });
  const rs = sets.items.find(
    (r) => r.metadata?.ownerReferences?.some((o) => o.uid === d.metadata?.uid) && r.metadata?.annotations?.[REVISION] === verdict.revision,
  );
  assert.ok(rs, `a ReplicaSet of revision ${verdict.revision}`);
  assert.equal(templateKey(rs.spec?.template), templateKey(d.spec?.template), 'that ReplicaSet holds the current template');
}

/**
 * Why the live Deployment `name` is not rolled out by kubectl's rule (its controller saw the
 * latest spec, every desired pod updated, ready and available, no old pod left), or '' when it is.
 */
export async function deploymentNotRolledOut(namespace: string, name: string): Promise<string> {
  const d = await clients().apps.readNamespacedDeployment({ name, namespace });
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  if ((s.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) return `${name}: generation ${d.metadata?.generation} not observed yet`;
  const counts = {
    updated: s.updatedReplicas ?? 0,
    ready: s.readyReplicas ?? 0,
    available: s.availableReplicas ?? 0,
    total: s.replicas ?? 0,
  };
  const short = Object.entries(counts).filter(([, n]) => n !== want);
  return short.length ? `${name}: ${short.map(([k, n]) => `${k} ${n}`).join(', ')} of ${want}` : '';
}

/** Why no Job in `namespace` that runs `image` has succeeded, or '' when one has. */
export async function noJobSucceeded(namespace: string, image: string): Promise<string> {
  const { BatchV1Api } = await import('@kubernetes/client-node');
  const jobs = await clients().kc.makeApiClient(BatchV1Api).listNamespacedJob({ namespace });
  const running = jobs.items.filter((j) => j.spec?.template.spec?.containers.some((c) => c.image === image));
  if (running.some((j) => (j.status?.succeeded ?? 0) >= (j.spec?.completions ?? 1))) return '';
  return `no Job running ${image} succeeded (${running.map((j) => `${j.metadata?.name}: ${j.status?.succeeded ?? 0} succeeded`).join(', ') || 'none'})`;
}
