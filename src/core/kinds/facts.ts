/**
 * The facts table: what every layer needs to know of a workload kind (its names, where its objects
 * live in the API, what a trace of it watches, and which options have a meaning for it), in one
 * place. The CLI reads the spellings, the cluster layer the paths and watches, the sinks the short
 * names, the Pulumi layer the resource types and paths, and option validation the features.
 * Pure data: adding a kind is one entry here plus its module (see CONTRIBUTING.md).
 */
import type { WatchedKind, WorkloadKind, WorkloadRef } from '../types.js';

/**
 * The options whose meaning depends on the kind. A trace of a kind for which a feature has no
 * meaning refuses it (a `bad-input` error, exit 2 in the CLI) with the kind's sentence, never
 * ignores it.
 */
export type KindFeature =
  /** `success: { mode: 'percent' }` (`--success 75%`): a share of the desired pods. */
  | 'success-percent'
  /** `success: { mode: 'pods' }` (`--success 2`): a number of pods. */
  | 'success-pods'
  /** `success: { mode: 'maxUnavailable' }`: the kind's own rolling-update `maxUnavailable`. */
  | 'success-max-unavailable'
  /** `settleSeconds` (`--settle`): success waits until a pod that recovered stayed Ready this long. */
  | 'settle'
  /** `baselineRevision`: the revision before the change being traced. */
  | 'baseline-revision'
  /** `logs.onSuccess` (`--logs-on-success`): the log tails of a success. */
  | 'logs-on-success'
  /** `--pulumi-messages`: Pulumi's own await messages in the failure summary. */
  | 'pulumi-messages';

/** Every {@link KindFeature}, in the order the feature × kind table documents them. */
export const KIND_FEATURES: readonly KindFeature[] = [
  'success-percent',
  'success-pods',
  'success-max-unavailable',
  'settle',
  'baseline-revision',
  'logs-on-success',
  'pulumi-messages',
];

/** One kind's facts. */
export interface KindFacts {
  kind: WorkloadKind;
  /** kubectl's short name (`deploy`, `sts`, `ds`, `job`): keys of the sinks, `kubectl` hints. */
  short: string;
  /** Every spelling kubectl accepts for the kind (short, singular, plural, with the API group). */
  spellings: readonly string[];
  /** API group and version (`apps/v1`, `batch/v1`). */
  apiVersion: string;
  /** Plural lower-case resource, as in RBAC rules and API paths. */
  resource: string;
  /** The Pulumi resource types of the kind (the `*Patch` type is observed only). */
  pulumiTypes: readonly string[];
  /**
   * The kinds a trace of this kind lists and watches in the namespace, besides the kind itself,
   * Pods and Events (always) and PersistentVolumeClaims (when its pods mount claims). A Deployment's
   * pods belong to its ReplicaSets; the other kinds own their pods.
   */
  ownedVia: readonly WatchedKind[];
  /** What a pod counts as in the kind's own words (`ready`, `succeeded`). */
  podsDone: string;
  /** What a verdict says of the workload once it succeeded (`rolled out`, `complete`). */
  done: string;
  /** Whether kubectl's `rollout status`, `rollout undo` and `rollout resume` apply to it. */
  rollsOut: boolean;
  /** What its desired count counts: `replicas`, `nodes` (one pod on each eligible node), `completions`. */
  per: 'replicas' | 'nodes' | 'completions';
  /**
   * Per feature: `true` when it works for the kind, else the sentence that says why it has no
   * meaning (completing "… is refused for a Job: <sentence>").
   */
  features: Readonly<Record<KindFeature, true | string>>;
}

const NOT_PULUMI = "Pulumi's await messages are modelled for Deployments only; the failure summary already names this kind's cause";

/** The features a kind whose pods keep running after success has no use for. */
function leavesPodsRunning(kind: WorkloadKind): { 'logs-on-success': string; 'pulumi-messages': string } {
  return {
    'logs-on-success': `a ${kind} that succeeds leaves its pods running, so their logs are read with kubectl logs`,
    'pulumi-messages': NOT_PULUMI,
  };
}

/** The facts of every traced kind. */
export const KIND_FACTS: Readonly<Record<WorkloadKind, KindFacts>> = {
  Deployment: {
    kind: 'Deployment',
    short: 'deploy',
    spellings: ['deploy', 'deployment', 'deployments', 'deployment.apps', 'deployments.apps'],
    apiVersion: 'apps/v1',
    resource: 'deployments',
    pulumiTypes: ['kubernetes:apps/v1:Deployment', 'kubernetes:apps/v1:DeploymentPatch'],
    ownedVia: ['ReplicaSet'],
    podsDone: 'ready',
    done: 'rolled out',
    rollsOut: true,
    per: 'replicas',
    features: {
      'success-percent': true,
      'success-pods': true,
      'success-max-unavailable': true,
      settle: true,
      'baseline-revision': true,
      ...leavesPodsRunning('Deployment'),
      'pulumi-messages': true,
    },
  },
  StatefulSet: {
    kind: 'StatefulSet',
    short: 'sts',
    spellings: ['sts', 'statefulset', 'statefulsets', 'statefulset.apps', 'statefulsets.apps'],
    apiVersion: 'apps/v1',
    resource: 'statefulsets',
    pulumiTypes: ['kubernetes:apps/v1:StatefulSet', 'kubernetes:apps/v1:StatefulSetPatch'],
    ownedVia: [],
    podsDone: 'ready',
    done: 'rolled out',
    rollsOut: true,
    per: 'replicas',
    features: {
      'success-percent': true,
      'success-pods': true,
      'success-max-unavailable':
        'a StatefulSet replaces one ordinal at a time (its maxUnavailable is an alpha field of 1.24+); use a number or a share of ready pods such as 2 or 75%',
      settle: true,
      'baseline-revision': "a StatefulSet's revision is its updateRevision, read from the object itself",
      ...leavesPodsRunning('StatefulSet'),
    },
  },
  DaemonSet: {
    kind: 'DaemonSet',
    short: 'ds',
    spellings: ['ds', 'daemonset', 'daemonsets', 'daemonset.apps', 'daemonsets.apps'],
    apiVersion: 'apps/v1',
    resource: 'daemonsets',
    pulumiTypes: ['kubernetes:apps/v1:DaemonSet', 'kubernetes:apps/v1:DaemonSetPatch'],
    ownedVia: [],
    podsDone: 'ready',
    done: 'rolled out',
    rollsOut: true,
    per: 'nodes',
    features: {
      'success-percent': true,
      'success-pods': true,
      'success-max-unavailable': true,
      settle: true,
      'baseline-revision': "a DaemonSet's revision is its template generation, read from the object itself",
      ...leavesPodsRunning('DaemonSet'),
    },
  },
  Job: {
    kind: 'Job',
    short: 'job',
    spellings: ['job', 'jobs', 'job.batch', 'jobs.batch'],
    apiVersion: 'batch/v1',
    resource: 'jobs',
    pulumiTypes: ['kubernetes:batch/v1:Job', 'kubernetes:batch/v1:JobPatch'],
    ownedVia: [],
    podsDone: 'succeeded',
    done: 'complete',
    rollsOut: false,
    per: 'completions',
    features: {
      'success-percent': true,
      'success-pods': true,
      'success-max-unavailable': 'a Job has no rolling update; use a number or a share of succeeded completions such as 3 or 50%',
      settle: 'a Job succeeds when its pods have ended, so there is no running pod left to settle',
      'baseline-revision': "a Job's template cannot change, so it has no revision",
      'logs-on-success': true,
      'pulumi-messages': NOT_PULUMI,
    },
  },
};

/** The kinds, in the order they are documented. */
export const WORKLOAD_KINDS: readonly WorkloadKind[] = Object.keys(KIND_FACTS) as WorkloadKind[];

/** Whether `kind` names a traced kind that owns its pods itself (a StatefulSet, DaemonSet, Job; not a Deployment). */
export function ownsItsPods(kind: string | undefined): boolean {
  const facts = KIND_FACTS[kind as WorkloadKind] as KindFacts | undefined;
  return facts !== undefined && facts.ownedVia.length === 0;
}

/** The API path of the kind's objects in `namespace` (`/apis/apps/v1/namespaces/NS/deployments`). */
export function collectionPath(kind: WorkloadKind, namespace: string): string {
  const f = KIND_FACTS[kind];
  return `/apis/${f.apiVersion}/namespaces/${namespace}/${f.resource}`;
}

/** The kind a kubectl spelling names (case-insensitive), or undefined. */
export function kindSpelled(word: string): WorkloadKind | undefined {
  const w = word.toLowerCase();
  return WORKLOAD_KINDS.find((k) => KIND_FACTS[k].spellings.includes(w));
}

/**
 * The workload an event or verdict is about: its `workload`, or (an event made by hand, or by an
 * older version) its `deployment` and `kind`.
 */
export function workloadOf(e: {
  workload?: WorkloadRef;
  deployment: { namespace: string; name: string };
  kind?: WorkloadKind;
}): WorkloadRef {
  return e.workload ?? { kind: e.kind ?? 'Deployment', namespace: e.deployment.namespace, name: e.deployment.name };
}

/** `ns/name` of a traced Deployment; `ns/sts/name`, `ns/ds/name`, `ns/job/name` of the other kinds. */
export function workloadKey(w: WorkloadRef): string {
  return w.kind === 'Deployment' ? `${w.namespace}/${w.name}` : `${w.namespace}/${KIND_FACTS[w.kind].short}/${w.name}`;
}
