/**
 * A stand-in for the kubernetes provider behind `runtime.setMocks`: what `pulumi up` would make
 * the real provider do with a Deployment, done against the local control plane.
 *
 * - Auto-naming: no `metadata.name` → `<resource name>-<8 chars>` + `pulumi.com/autonamed`.
 * - Preview: no write (the real provider does a server-side dry run, which writes nothing).
 * - Update: server-side apply of the inputs (field manager `pulumi-kubernetes`).
 * - `pulumi.com/skipAwait: "true"` → return the API response at once.
 * - Otherwise a stand-in for the provider's await: Pulumi's Deployment success predicate polled
 *   every 500 ms, failing with the provider's timeout message after `awaitTimeoutMs`.
 */
import { randomBytes } from 'node:crypto';
import { AppsV1Api, type KubeConfig, KubernetesObjectApi, PatchStrategy, type V1Deployment } from '@kubernetes/client-node';

const REVISION = 'deployment.kubernetes.io/revision';

/** What the stand-in did, for assertions. */
export interface ProviderRecord {
  writes: number;
  /** Each await: the Deployment, when it started/ended, and how. */
  awaits: { name: string; start: number; end: number; result: 'ready' | 'timeout' }[];
}

/** Options of the stand-in. */
export interface ProviderOptions {
  kc: KubeConfig;
  /** The provider's await timeout (ms). Default 60 s. */
  awaitTimeoutMs?: number;
  /** Called when any resource is created (before the stand-in does anything), for assertions. */
  onResource?: (type: string, name: string) => Promise<void> | void;
}

function stripUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? {}));
}

/** Builds the mocks object for `runtime.setMocks`, plus what it recorded. */
export function kubernetesProviderMocks(opts: ProviderOptions, preview: boolean) {
  const record: ProviderRecord = { writes: 0, awaits: [] };
  const apps = opts.kc.makeApiClient(AppsV1Api);
  const objects = KubernetesObjectApi.makeApiClient(opts.kc);
  /** Default namespace of each explicit provider, by the `<urn>::<id>` reference resources carry. */
  const providerNamespaces = new Map<string, string>();
  const mocks = {
    async newResource(args: { type: string; name: string; inputs: Record<string, any>; provider?: string }) {
      await opts.onResource?.(args.type, args.name);
      if (args.type === 'pulumi:providers:kubernetes') {
        providerNamespaces.set(args.name, args.inputs.namespace);
        return { id: `${args.name}-id`, state: args.inputs };
      }
      if (args.type !== 'kubernetes:apps/v1:Deployment') return { id: `${args.name}-id`, state: args.inputs };
      // `urn:pulumi:stack::project::pulumi:providers:kubernetes::<name>::<id>`
      const providerName = args.provider?.split('::')[3];
      const obj = stripUndefined(args.inputs) as V1Deployment & { apiVersion: string; kind: string };
      obj.metadata ??= {};
      if (!obj.metadata.name) {
        obj.metadata.name = `${args.name}-${randomBytes(4).toString('hex')}`;
        obj.metadata.annotations = { ...obj.metadata.annotations, 'pulumi.com/autonamed': 'true' };
      }
      const namespace = obj.metadata.namespace ?? (providerName && providerNamespaces.get(providerName)) ?? 'default';
      const name = obj.metadata.name;
      if (preview) return { id: '', state: obj };
      const before = await apps.readNamespacedDeployment({ name, namespace }).catch(() => undefined);
      record.writes++;
      const applied = (await objects.patch(
        { ...obj, metadata: { ...obj.metadata, namespace } } as any,
        undefined,
        undefined,
        'pulumi-kubernetes',
        true,
        PatchStrategy.ServerSideApply,
      )) as V1Deployment;
      if (obj.metadata.annotations?.['pulumi.com/skipAwait'] === 'true') return { id: `${namespace}/${name}`, state: applied };
      const start = Date.now();
      const timeoutMs = opts.awaitTimeoutMs ?? 60_000;
      const lastRevision = before?.metadata?.annotations?.[REVISION];
      while (Date.now() - start < timeoutMs) {
        const live = await isReady(apps, namespace, name, lastRevision);
        if (live) {
          record.awaits.push({ name, start, end: Date.now(), result: 'ready' });
          return { id: `${namespace}/${name}`, state: live };
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      record.awaits.push({ name, start, end: Date.now(), result: 'timeout' });
      throw new Error(
        `the Kubernetes API server reported that "${namespace}/${name}" failed to fully initialize or become live: '${name}' timed out waiting to be Ready`,
      );
    },
    call(args: { inputs: Record<string, unknown> }) {
      return args.inputs;
    },
  };
  return { mocks, record };
}

/**
 * Pulumi's Deployment success predicate (reference §1.6), simplified to what these scenarios
 * exercise: reconciled generation, revision set, Available=True, Progressing=NewReplicaSetAvailable
 * after revision 1, and the current revision's ReplicaSet ready (and new, if the revision moved).
 */
async function isReady(apps: AppsV1Api, namespace: string, name: string, lastRevision?: string): Promise<V1Deployment | undefined> {
  const d = await apps.readNamespacedDeployment({ name, namespace }).catch(() => undefined);
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
  if (!rs) return undefined;
  // After the generation wait the revision annotation already tells whether the update made a new
  // ReplicaSet (changeTriggeredRollout): either way the current revision's ReplicaSet must be ready.
  void lastRevision;
  return (rs.status?.readyReplicas ?? 0) >= (rs.spec?.replicas ?? 1) ? d : undefined;
}
