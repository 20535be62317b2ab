/**
 * What differs per workload kind in the Pulumi layer, apart from I/O: the resource types traced,
 * where the live objects are read, and how a live object is described (its revision, its state).
 * The rollout rules themselves are the core's (src/core/kinds/).
 */
import type { V1DaemonSet, V1Deployment, V1Job, V1StatefulSet } from '@kubernetes/client-node';
import { collectionPath, jobCounts, KIND_FACTS, kindModule, revisionOfWorkload, WORKLOAD_KINDS, type WorkloadKind } from '../core/index.js';

/** A live workload object as read from the cluster. */
export type LiveWorkload = V1Deployment | V1StatefulSet | V1DaemonSet | V1Job;

/**
 * The Pulumi resource types rollout-trace follows, by kind. The provider awaits each of them (pk:
 * await/awaiters.go) and a `pulumi.com/waitFor` annotation replaces that await for every one
 * (await.go: the built-in await runs only `if ... !custom`). `*Patch` types are observed only.
 */
export const WORKLOAD_TYPES: Readonly<Record<string, WorkloadKind>> = Object.fromEntries(
  WORKLOAD_KINDS.flatMap((kind) => KIND_FACTS[kind].pulumiTypes.map((type) => [type, kind])),
);

/** Whether `type` is a `*Patch` resource (it patches an object that another owner manages). */
export function isPatchType(type: string): boolean {
  return type.endsWith('Patch') && WORKLOAD_TYPES[type] !== undefined;
}

/** The API path of the kind's objects in `namespace`. */
export function workloadsPath(kind: WorkloadKind, namespace: string): string {
  return collectionPath(kind, encodeURIComponent(namespace));
}

/** The live object's revision (core `revisionOfWorkload`), undefined when it has none (a Job never has one). */
export function liveRevisionOf(kind: WorkloadKind, obj: LiveWorkload | undefined): string | undefined {
  return revisionOfWorkload(kind, obj) || undefined;
}

/**
 * The live object's state in a few words, by its kind's rule (core kinds/): `revision 2, 3/3
 * ready`, or for a Job `complete, 1/1 succeeded, 0 running`, `failed (BackoffLimitExceeded), …`.
 */
export function liveStateOf(kind: WorkloadKind, obj: LiveWorkload | undefined): string {
  if (!obj) return 'not found';
  const rule = kindModule(kind).objectRule(obj);
  if ('parallelism' in rule.progress) {
    const counts = jobCounts(rule.progress);
    if (rule.state === 'done') return `complete, ${counts}`;
    return rule.state === 'failed' ? `failed (${rule.reason}), ${counts}` : counts;
  }
  const rev = liveRevisionOf(kind, obj);
  return `${rev ? `revision ${rev}, ` : ''}${rule.progress.ready}/${rule.progress.desired} ready`;
}

/** The declared size in words for a preview: replicas, one pod per node, or completions. */
export function declaredSize(kind: WorkloadKind, replicas: number | undefined, completions: number | undefined): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const per = KIND_FACTS[kind].per;
  if (per === 'nodes') return 'one pod on each eligible node';
  return per === 'completions' ? n(completions ?? 1, 'completion') : n(replicas ?? 1, 'replica');
}
