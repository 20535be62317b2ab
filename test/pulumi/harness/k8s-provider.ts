/**
 * A stand-in for the kubernetes provider behind the monitor double: what the real provider does
 * with one object during `pulumi up`, done against the embedded control plane.
 *
 * - Configure: `kubeconfig` (content or path), `context`, `cluster`, `namespace`,
 *   `renderYamlToDirectory` (write files, never the cluster), `skipUpdateUnreachable`.
 * - Auto-naming: no `metadata.name` → `<resource name>-<8 chars>` + `pulumi.com/autonamed`;
 *   `metadata.generateName` (client-side apply mode only) → named by the apiserver on create.
 * - Preview: no write (the real provider does a server-side dry run, which writes nothing).
 * - Create/update: server-side apply (field manager `pulumi-kubernetes`), then the provider's wait
 *   (k8s-await.ts). `DeploymentPatch` is the same apply of a partial object, waited the same way.
 * - Delete: delete, then wait until gone, except with `pulumi.com/skipAwait` (pk: overrides.go).
 * - A changed `spec.selector` forces a replacement; a named object is deleted before the new
 *   one is created (pk: diff.go, deleteBeforeReplace for named objects).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dumpYaml, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { ApplyError, createObject, serverSideApply } from './apply.js';
import {
  awaitKind,
  awaitSeconds,
  DEFAULT_AWAIT_SECONDS,
  deleted,
  type ObjectRef,
  poll,
  SKIP_AWAIT,
  WAIT_FOR,
  waitForHolds,
  workloadReady,
} from './k8s-await.js';

/** One operation the stand-in did, in order, for assertions. */
export interface ProviderOp {
  op: 'create' | 'update' | 'delete' | 'delete-done' | 'await' | 'skip-update' | 'render' | 'read';
  kind: string;
  name: string;
  uid?: string;
  at: number;
  /** For `await`: how it ended and how long it was allowed. */
  result?: 'ready' | 'timeout' | 'skipped';
  seconds?: number;
  start?: number;
  /** For `await`: the provider's built-in Deployment await, or a `pulumi.com/waitFor` condition. */
  how?: 'deployment' | 'waitFor';
}

/** The provider config a `pulumi:providers:kubernetes` resource (or the stack config) gave. */
export interface ProviderConfig {
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  namespace?: string;
  renderYamlToDirectory?: string;
  skipUpdateUnreachable?: boolean | string;
  /** `false` (or `"false"`): client-side apply, the only mode that takes `metadata.generateName`. */
  enableServerSideApply?: boolean | string;
}

/** The kinds the provider awaits on create and update (pk: await/awaiters.go). */
const AWAITED_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

const TYPE_KIND: Record<string, { apiVersion: string; kind: string }> = {
  'kubernetes:apps/v1:Deployment': { apiVersion: 'apps/v1', kind: 'Deployment' },
  'kubernetes:apps/v1:DeploymentPatch': { apiVersion: 'apps/v1', kind: 'Deployment' },
  'kubernetes:apps/v1:StatefulSet': { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  'kubernetes:apps/v1:DaemonSet': { apiVersion: 'apps/v1', kind: 'DaemonSet' },
  'kubernetes:batch/v1:Job': { apiVersion: 'batch/v1', kind: 'Job' },
  'kubernetes:core/v1:ConfigMap': { apiVersion: 'v1', kind: 'ConfigMap' },
  'kubernetes:core/v1:Service': { apiVersion: 'v1', kind: 'Service' },
  'kubernetes:core/v1:Namespace': { apiVersion: 'v1', kind: 'Namespace' },
};

/** The Pulumi type token of a Kubernetes object (`apps/v1` `Deployment` → `kubernetes:apps/v1:Deployment`). */
export function typeOf(apiVersion: string, kind: string): string {
  const group = apiVersion.includes('/') ? apiVersion : `core/${apiVersion}`;
  return `kubernetes:${group}:${kind}`;
}

/** True for the resource types this stand-in manages as Kubernetes objects. */
export function isKubernetesType(type: string): boolean {
  return type in TYPE_KIND;
}

/** A plain JSON copy (API objects carry Dates; the wire carries strings). */
function json(value: unknown): any {
  return JSON.parse(JSON.stringify(value));
}

/** The kinds whose read check `pulumi refresh` runs (pk await/await.go `awaiters` with `awaitRead`). */
const WORKLOAD_KINDS_READ = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job']);

/**
 * The spec fields whose change makes the provider replace the object, per resource type, besides
 * the name and namespace (pk provider/pkg/provider/diff.go `forceNew`, compared old inputs to new
 * inputs as its Diff does).
 */
const FORCE_NEW: Record<string, readonly string[]> = {
  'kubernetes:apps/v1:Deployment': ['selector'],
  // diff.go L50/L54 `"DaemonSet": daemonset` (pulumi-kubernetes PR #1951 fixed the key).
  'kubernetes:apps/v1:DaemonSet': ['selector'],
  'kubernetes:apps/v1:StatefulSet': ['podManagementPolicy', 'revisionHistoryLimit', 'selector', 'serviceName', 'volumeClaimTemplates'],
  'kubernetes:batch/v1:Job': ['completions', 'parallelism', 'selector', 'template'],
};

/** Whether an update of `olds` to `news` needs a replacement ({@link FORCE_NEW}, name, namespace). */
export function needsReplace(olds: any, news: any, type = ''): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (news.metadata?.name && !same(olds.metadata?.name, news.metadata?.name)) return true;
  if (!same(olds.metadata?.namespace, news.metadata?.namespace)) return true;
  const fields = FORCE_NEW[type] ?? ['selector'];
  return fields.some((f) => !same(olds.spec?.[f], news.spec?.[f]));
}

/**
 * The provider's partial failure (pk: provider.go partialError): the object was written but its
 * await failed. The engine checkpoints `live` with the message as the resource's InitErrors.
 */
export class InitError extends Error {
  constructor(
    message: string,
    readonly live: any,
  ) {
    super(message);
  }
}

/** One configured kubernetes provider. */
export class KubernetesProvider {
  readonly kc: KubeConfig | undefined;
  constructor(
    readonly config: ProviderConfig,
    readonly ops: ProviderOp[],
    readonly defaultAwaitSeconds = DEFAULT_AWAIT_SECONDS,
    /** The engine's `pulumi:autonaming` pattern, when configured (pk: naming.go uses the proposed name). */
    readonly autoname?: (resourceName: string) => string,
  ) {
    if (config.renderYamlToDirectory) return;
    const kc = new KubeConfig();
    const source = config.kubeconfig ?? process.env.KUBECONFIG ?? '';
    if (source.trim().startsWith('{') || source.includes('apiVersion:')) kc.loadFromString(source);
    else kc.loadFromFile(source);
    if (config.context) kc.setCurrentContext(config.context);
    if (config.cluster) {
      const ctx = kc.getContextObject(kc.getCurrentContext());
      if (ctx) kc.contexts = kc.contexts.map((c) => (c === ctx ? { ...c, cluster: config.cluster! } : c));
    }
    this.kc = kc;
  }

  private record(op: Omit<ProviderOp, 'at'>): void {
    this.ops.push({ ...op, at: Date.now() });
  }

  /** The object the provider would write for these inputs (auto-name and namespace filled in). */
  objectOf(type: string, name: string, inputs: any, olds?: any): any {
    const gvk = TYPE_KIND[type]!;
    const obj = { ...JSON.parse(JSON.stringify(inputs ?? {})), ...gvk };
    obj.metadata ??= {};
    // pk naming.go: a generateName object keeps its generated name; a new one is named by the apiserver.
    if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = olds?.metadata?.name;
    else if (!obj.metadata.name) {
      obj.metadata.name = olds?.metadata?.name ?? this.autoname?.(name) ?? `${name}-${randomBytes(4).toString('hex')}`;
      obj.metadata.annotations = { ...obj.metadata.annotations, 'pulumi.com/autonamed': 'true' };
    }
    if (gvk.kind !== 'Namespace') obj.metadata.namespace ??= this.config.namespace ?? 'default';
    return obj;
  }

  /**
   * Whether pk's Diff answers "replace" for `pulumi.com/replaceUnready` (provider.go Diff): a Job
   * declaring it (`"true"` exactly) whose live object is not ready (started and Complete, pk
   * await/checker/job/check.go); other kinds only get a warning.
   */
  async replacesUnready(inputs: any, olds: any): Promise<boolean> {
    if (inputs?.metadata?.annotations?.['pulumi.com/replaceUnready'] !== 'true' || olds?.kind !== 'Job' || !this.kc) return false;
    const live: any = await KubernetesObjectApi.makeApiClient(this.kc)
      .read({ apiVersion: olds.apiVersion, kind: 'Job', metadata: { name: olds.metadata.name, namespace: olds.metadata.namespace } } as any)
      .catch(() => undefined);
    if (!live) return false;
    const complete = live.status?.conditions?.some((c: any) => c.type === 'Complete' && c.status === 'True');
    return !(live.status?.startTime && complete);
  }

  /**
   * Create or update: apply, then wait as the provider does. Returns the outputs. `create-new`: a
   * plain create (pk await.go Creation without upsert), which fails when a named object exists.
   */
  async apply(type: string, obj: any, op: 'create' | 'update' | 'create-new', customTimeout?: number, olds?: any): Promise<any> {
    const { kind, metadata } = obj;
    if (this.config.renderYamlToDirectory) {
      const dir = join(this.config.renderYamlToDirectory, '1-manifests');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${kind.toLowerCase()}-${metadata.namespace ?? ''}-${metadata.name}.yaml`), dumpYaml(obj));
      this.record({ op: 'render', kind, name: metadata.name });
      return obj;
    }
    const api = KubernetesObjectApi.makeApiClient(this.kc!);
    // The provider's setting, else PULUMI_K8S_SKIP_UPDATE_UNREACHABLE (pk: provider.go Configure).
    const skipSetting = this.config.skipUpdateUnreachable ?? process.env.PULUMI_K8S_SKIP_UPDATE_UNREACHABLE;
    if (op === 'update' && String(skipSetting) === 'true') {
      const reachable = await api.read(obj).then(
        () => true,
        (err: any) => err?.code === 404,
      );
      if (!reachable) {
        this.record({ op: 'skip-update', kind, name: metadata.name });
        return olds ?? obj;
      }
    }
    // A Patch resource is its own field manager and forces its fields (pk: patch resources).
    const patch = type.endsWith('Patch');
    const manager = patch ? `pulumi-patch-${metadata.name}` : 'pulumi-kubernetes';
    // Client-side apply mode always writes the declared values: a forced apply stands in for it.
    const clientSide = String(this.config.enableServerSideApply ?? true) === 'false';
    const applied: any =
      op === 'create-new'
        ? await createNew(this.kc!, api, obj)
        : obj.metadata.name
          ? await serverSideApply(this.kc!, api, obj, manager, patch || clientSide)
          : await this.createGenerated(api, obj, manager);
    this.record({
      op: op === 'create-new' ? 'create' : op,
      kind,
      name: applied.metadata?.name ?? metadata.name,
      uid: applied.metadata?.uid,
    });
    if (!AWAITED_KINDS.has(kind)) return applied;
    return this.await(applied, customTimeout);
  }

  /**
   * A new object named by the apiserver from `metadata.generateName`: only in client-side apply
   * mode (pk: provider.go Check refuses generateName in server-side apply mode, the default).
   */
  private async createGenerated(api: KubernetesObjectApi, obj: any, manager: string): Promise<any> {
    if (String(this.config.enableServerSideApply ?? true) !== 'false') {
      throw new Error('the `.metadata.generateName` field is not supported in Server-Side Apply mode');
    }
    return createObject(this.kc!, api, obj, manager);
  }

  private async await(applied: any, customTimeout?: number): Promise<any> {
    const { name, namespace, annotations } = applied.metadata;
    const how = awaitKind(annotations);
    if (how === 'skip') return applied;
    const seconds = awaitSeconds(annotations, customTimeout, this.defaultAwaitSeconds);
    const start = Date.now();
    const live =
      how === 'waitFor'
        ? await poll(seconds, () => waitForHolds(this.kc!, applied, annotations[WAIT_FOR]))
        : await poll(seconds, () => workloadReady(this.kc!, applied.kind, namespace, name));
    this.record({ op: 'await', kind: applied.kind, name, start, seconds, how, result: live ? 'ready' : 'timeout' });
    if (live) return json(live);
    const now = await KubernetesObjectApi.makeApiClient(this.kc!)
      .read(applied)
      .then(json, () => applied);
    throw new InitError(
      `the Kubernetes API server reported that "${namespace}/${name}" failed to fully initialize or become live: '${name}' timed out waiting to be Ready`,
      now,
    );
  }

  /** Delete, then wait until gone, unless skipAwait (which also skips the delete wait). */
  async delete(outputs: any, customTimeout?: number): Promise<void> {
    if (this.config.renderYamlToDirectory) return;
    const ref: ObjectRef = {
      apiVersion: outputs.apiVersion,
      kind: outputs.kind,
      metadata: { name: outputs.metadata.name, namespace: outputs.metadata.namespace },
    };
    const api = KubernetesObjectApi.makeApiClient(this.kc!);
    this.record({ op: 'delete', kind: ref.kind, name: ref.metadata.name, uid: outputs.metadata.uid });
    await api.delete(ref as any, undefined, undefined, undefined, undefined, 'Foreground').catch((err: any) => {
      if (err?.code !== 404) throw err;
    });
    if (outputs.metadata.annotations?.[SKIP_AWAIT] === 'true') return;
    const seconds = awaitSeconds(outputs.metadata.annotations, customTimeout, this.defaultAwaitSeconds);
    if (!(await deleted(this.kc!, ref, seconds))) throw new Error(`'${ref.metadata.name}' timed out waiting to be deleted`);
    this.record({ op: 'delete-done', kind: ref.kind, name: ref.metadata.name, uid: outputs.metadata.uid });
  }

  /**
   * Refresh: reads the live object; a workload not ready (and not skipAwait: `waitFor` does not
   * skip it) gives `notReady`. pk await/await.go `Read` runs each kind's read check unless
   * `SkipAwaitLogic`: Deployments, StatefulSets, DaemonSets and Jobs alike.
   */
  async refresh(outputs: any): Promise<{ live: any; notReady?: string }> {
    const live = json(await KubernetesObjectApi.makeApiClient(this.kc!).read(outputs));
    const { name, namespace, annotations } = live.metadata;
    if (!WORKLOAD_KINDS_READ.has(live.kind) || awaitKind(annotations) === 'skip') return { live };
    const ready = await workloadReady(this.kc!, live.kind, namespace, name);
    this.record({ op: 'read', kind: live.kind, name });
    return { live, notReady: ready ? undefined : `'${name}' is not ready` };
  }

  /** Reads a live object (`.get()` and import): `id` is `namespace/name`. */
  async read(type: string, id: string): Promise<any> {
    const [namespace, name] = id.includes('/') ? id.split('/') : [this.config.namespace ?? 'default', id];
    const gvk = TYPE_KIND[type]!;
    this.record({ op: 'read', kind: gvk.kind, name: name! });
    return json(
      await KubernetesObjectApi.makeApiClient(this.kc!).read({ ...gvk, metadata: { name: name!, namespace: namespace! } } as any),
    );
  }
}

/** pk's create (await.go Creation): a named object that exists fails with pk's message. */
async function createNew(kc: KubeConfig, api: KubernetesObjectApi, obj: any): Promise<any> {
  return createObject(kc, api, obj, 'pulumi-kubernetes').catch((err: unknown) => {
    if (err instanceof ApplyError && err.code === 409)
      throw new Error(`${obj.kind} "${obj.metadata.name}" already exists\n\nThe resource already exists in the cluster.`);
    throw err;
  });
}
