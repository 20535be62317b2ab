/**
 * The tests' StatefulSets, DaemonSets and Jobs: builders on the one pod template
 * (`podTemplateOf`, deployment-shape.ts, so simulated-kubelet behaviours work the same), their
 * creation, and a retried edit. Jobs run `restartPolicy: Never` by default; their container
 * program is a simulated-kubelet behaviour (`exit;exitCode=1;log=...`, see
 * local-cluster/kubelet/container-programs.ts).
 */
import type { V1DaemonSet, V1Job, V1StatefulSet } from '@kubernetes/client-node';
import { BatchV1Api } from '@kubernetes/client-node';
import { clients } from './cluster.js';
import { type DeploymentShape, podTemplateOf } from './deployment-shape.js';

/** A StatefulSet's shape: the pod template's, plus its own fields. */
export interface StatefulSetShape extends DeploymentShape {
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: NonNullable<V1StatefulSet['spec']>['updateStrategy'];
  /** Claims per pod (`<name>-<sts>-<ordinal>`), of this StorageClass, mounted at `/data`. */
  claims?: { name: string; storageClassName: string };
}

/** A StatefulSet `name` (label `app=<name>`, headless service name `name`). */
export function statefulSetOf(name: string, shape: StatefulSetShape = {}): V1StatefulSet {
  const labels = shape.labels ?? { app: name };
  const template = podTemplateOf(name, shape);
  if (shape.claims && template.spec) {
    template.spec.containers[0] = {
      ...template.spec.containers[0]!,
      volumeMounts: [{ name: shape.claims.name, mountPath: '/data' }],
    };
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, labels: { ...labels } },
    spec: {
      serviceName: name,
      replicas: shape.replicas ?? 1,
      selector: { matchLabels: { ...labels } },
      ...(shape.podManagementPolicy ? { podManagementPolicy: shape.podManagementPolicy } : {}),
      ...(shape.updateStrategy ? { updateStrategy: shape.updateStrategy } : {}),
      ...(shape.minReadySeconds ? { minReadySeconds: shape.minReadySeconds } : {}),
      template,
      ...(shape.claims
        ? {
            volumeClaimTemplates: [
              {
                metadata: { name: shape.claims.name },
                spec: {
                  accessModes: ['ReadWriteOnce'],
                  storageClassName: shape.claims.storageClassName,
                  resources: { requests: { storage: '1Gi' } },
                },
              },
            ],
          }
        : {}),
    },
  };
}

/** A DaemonSet `name` (label `app=<name>`). */
export function daemonSetOf(
  name: string,
  shape: DeploymentShape & { updateStrategy?: NonNullable<V1DaemonSet['spec']>['updateStrategy'] } = {},
): V1DaemonSet {
  const labels = shape.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { ...labels } },
      ...(shape.updateStrategy ? { updateStrategy: shape.updateStrategy } : {}),
      template: podTemplateOf(name, shape),
    },
  };
}

/** A Job's shape: the pod template's, plus its own fields. */
export interface JobShape extends DeploymentShape {
  completions?: number;
  parallelism?: number;
  backoffLimit?: number;
  restartPolicy?: 'Never' | 'OnFailure';
}

/** A Job `name` (its container `app` runs the simulated-kubelet program in `behaviour.app`). */
export function jobOf(name: string, shape: JobShape = {}): V1Job {
  const template = podTemplateOf(name, { ...shape, labels: shape.labels ?? {} });
  if (template.spec) template.spec.restartPolicy = shape.restartPolicy ?? 'Never';
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      completions: shape.completions ?? 1,
      parallelism: shape.parallelism ?? 1,
      backoffLimit: shape.backoffLimit ?? 6,
      template,
    },
  };
}

/** Creates the StatefulSet. */
export async function createStatefulSet(namespace: string, name: string, shape: StatefulSetShape = {}): Promise<V1StatefulSet> {
  return clients().apps.createNamespacedStatefulSet({ namespace, body: statefulSetOf(name, shape) });
}

/** Creates the DaemonSet. */
export async function createDaemonSet(
  namespace: string,
  name: string,
  shape: Parameters<typeof daemonSetOf>[1] = {},
): Promise<V1DaemonSet> {
  return clients().apps.createNamespacedDaemonSet({ namespace, body: daemonSetOf(name, shape) });
}

/** Creates the Job. */
export async function createJob(namespace: string, name: string, shape: JobShape = {}): Promise<V1Job> {
  return clients()
    .kc.makeApiClient(BatchV1Api)
    .createNamespacedJob({ namespace, body: jobOf(name, shape) });
}

/** Reads the StatefulSet, applies `edit` and writes it back, retrying on 409 Conflict. */
export async function editStatefulSet(namespace: string, name: string, edit: (s: V1StatefulSet) => void): Promise<V1StatefulSet> {
  const { apps } = clients();
  for (let attempt = 0; ; attempt++) {
    const cur = await apps.readNamespacedStatefulSet({ name, namespace });
    edit(cur);
    try {
      return await apps.replaceNamespacedStatefulSet({ name, namespace, body: cur });
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}

/** Reads the DaemonSet, applies `edit` and writes it back, retrying on 409 Conflict. */
export async function editDaemonSet(namespace: string, name: string, edit: (d: V1DaemonSet) => void): Promise<V1DaemonSet> {
  const { apps } = clients();
  for (let attempt = 0; ; attempt++) {
    const cur = await apps.readNamespacedDaemonSet({ name, namespace });
    edit(cur);
    try {
      return await apps.replaceNamespacedDaemonSet({ name, namespace, body: cur });
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}

/** Reads the Job, applies `edit` and writes it back, retrying on 409 Conflict. */
export async function editJob(namespace: string, name: string, edit: (j: V1Job) => void): Promise<V1Job> {
  const batch = clients().kc.makeApiClient(BatchV1Api);
  for (let attempt = 0; ; attempt++) {
    const cur = await batch.readNamespacedJob({ name, namespace });
    edit(cur);
    try {
      return await batch.replaceNamespacedJob({ name, namespace, body: cur });
    } catch (err) {
      if ((err as { code?: number }).code !== 409 || attempt >= 10) throw err;
    }
  }
}
