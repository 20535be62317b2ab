/**
 * The fault suite's table of StatefulSets, DaemonSets and Jobs: for each kind, how the CLI names
 * it, how a case starts a healthy rollout of it whose new pods start 15 s after they are created
 * (an update of a rolled-out StatefulSet or DaemonSet; a Job that completes), the pod line that
 * says the rollout is under way, and the verdict line it must end with.
 */
import type { V1DaemonSet, V1StatefulSet } from '@kubernetes/client-node';
import { clients, kubeconfigPath } from './cluster.js';
import { expectVerdict, traceCli } from './faults.js';
import { createDaemonSet, createJob, createStatefulSet, editDaemonSet, editStatefulSet } from './workloads.js';

/** How long a new pod of the rollout stays ContainerCreating: the faults end well before. */
export const SLOW_START_SECONDS = 15;
const SLOW = { app: `slow-start;seconds=${SLOW_START_SECONDS}` };

/** A traced kind of the fault suite. */
export interface FaultKind {
  kind: 'StatefulSet' | 'DaemonSet' | 'Job';
  /** The CLI's kind argument, the object's name and its RBAC resource and group. */
  arg: string;
  name: string;
  resource: string;
  group: string;
  /** Creates the object (a StatefulSet's or DaemonSet's pods start at once). */
  create(ns: string): Promise<unknown>;
  /** Creates the object, rolled out where it has a template to update. */
  prepare(ns: string): Promise<void>;
  /** Starts the rollout the case traces. */
  start(ns: string): Promise<void>;
  /** A pod line of that rollout in ContainerCreating. */
  creating: RegExp;
  /** The verdict line of its success, once the CLI has given it (it may read the object). */
  succeeded(ns: string): Promise<RegExp>;
}

/** `KIND NAME -n NS --kubeconfig <the test cluster's> ...extra`. */
export function kindArgs(k: FaultKind, ns: string, ...extra: string[]): string[] {
  return [k.arg, k.name, '-n', ns, '--kubeconfig', kubeconfigPath(), ...extra];
}

/** Creates the object and runs the CLI until it is rolled out (exit 0). */
async function rolledOut(k: FaultKind, ns: string): Promise<void> {
  await k.create(ns);
  expectVerdict(await traceCli(kindArgs(k, ns, '--timeout', '120s')), { code: 0, verdict: /SUCCEEDED/ });
}

/** Puts the slow-starting behaviour in the pod template: a new template, so an update. */
const slowTemplate = (o: V1StatefulSet | V1DaemonSet) => {
  const meta = o.spec!.template.metadata!;
  meta.annotations = { ...(meta.annotations ?? {}), 'sim.rollout-trace.dev/app': SLOW.app };
};

const statefulSet: FaultKind = {
  kind: 'StatefulSet',
  arg: 'sts',
  name: 'db',
  resource: 'statefulsets',
  group: 'apps',
  create: (ns) => createStatefulSet(ns, 'db', { replicas: 2, podManagementPolicy: 'Parallel' }),
  prepare: (ns) => rolledOut(statefulSet, ns),
  start: (ns) => editStatefulSet(ns, 'db', slowTemplate).then(() => undefined),
  creating: /pod db-\d \(revision db-\w+\): container-creating/,
  async succeeded(ns) {
    const s = await clients().apps.readNamespacedStatefulSet({ name: 'db', namespace: ns });
    return new RegExp(`StatefulSet \\S+/db: SUCCEEDED - revision ${s.status?.updateRevision} rolled out: 2/2 pods ready`);
  },
};

const daemonSet: FaultKind = {
  kind: 'DaemonSet',
  arg: 'ds',
  name: 'agent',
  resource: 'daemonsets',
  group: 'apps',
  create: (ns) => createDaemonSet(ns, 'agent'),
  prepare: (ns) => rolledOut(daemonSet, ns),
  start: (ns) => editDaemonSet(ns, 'agent', slowTemplate).then(() => undefined),
  creating: /pod agent-\S+ \(revision 2\): container-creating/,
  succeeded: async () => /DaemonSet \S+\/agent: SUCCEEDED - revision 2 rolled out: 2\/2 pods ready/,
};

const job: FaultKind = {
  kind: 'Job',
  arg: 'job',
  name: 'migrate',
  resource: 'jobs',
  group: 'batch',
  create: (ns) =>
    createJob(ns, 'migrate', { image: 'busybox:1.32', container: { command: ['sh', '-c', 'echo migrated'] }, behaviour: SLOW }),
  prepare: async () => undefined,
  start: (ns) => job.create(ns).then(() => undefined),
  creating: /pod migrate-\S+ .*container-creating/,
  succeeded: async () => /Job \S+\/migrate: SUCCEEDED - job migrate complete: 1\/1 succeeded/,
};

/** The kinds the fault suite runs its core cases on, besides Deployments. */
export const FAULT_KINDS: readonly FaultKind[] = [statefulSet, daemonSet, job];
