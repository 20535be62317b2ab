/**
 * The component's reads of the cluster, read-only: the live Deployment before the provider
 * changes it (the baseline), and afterwards the object to follow (declared, auto-named, or the
 * new object of a replacement). The decisions about them are decisions.ts.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type * as pulumi from '@pulumi/pulumi';
import { contextNamespace, loadKubeConfig, sleep } from '../cluster/index.js';
import type { WorkloadKind } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';
import { type LongTimer, setLongTimeout } from '../long-timer.js';
import { type ChangeKind, changeKind, type LiveDeployment } from './decisions.js';
import { findWorkloads, readWorkload } from './deployment-lookup.js';
import { isAutoNameOf, type PlannedDeployment, planFromInputs, REPLACED_ON } from './plan.js';
import { currentRun } from './run-state.js';
import { type TemplateChange, templateChanges } from './template-diff.js';
import { type LiveWorkload, liveRevisionOf } from './workload-kinds.js';

/** The cluster settings the Deployment's kubernetes provider was given. */
export interface ProviderSettings {
  kubeconfig?: pulumi.Input<string>;
  context?: pulumi.Input<string>;
  /** A cluster of the kubeconfig to use instead of the context's (`kubernetes:cluster`). */
  cluster?: pulumi.Input<string>;
  namespace?: pulumi.Input<string>;
  renderYamlToDirectory?: pulumi.Input<string>;
  /** A boolean, or its JSON text as the kubernetes SDK passes provider args (`"true"`). */
  skipUpdateUnreachable?: pulumi.Input<boolean | string>;
}

/** What was learned before the provider touched the Deployment. */
export interface Baseline {
  plan: PlannedDeployment;
  kc: KubeConfig;
  namespace: string;
  live?: LiveWorkload;
  liveFacts?: LiveDeployment;
  /** Names of the matching Deployments that existed before the update. */
  existing: Set<string>;
  change: ChangeKind;
  changes: TemplateChange[];
  /** When the baseline was read (ms): a new object is created after it. */
  readAt: number;
}

/** The plain values the baseline is read from (undefined: some value is unknown in preview). */
export interface BaselineInputs {
  inputs: unknown;
  secret: boolean;
  workloadName: string;
  /** The workload's kind (default `Deployment`). */
  kind?: WorkloadKind;
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  providerNamespace?: string;
}

const BASELINE_TIMEOUT_MS = 15_000;
/** Traces registered together read their namespace's Deployments once (the baseline is pre-update). */
const BASELINE_LIST_REUSE_MS = 2_000;
/** Concurrent searches for new auto-named Deployments share one list (the search polls every 500 ms). */
const LOCATE_LIST_REUSE_MS = 250;
/** How often observe mode looks for a replacement's new object while the provider works. */
const NEW_OBJECT_POLL_MS = 1000;

/** The kubeconfig the provider would use: explicit args or stack config, `cluster` overriding the context's. */
export function providerKubeConfig(kubeconfig?: string, context?: string, cluster?: string): KubeConfig {
  const kc = loadKubeConfig({ kubeconfig, context });
  if (!cluster) return kc;
  if (!kc.getCluster(cluster)) {
    const known = kc.getClusters().map((c) => `"${c.name}"`);
    throw new RolloutTraceError(
      'kubeconfig',
      `The provider's cluster "${cluster}" is not defined in the kubeconfig; defined clusters: ${known.join(', ')}.`,
    );
  }
  const current = kc.getCurrentContext();
  kc.contexts = kc.contexts.map((c) => (c.name === current ? { ...c, cluster } : c));
  return kc;
}

/** pk's job checker `Ready` (await/checker/job/check.go): started, and a `Complete` condition that is true. */
function jobComplete(d: LiveWorkload): boolean {
  const status = d.status as { startTime?: string; conditions?: { type?: string; status?: string }[] } | undefined;
  return !!status?.startTime && !!status.conditions?.some((c) => c.type === 'Complete' && c.status === 'True');
}

/** A StatefulSet's revisions as pk's await compares them (await/statefulset.go L401-409, L434). */
function revisionsDiffer(d: LiveWorkload): boolean {
  const status = d.status as { currentRevision?: string; updateRevision?: string } | undefined;
  return (status?.currentRevision ?? '') !== (status?.updateRevision ?? '');
}

function factsOf(kind: WorkloadKind, d: LiveWorkload | undefined): LiveDeployment | undefined {
  if (!d) return undefined;
  const spec = d.spec as { replicas?: number; selector?: { matchLabels?: Record<string, string> } } | undefined;
  return {
    uid: d.metadata?.uid,
    generation: d.metadata?.generation,
    revision: liveRevisionOf(kind, d),
    replicas: kind === 'Deployment' || kind === 'StatefulSet' ? (spec?.replicas ?? 1) : undefined,
    selector: spec?.selector?.matchLabels,
    replacedOn: Object.fromEntries((REPLACED_ON[kind] ?? []).map((f) => [f, (d.spec as Record<string, unknown> | undefined)?.[f]])),
    complete: kind === 'Job' ? jobComplete(d) : undefined,
    revisionsDiffer: kind === 'StatefulSet' ? revisionsDiffer(d) : undefined,
  };
}

/** Reads the live Deployment (read-only) before the provider changes it. */
export async function readBaseline(i: BaselineInputs): Promise<Baseline> {
  const readAt = Date.now();
  const plan = planFromInputs(i.workloadName, i.inputs, i.kind);
  const kc = providerKubeConfig(i.kubeconfig, i.context, i.cluster);
  const namespace = plan.namespace ?? i.providerNamespace ?? contextNamespace(kc);
  const found = await withTimeout(
    (signal) => findWorkloads(kc, namespace, plan, { signal, maxAgeMs: BASELINE_LIST_REUSE_MS, cache: currentRun().lists }),
    BASELINE_TIMEOUT_MS,
    `reading ${plan.kind}s in namespace "${namespace}"`,
  );
  const live = found[0];
  const changes = live ? templateChanges(plan.template, live.spec?.template, { secret: i.secret, kind: plan.kind }) : [];
  const liveFacts = factsOf(plan.kind, live);
  return {
    plan,
    kc,
    namespace,
    live,
    liveFacts,
    existing: new Set(found.map((d) => d.metadata?.name ?? '')),
    change: changeKind(plan, liveFacts, changes),
    changes,
    readAt,
  };
}

/** What the provider returned after writing the Deployment; null when it wrote nothing. */
export interface Written {
  name: string;
  generation?: number;
  uid?: string;
}

/**
 * Finds the Deployment to follow once the provider writes it: the declared or live name, the new
 * object of a replacement (another uid), or a new auto-named object. `written` resolves with the
 * provider's outputs (if any); null from it means the provider wrote nothing.
 */
export async function locate(
  b: Baseline,
  written: Promise<Written | null> | undefined,
  signal: AbortSignal,
): Promise<string | null | undefined> {
  // A provider that failed may still have created the object (its await failed): look once more,
  // then stop looking (a trace must never hold the program).
  const fromOutputs =
    written?.then(
      (w) => (w ? w.name : null),
      () => 'failed' as const,
    ) ?? new Promise<never>(() => {});
  const name = b.plan.name ?? b.live?.metadata?.name;
  // An existing object is followed at once. A new one (create, replacement) is followed once it
  // exists: under load the engine may send its create long after the registration.
  if (name && b.change !== 'replace' && b.change !== 'create') return name;
  while (!signal.aborted) {
    const winner = await Promise.race([fromOutputs, sleep(500, signal).then(() => undefined)]).catch(() => undefined);
    if (winner !== undefined && winner !== 'failed') return winner;
    const fresh = await newObjectName(b);
    if (fresh) return fresh;
    if (winner === 'failed') return null;
  }
  return undefined;
}

/**
 * Observe mode, a replacement the spec comparison expects: whether the provider did replace the
 * object (another uid lives under the name), or wrote nothing (the provider returned the same
 * object: an `ignoreChanges` field, `--target`). Undefined when cancelled; null when the provider
 * wrote no object at all.
 */
export async function replacementSeen(
  b: Baseline,
  written: Promise<Written | null>,
  signal: AbortSignal,
): Promise<boolean | null | undefined> {
  const name = await locate(b, written, signal);
  if (name === null || name === undefined) return name;
  // locate returns once another uid lives under the name, or once the provider returned.
  const now = await readWorkload(b.kc, b.namespace, name, undefined, b.plan.kind).catch(() => undefined);
  return now?.metadata?.uid !== b.liveFacts?.uid;
}

/**
 * The name of the object the update created, if it exists yet: another uid under the declared
 * name, or for an auto-named (or `generateName`) object a new one. A replacement checks the new
 * object's inputs without the old ones (pp step_generator.go L2003-2020, and L1325 for `--replace`,
 * commit 1b594989), so it gets a new name, while the old object lives on until the engine deletes it
 * after the program (create-before-delete); a name the engine's autonaming pattern repeats comes
 * back with another uid (it then deletes first, L1281).
 */
async function newObjectName(b: Baseline): Promise<string | undefined> {
  const name = b.plan.name;
  if (name) {
    const now = await readWorkload(b.kc, b.namespace, name, undefined, b.plan.kind).catch(() => undefined);
    return now && now.metadata?.uid !== b.liveFacts?.uid ? name : undefined;
  }
  // An object the provider's own pattern named is replaced by one of the same pattern: any other
  // auto-named object (another resource's, created in the same update) is not this one's.
  const ownPattern = !!b.live && isAutoNameOf(b.plan.namePrefix, b.live.metadata?.name ?? '');
  const found = await findWorkloads(b.kc, b.namespace, b.plan, {
    maxAgeMs: LOCATE_LIST_REUSE_MS,
    cache: currentRun().lists,
    ...(ownPattern ? {} : { autonamedSince: b.readAt }),
  }).catch(() => []);
  const isNew = (d: LiveWorkload) =>
    !b.existing.has(d.metadata?.name ?? '') ||
    (!!b.liveFacts && d.metadata?.uid !== b.liveFacts.uid && d.metadata?.name === b.live?.metadata?.name);
  return found.find(isNew)?.metadata?.name;
}

/**
 * Observe mode, an existing object: resolves with the name of a new object of this resource once
 * one exists ({@link newObjectName}): the engine replaces the object though the spec comparison
 * saw no replacement (`--replace`, `replaceOnChanges`, a field pk replaces on). Polls every second
 * until `signal` aborts (then it never resolves).
 */
export async function newObjectSeen(b: Baseline, signal: AbortSignal): Promise<string> {
  while (!signal.aborted) {
    const fresh = await newObjectName(b);
    if (fresh && !signal.aborted) return fresh;
    await sleep(NEW_OBJECT_POLL_MS, signal);
  }
  return new Promise<never>(() => {});
}

/** Runs `run` with a signal that aborts its request once `ms` have passed, and rejects then. */
async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  let timer: LongTimer | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setLongTimeout(() => {
      const err = new Error(`${what} took longer than ${ms / 1000}s`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), limit]);
  } finally {
    timer?.cancel();
  }
}
