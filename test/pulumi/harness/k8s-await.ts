/**
 * The kubernetes provider's waits, as the provider stand-in runs them against the control plane:
 * which wait applies (skipAwait, `pulumi.com/waitFor`, the built-in Deployment await), how long
 * (customTimeouts > `pulumi.com/timeoutSeconds` > 10 minutes, pk: overrides.go), and the waits.
 */
import { AppsV1Api, type KubeConfig, KubernetesObjectApi, type V1Deployment } from '@kubernetes/client-node';

const REVISION = 'deployment.kubernetes.io/revision';
export const SKIP_AWAIT = 'pulumi.com/skipAwait';
export const WAIT_FOR = 'pulumi.com/waitFor';
export const TIMEOUT_SECONDS = 'pulumi.com/timeoutSeconds';

/** The provider's default await (DefaultDeploymentTimeoutMins). */
export const DEFAULT_AWAIT_SECONDS = 600;

/**
 * The timeout the provider uses: customTimeouts, then the annotation as Go's `strconv.Atoi` reads
 * it (pk metadata/overrides.go L57-62: a sign and ASCII digits, in the int64 range; anything else is
 * an error and pk uses its default), then the default.
 */
export function awaitSeconds(annotations: Record<string, string> | undefined, customTimeout: number | undefined, fallback: number): number {
  if (customTimeout && customTimeout > 0) return customTimeout;
  const text = annotations?.[TIMEOUT_SECONDS] ?? '';
  if (!/^[+-]?[0-9]+$/.test(text) || BigInt(text) < -(2n ** 63n) || BigInt(text) >= 2n ** 63n) return fallback;
  return Number(text);
}

/** Which wait the provider runs for a Deployment-like object on create/update. */
export function awaitKind(annotations: Record<string, string> | undefined): 'skip' | 'waitFor' | 'deployment' {
  if (annotations?.[SKIP_AWAIT] === 'true') return 'skip';
  if (annotations?.[WAIT_FOR]) return 'waitFor';
  return 'deployment';
}

/** Polls `check` every 300 ms until it returns a value or `seconds` pass (then undefined). */
export async function poll<T>(seconds: number, check: () => Promise<T | undefined>): Promise<T | undefined> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await check().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  return undefined;
}

/**
 * Pulumi's Deployment success predicate (pulumi/pulumi-kubernetes provider/pkg/await/deployment.go
 * `checkAndLogStatus`), simplified to what the scenarios
 * exercise: reconciled generation, revision set, Available=True, Progressing=NewReplicaSetAvailable
 * after revision 1, and the current revision's ReplicaSet ready.
 */
export async function deploymentReady(kc: KubeConfig, namespace: string, name: string): Promise<V1Deployment | undefined> {
  const apps = kc.makeApiClient(AppsV1Api);
  const d = await apps.readNamespacedDeployment({ name, namespace });
  if (!d?.metadata || d.metadata.generation !== d.status?.observedGeneration) return undefined;
  const revision = d.metadata.annotations?.[REVISION];
  if (!revision) return undefined;
  const cond = (type: string) => d.status?.conditions?.find((c) => c.type === type);
  if (cond('Available')?.status !== 'True') return undefined;
  if (revision !== '1' && !(cond('Progressing')?.status === 'True' && cond('Progressing')?.reason === 'NewReplicaSetAvailable')) {
    return undefined;
  }
  const rss = await apps.listNamespacedReplicaSet({ namespace });
  const rs = rss.items.find(
    (r) => r.metadata?.annotations?.[REVISION] === revision && r.metadata?.ownerReferences?.some((o) => o.uid === d.metadata?.uid),
  );
  return rs && (rs.status?.readyReplicas ?? 0) >= (rs.spec?.replicas ?? 1) ? d : undefined;
}

/**
 * The provider's built-in await of a StatefulSet, DaemonSet or Job, simplified to what the
 * scenarios exercise (pk: await/statefulset.go `checkAndLogStatus`: replicas ready and
 * `currentRevision == updateRevision`, except for OnDelete past generation 1, L430; await/daemonset.go: every desired pod updated and
 * available; await/job.go: the `Complete` condition). Deployments: {@link deploymentReady}.
 */
export async function workloadReady(kc: KubeConfig, kind: string, namespace: string, name: string): Promise<unknown | undefined> {
  if (kind === 'Deployment') return deploymentReady(kc, namespace, name);
  const live = (await KubernetesObjectApi.makeApiClient(kc).read({
    apiVersion: kind === 'Job' ? 'batch/v1' : 'apps/v1',
    kind,
    metadata: { name, namespace },
  })) as any;
  const s = live?.status ?? {};
  const observed = kind === 'Job' || (s.observedGeneration ?? 0) >= (live?.metadata?.generation ?? 0);
  if (!observed) return undefined;
  if (kind === 'StatefulSet') {
    // pk statefulset.go: an OnDelete StatefulSet past its first generation needs no equal revisions.
    const onDelete = live.spec?.updateStrategy?.type === 'OnDelete' && (live.metadata?.generation ?? 1) > 1;
    const ready = (s.readyReplicas ?? 0) >= (live.spec?.replicas ?? 1) && (onDelete || s.currentRevision === s.updateRevision);
    return ready ? live : undefined;
  }
  if (kind === 'DaemonSet') {
    const desired = s.desiredNumberScheduled ?? 0;
    return (s.updatedNumberScheduled ?? 0) >= desired && (s.numberAvailable ?? 0) >= desired ? live : undefined;
  }
  return s.conditions?.some((c: any) => c.type === 'Complete' && c.status === 'True') ? live : undefined;
}

/**
 * `pulumi.com/waitFor` (pk v4.18+): `condition=Type[=Status]` or `jsonpath={.a.b}=value`, or a
 * JSON array of those (all must hold). Only the forms the scenarios use.
 */
export async function waitForHolds(kc: KubeConfig, ref: ObjectRef, spec: string): Promise<unknown | undefined> {
  const live = (await KubernetesObjectApi.makeApiClient(kc).read(ref as any)) as any;
  const specs: string[] = spec.trim().startsWith('[') ? JSON.parse(spec) : [spec];
  // Like pk's JSONPath condition: a status not yet caught up with the generation never matches.
  const observed = live.status?.observedGeneration;
  if (observed !== undefined && observed < live.metadata?.generation) return undefined;
  const ok = specs.every((s) => {
    const cond = /^condition=([^=]+)(?:=(.+))?$/.exec(s);
    if (cond) return live.status?.conditions?.some((c: any) => c.type === cond[1] && c.status === (cond[2] ?? 'True'));
    const path = /^jsonpath=\{\.([^}]+)\}(?:=(.+))?$/.exec(s);
    if (!path) throw new Error(`waitFor form not modelled: ${s}`);
    const value = path[1]!.split('.').reduce((o: any, k) => o?.[k], live);
    return path[2] === undefined ? value !== undefined : String(value) === path[2];
  });
  return ok ? live : undefined;
}

/** How the provider addresses one object. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
}

/** Waits until the object is gone (the provider's delete await). */
export async function deleted(kc: KubeConfig, ref: ObjectRef, seconds: number): Promise<boolean> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const gone = await poll(seconds, async () => {
    const live = await api.read(ref as any).catch((err: any) => (err?.code === 404 ? undefined : Promise.reject(err)));
    return live ? undefined : true;
  });
  return gone === true;
}
