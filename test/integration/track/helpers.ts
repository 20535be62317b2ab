/**
 * Helpers for the tracker's integration tests: Deployment builders for the simulated kubelet's
 * behaviours, and a runner that tracks a rollout and collects its events and timing.
 */
import type { TestContext } from 'node:test';
import type { V1Container, V1Deployment, V1PodSpec } from '@kubernetes/client-node';
import type { RolloutEvent, Verdict } from '../../../src/core/types.js';
import { type TrackOptions, trackRollout } from '../../../src/track/index.js';
import { clients, kubeConfig, waitUntil, withNamespace } from '../../helpers/cluster.js';

export { clients, kubeConfig, waitUntil, withNamespace };

/** What a test Deployment looks like. */
export interface DeploymentShape {
  image?: string;
  replicas?: number;
  /** Simulated-kubelet behaviour per container name (`sim.rollout-trace.dev/<name>`). */
  behaviour?: Record<string, string>;
  /** Merged into the main container (named `app`). */
  container?: Partial<V1Container>;
  /** Merged into the pod spec. */
  podSpec?: Partial<V1PodSpec>;
  /** Extra template annotations (e.g. to force a new revision). */
  annotations?: Record<string, string>;
  progressDeadlineSeconds?: number;
  /** The Deployment's update strategy (default: RollingUpdate 25%/25%). */
  strategy?: NonNullable<V1Deployment['spec']>['strategy'];
  minReadySeconds?: number;
}

/** A Deployment `name` with label `app=<name>` and one container `app`. */
export function deploymentOf(name: string, shape: DeploymentShape = {}): V1Deployment {
  const annotations: Record<string, string> = { ...(shape.annotations ?? {}) };
  for (const [c, b] of Object.entries(shape.behaviour ?? {})) annotations[`sim.rollout-trace.dev/${c}`] = b;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: shape.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      ...(shape.progressDeadlineSeconds ? { progressDeadlineSeconds: shape.progressDeadlineSeconds } : {}),
      ...(shape.strategy ? { strategy: shape.strategy } : {}),
      ...(shape.minReadySeconds ? { minReadySeconds: shape.minReadySeconds } : {}),
      template: {
        metadata: { labels: { app: name }, annotations },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'app', image: shape.image ?? 'nginx:1.19', ...(shape.container ?? {}) }],
          ...(shape.podSpec ?? {}),
        },
      },
    },
  };
}

/** Creates the Deployment and returns it as stored. */
export async function createDeployment(namespace: string, name: string, shape: DeploymentShape = {}): Promise<V1Deployment> {
  return clients().apps.createNamespacedDeployment({ namespace, body: deploymentOf(name, shape) });
}

/** Replaces the Deployment's spec with the given shape (a new template → a new revision). */
export async function updateDeployment(namespace: string, name: string, shape: DeploymentShape): Promise<V1Deployment> {
  const { apps } = clients();
  const cur = await apps.readNamespacedDeployment({ name, namespace });
  const next = deploymentOf(name, shape);
  cur.spec = next.spec;
  return apps.replaceNamespacedDeployment({ name, namespace, body: cur });
}

/**
 * Reads the Deployment, applies `edit` and writes it back, retrying on 409 Conflict (the
 * controller writes its status meanwhile): `kubectl rollout pause/resume`, `set image`, `scale`.
 */
export async function editDeployment(namespace: string, name: string, edit: (d: V1Deployment) => void): Promise<V1Deployment> {
  const { apps } = clients();
  for (let attempt = 0; ; attempt++) {
    const cur = await apps.readNamespacedDeployment({ name, namespace });
    edit(cur);
    try {
      return await apps.replaceNamespacedDeployment({ name, namespace, body: cur });
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}

/** Waits until the Deployment controller reports the rollout complete (for test set-up). */
export async function waitRolledOut(namespace: string, name: string, timeoutMs = 60_000): Promise<V1Deployment> {
  const { apps } = clients();
  return waitUntil(
    async () => {
      const d = await apps.readNamespacedDeployment({ name, namespace });
      const want = d.spec?.replicas ?? 1;
      const s = d.status ?? {};
      const done =
        (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        (s.updatedReplicas ?? 0) === want &&
        (s.availableReplicas ?? 0) === want &&
        (s.replicas ?? 0) === want;
      return done ? d : undefined;
    },
    { what: `Deployment ${namespace}/${name} rolled out`, timeoutMs, intervalMs: 250 },
  );
}

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
