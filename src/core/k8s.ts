/**
 * Small, pure accessors over Kubernetes objects. Objects may come from a typed list (dates are
 * `Date`) or from a raw watch / JSON fixture (dates are strings), so every accessor accepts both.
 */
import type {
  CoreV1Event,
  V1ContainerStatus,
  V1Deployment,
  V1DeploymentCondition,
  V1ObjectMeta,
  V1OwnerReference,
  V1Pod,
  V1PodTemplateSpec,
  V1ReplicaSet,
} from '@kubernetes/client-node';

/** The annotation the Deployment controller puts on a Deployment and its ReplicaSets. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
/** Older revisions a re-used ReplicaSet had (set on rollback). */
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';

/** Milliseconds since the epoch for a Kubernetes timestamp (Date or RFC 3339 string). */
export function timeOf(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Formats like Go's `time.RFC3339Nano` in UTC (fraction without trailing zeros). */
export function rfc3339Nano(value: unknown): string {
  const ms = timeOf(value);
  if (ms === undefined) return '0001-01-01T00:00:00Z';
  return new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_m, frac: string) => (frac ? `.${frac}Z` : 'Z'));
}

/** The revision annotation of a Deployment or ReplicaSet ('' when absent, like Pulumi). */
export function revisionOf(obj: { metadata?: V1ObjectMeta } | undefined): string {
  return obj?.metadata?.annotations?.[REVISION_ANNOTATION] ?? '';
}

/** True when one of `obj`'s ownerReferences has exactly `uid`. */
export function isOwnedBy(obj: { metadata?: V1ObjectMeta } | undefined, uid: string | undefined): boolean {
  if (!uid) return false;
  return (obj?.metadata?.ownerReferences ?? []).some((ref: V1OwnerReference) => ref.uid === uid);
}

/** The first ownerReference of a given kind. */
export function ownerOfKind(obj: { metadata?: V1ObjectMeta } | undefined, kind: string): V1OwnerReference | undefined {
  return (obj?.metadata?.ownerReferences ?? []).find((ref) => ref.kind === kind);
}

/** A Deployment condition by type. */
export function deploymentCondition(d: V1Deployment | undefined, type: string): V1DeploymentCondition | undefined {
  return d?.status?.conditions?.find((c) => c.type === type);
}

/** A ReplicaSet condition by type. */
export function replicaSetCondition(rs: V1ReplicaSet, type: string) {
  return rs.status?.conditions?.find((c) => c.type === type);
}

/** A Pod condition by type. */
export function podCondition(pod: V1Pod, type: string) {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/**
 * A pod in a terminal phase (`Failed` or `Succeeded`): evicted, rejected by its node's kubelet at
 * admission, shut down with its node. Its containers never run again and it never becomes Ready.
 */
export function hasEnded(pod: V1Pod): boolean {
  return isTerminalPhase(pod.status?.phase);
}

/** Whether a pod's `status.phase` is terminal (`Failed` or `Succeeded`). */
export function isTerminalPhase(phase: string | undefined): boolean {
  return phase === 'Failed' || phase === 'Succeeded';
}

/**
 * A pod that can still become Ready: neither terminating (`deletionTimestamp`) nor ended. Only
 * such pods hold success, are diagnosed, or are waited for.
 */
export function canBecomeReady(pod: V1Pod): boolean {
  return !pod.metadata?.deletionTimestamp && !hasEnded(pod);
}

/** A restartable init container (`restartPolicy: Always`, 1.29+): a sidecar that runs beside the containers. */
export function isSidecar(spec: { restartPolicy?: string } | undefined): boolean {
  return spec?.restartPolicy === 'Always';
}

/**
 * Statuses of the containers meant to keep running: the containers and the sidecars (their
 * restarts and readiness count like a container's; other init containers run to completion).
 */
export function longRunningStatuses(pod: V1Pod): V1ContainerStatus[] {
  const inits = pod.status?.initContainerStatuses;
  if (!inits?.length) return pod.status?.containerStatuses ?? [];
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter(isSidecar).map((c) => c.name));
  return [...inits.filter((s) => sidecars.has(s.name)), ...(pod.status?.containerStatuses ?? [])];
}

/** When an Event last happened (ms), falling back through the fields old and new events fill. */
export function eventTime(e: CoreV1Event): number {
  return (
    timeOf(e.lastTimestamp) ??
    timeOf(e.series?.lastObservedTime) ??
    timeOf(e.eventTime) ??
    timeOf(e.firstTimestamp) ??
    timeOf(e.metadata?.creationTimestamp) ??
    0
  );
}

/** An Event's occurrence count (series-aware). */
export function eventCount(e: CoreV1Event): number {
  return e.series?.count ?? e.count ?? 1;
}

/**
 * Deterministic JSON (sorted keys) for structural comparisons, e.g. pod templates. With
 * `dropNulls`, null properties are left out (a typed list and a raw watch disagree on them).
 */
export function stableJson(value: unknown, dropNulls = false): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === null && dropNulls) return undefined;
    if (v instanceof Date) return v.toISOString();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)));
    }
    return v;
  });
}

/** The label the Deployment controller adds to each ReplicaSet's pod template (and selector). */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/**
 * A comparable key for a whole pod template (metadata and spec) without the `pod-template-hash`
 * label, as the Deployment controller compares them (`EqualIgnoreHash`): a template that differs
 * only in an annotation (`kubectl rollout restart`) is a different template.
 */
export function templateKey(template: V1PodTemplateSpec | undefined): string {
  let key = template && templateKeys.get(template);
  if (key === undefined) {
    const { [POD_TEMPLATE_HASH_LABEL]: _hash, ...labels } = template?.metadata?.labels ?? {};
    key = stableJson({ ...template, metadata: { ...template?.metadata, labels } }, true);
    if (template) templateKeys.set(template, key);
  }
  return key;
}

/**
 * {@link templateKey} per template object: it is asked for on every observation, of objects that
 * change only when a new one arrives (observations are never mutated), so the key of an object
 * never changes. A cache that is only ever filled with pure results, and forgets with the object.
 */
const templateKeys = new WeakMap<V1PodTemplateSpec, string>();

/** Namespace/name as Pulumi prints it: the namespace is omitted when it is `default` or empty. */
export function pulumiQualifiedName(meta: V1ObjectMeta | undefined): string {
  const ns = meta?.namespace ?? '';
  const name = meta?.name ?? '';
  return ns !== '' && ns !== 'default' ? `${ns}/${name}` : name;
}

/** The pod's `Ready` condition is `True`. */
export function isPodReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
