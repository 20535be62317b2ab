/**
 * The facts table: what every layer needs to know of a workload kind (its names, where its objects
 * live in the API, what a trace of it watches, and which options have a meaning for it), in one
 * place. The CLI reads the spellings, the cluster layer the paths and watches, the sinks the short
 * names, the Pulumi layer the resource types and paths, and option validation the features.
 * Pure data: adding a kind is one entry here plus its module (see CONTRIBUTING.md).
 */
import type { KindFacts } from '../kind-facts.js';
import type { WorkloadKind, WorkloadRef } from '../types.js';

export { KIND_FEATURES, type KindFacts, type KindFeature } from '../kind-facts.js';

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

/**
 * The kind of a workload named without one: a recording or JSON line written by an earlier version
 * (which named a Deployment by omitting it), or a `kind` option left out of `track()`, the CLI or
 * the Pulumi component (their documented default). Only those readers resolve an omitted kind, with
 * this; everything past them takes the kind as required.
 */
export const KIND_BY_OMISSION: WorkloadKind = KIND_FACTS.Deployment.kind;

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
  return e.workload ?? { kind: e.kind ?? KIND_BY_OMISSION, namespace: e.deployment.namespace, name: e.deployment.name };
}

/** `ns/name` of a traced Deployment; `ns/sts/name`, `ns/ds/name`, `ns/job/name` of the other kinds. */
export function workloadKey(w: WorkloadRef): string {
  return w.kind === 'Deployment' ? `${w.namespace}/${w.name}` : `${w.namespace}/${KIND_FACTS[w.kind].short}/${w.name}`;
}
