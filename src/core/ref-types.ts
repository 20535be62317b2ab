/** How the core names a workload: its kind, namespace and name (re-exported by ./types.ts). */
import type { V1DaemonSet, V1Deployment, V1Job, V1StatefulSet } from '@kubernetes/client-node';

/** An object's namespace and name (the kind is said elsewhere: {@link WorkloadRef} says it). */
export interface NamespacedName {
  namespace: string;
  name: string;
}

/**
 * The `deployment` field's type, which every workload kind fills.
 * @deprecated Use {@link WorkloadRef} (or {@link NamespacedName}); kept for code written against earlier versions.
 */
export type DeploymentRef = NamespacedName;

/** The kinds of workload a trace follows, each with its object's type. */
export interface WorkloadObjects {
  Deployment: V1Deployment;
  StatefulSet: V1StatefulSet;
  DaemonSet: V1DaemonSet;
  Job: V1Job;
}

/** The kinds of workload a trace follows. */
export type WorkloadKind = keyof WorkloadObjects;

/** Identifies one workload: its kind, namespace and name. */
export interface WorkloadRef extends NamespacedName {
  kind: WorkloadKind;
}
