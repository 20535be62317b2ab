/**
 * Helpers for the tracker's integration tests: Deployment builders for the simulated kubelet's
 * behaviours, and a runner that tracks a rollout and collects its events and timing.
 */
import { AssertionError } from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { RolloutEvent, Verdict } from '../../../src/core/types.js';
import { type TrackOptions, trackRollout } from '../../../src/track/index.js';
import { clients, kubeConfig, waitUntil, withNamespace } from '../../helpers/cluster.js';

// Moved to test/helpers/deployments.ts; re-exported so the many tests importing them from here keep working.
export {
  createDeployment,
  type DeploymentShape,
  deploymentOf,
  editDeployment,
  updateDeployment,
  waitRolledOut,
} from '../../helpers/deployments.js';
export { clients, kubeConfig, waitUntil, withNamespace };

/** The result of one tracked rollout. */
export interface Traced {
  verdict: Verdict;
  events: RolloutEvent[];
  /** Milliseconds from the start of tracking to the verdict. */
  ms: number;
  of<T extends RolloutEvent['type']>(type: T): Extract<RolloutEvent, { type: T }>[];
}

/** Tracks a rollout to its verdict with the test cluster's kubeconfig; `during` runs while it tracks. */
export async function trace(
  namespace: string,
  name: string,
  opts: Partial<TrackOptions> = {},
  during?: (events: RolloutEvent[]) => Promise<void>,
): Promise<Traced> {
  const t0 = Date.now();
  const tracking = trackRollout({ name, namespace, kubeconfig: kubeConfig(), timeoutSeconds: 120, ...opts });
  const events: RolloutEvent[] = [];
  tracking.subscribe((e) => events.push(e));
  const side = during?.(events);
  const verdict = await tracking.verdict;
  const ms = Date.now() - t0;
  await side;
  return {
    verdict,
    events,
    ms,
    of: <T extends RolloutEvent['type']>(type: T) => events.filter((e) => e.type === type) as Extract<RolloutEvent, { type: T }>[],
  };
}

/**
 * Throws unless the rollout is still running: a fault injected now must find it under way. A
 * loaded CI machine can take seconds to list and watch, long enough for a short rollout to end.
 */
export function assertStillRunning(events: RolloutEvent[], fault: string): void {
  const ended = events.find((e): e is Extract<RolloutEvent, { type: 'verdict' }> => e.type === 'verdict');
  if (ended) throw new AssertionError({ message: `the rollout ended before ${fault}: ${ended.verdict.summary}` });
}

/** Waits until an event matching `pred` was collected. */
export async function eventSeen(events: RolloutEvent[], pred: (e: RolloutEvent) => boolean, what: string, timeoutMs = 60_000) {
  return waitUntil(() => events.find(pred), { what, timeoutMs, intervalMs: 100 });
}

/** A fresh namespace for this test (deleted afterwards). */
export function namespaceFor(t: TestContext, prefix: string): Promise<string> {
  return withNamespace(t, `rt-${prefix}`);
}

/** One line describing a verdict and its first problem, for test diagnostics. */
export function describeVerdict(r: Traced): string {
  const p = r.verdict.problems[0];
  return `${r.verdict.outcome} in ${(r.ms / 1000).toFixed(1)} s${p ? ` — ${p.class} ${p.reason}: ${p.explanation}` : ''}`;
}

/**
 * A ResourceQuota of `pods` pods in `namespace`, once the quota controller has computed its usage
 * (admission enforces a quota only then).
 */
export async function podQuota(namespace: string, pods: number): Promise<void> {
  const name = `pods-${pods}`;
  await clients().core.createNamespacedResourceQuota({ namespace, body: { metadata: { name }, spec: { hard: { pods: String(pods) } } } });
  await waitUntil(async () => (await clients().core.readNamespacedResourceQuota({ name, namespace })).status?.used, {
    what: 'quota usage computed',
    timeoutMs: 20_000,
  });
}
