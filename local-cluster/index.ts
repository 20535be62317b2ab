/**
 * The embedded control plane: real etcd, kube-apiserver, kube-controller-manager and
 * kube-scheduler (Kubernetes 1.20.2, built once from Debian's source package and cached under
 * ~/.cache/rollout-trace/), plus a simulated kubelet and simulated cluster controllers (load
 * balancer, Ingress, certificates: controllers/). Used by the tests, the demo and the bench.
 */

export { binariesCached, ensureBinaries } from './binaries.js';
export type { ComponentFaults, ComponentName } from './component-faults.js';
export type { ControllerChoice } from './component-specs.js';
export { type LocalCluster, type LocalClusterOptions, startLocalCluster } from './control-plane.js';
export { KUBERNETES_VERSION } from './paths.js';
export { DEFAULT_SLOW, type SlowControlPlane } from './slow-link.js';
