/**
 * The one Deployment builder of the tests (`deploymentOf`) and its pod template (`podTemplateOf`):
 * plain objects, no cluster access, so the unit tests' fixtures (test/unit/core/builders.ts) build
 * on them too. Simulated-kubelet behaviours are pod annotations (`behaviour: { app: 'crash' }`,
 * see local-cluster/simulated-kubelet.md).
 */
import type { V1Container, V1Deployment, V1PodSpec, V1PodTemplateSpec } from '@kubernetes/client-node';

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
  /** The labels of the Deployment, its selector and its pod template (default `app=<name>`). */
  labels?: Record<string, string>;
}

/**
 * The pod template of {@link deploymentOf} (labels, annotations with the simulated-kubelet
 * behaviours, one container `app`): also what a ReplicaSet of that Deployment holds, minus its
 * `pod-template-hash` label.
 */
export function podTemplateOf(name: string, shape: DeploymentShape = {}): V1PodTemplateSpec {
  const annotations: Record<string, string> = { ...(shape.annotations ?? {}) };
  for (const [c, b] of Object.entries(shape.behaviour ?? {})) annotations[`sim.rollout-trace.dev/${c}`] = b;
  return {
    metadata: { labels: { ...(shape.labels ?? { app: name }) }, annotations },
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'app', image: shape.image ?? 'nginx:1.19', ...(shape.container ?? {}) }],
      ...(shape.podSpec ?? {}),
    },
  };
}

/** A Deployment `name` with label `app=<name>` (or `shape.labels`) and one container `app`. */
export function deploymentOf(name: string, shape: DeploymentShape = {}): V1Deployment {
  const labels = shape.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { ...labels } },
    spec: {
      replicas: shape.replicas ?? 1,
      selector: { matchLabels: { ...labels } },
      ...(shape.progressDeadlineSeconds ? { progressDeadlineSeconds: shape.progressDeadlineSeconds } : {}),
      ...(shape.strategy ? { strategy: shape.strategy } : {}),
      ...(shape.minReadySeconds ? { minReadySeconds: shape.minReadySeconds } : {}),
      template: podTemplateOf(name, shape),
    },
  };
}
