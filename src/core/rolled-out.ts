/**
 * Whether the Deployment's *current* pod template is rolled out, by kubectl's rule
 * (`kubectl/pkg/polymorphichelpers/rollout_status.go`, `DeploymentStatusViewer.Status`):
 * the controller observed the latest generation, every desired pod runs the current template,
 * no old pod is left, and the updated pods are available.
 *
 * Pulumi's predicate cannot see a template change that produced no new revision (a paused
 * Deployment keeps its revision): without a baseline revision, revision 1 ready looks like success.
 * This check closes that gap in every success mode.
 */
import type { V1Deployment } from '@kubernetes/client-node';

/** How much of kubectl's rule a success mode needs. */
export type RolloutDepth =
  /** `full`: kubectl's whole rule (old pods gone, updated pods available). */
  | 'complete'
  /**
   * Partial modes: the latest generation observed and as many pods created from the current
   * template as the mode needs ready (a pod that runs an older template never counts).
   */
  | 'updated';

/**
 * What keeps the current template from being rolled out, in words
 * (`1 of 3 pods run the current template`), or undefined when it is rolled out. `needed`: for
 * `updated`, how many pods must run the current template (default: every desired pod).
 */
export function rolloutGap(d: V1Deployment, depth: RolloutDepth, needed?: number): string | undefined {
  const generation = d.metadata?.generation ?? 0;
  const observed = d.status?.observedGeneration ?? 0;
  if (observed < generation) return `the Deployment controller has not observed generation ${generation} yet (observed ${observed})`;
  const desired = d.spec?.replicas ?? 1;
  const updated = d.status?.updatedReplicas ?? 0;
  if (depth === 'updated') {
    const want = Math.min(needed ?? desired, desired);
    return updated < want ? `${updated} of the ${want} pods needed run the current template` : undefined;
  }
  if (updated < desired) return `${updated} of ${desired} pods run the current template`;
  const total = d.status?.replicas ?? 0;
  if (total > updated) return `${total - updated} old ${total - updated === 1 ? 'pod is' : 'pods are'} pending termination`;
  const available = d.status?.availableReplicas ?? 0;
  if (available < updated) return `${available} of ${updated} updated pods are available`;
  return undefined;
}
