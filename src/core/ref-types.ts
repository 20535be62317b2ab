/** How the core names a workload: its kind, namespace and name (re-exported by ./types.ts). */

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

/** The kinds of workload a trace follows. */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job';

/** Identifies one workload: its kind, namespace and name. */
export interface WorkloadRef extends NamespacedName {
  kind: WorkloadKind;
}
