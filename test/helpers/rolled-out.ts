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
