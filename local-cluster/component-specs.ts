/**
 * The command lines of the control-plane components. Kept as data so that a component can be
 * started again exactly as it was (same ports, certificates and etcd data) after a fault.
 */
import path from 'node:path';
import { binaryPath } from './binaries.js';
import { repoRoot } from './paths.js';
import type { ComponentSpec } from './processes.js';
import type { SecretFiles } from './secrets.js';

const SERVICE_CIDR = '10.0.0.0/24';

/** Where a cluster lives and listens. */
export interface ClusterLayout {
  dir: string;
  etcdPort: number;
  etcdPeerPort: number;
  apiPort: number;
  files: SecretFiles;
}

/** The etcd client URL of `l`. */
export const etcdUrl = (l: ClusterLayout) => `http://127.0.0.1:${l.etcdPort}`;
/** The apiserver URL of `l`. */
export const serverUrl = (l: ClusterLayout) => `https://127.0.0.1:${l.apiPort}`;
/** The apiserver's self-signed serving certificate directory. */
export const certDir = (l: ClusterLayout) => path.join(l.dir, 'certs');
/** The admin kubeconfig path. */
export const kubeconfigFile = (l: ClusterLayout) => path.join(l.dir, 'kubeconfig');

/** etcd, single member, data in `<dir>/etcd`. */
export function etcdSpec(l: ClusterLayout): ComponentSpec {
  const peerUrl = `http://127.0.0.1:${l.etcdPeerPort}`;
  return {
    name: 'etcd',
    command: binaryPath('etcd'),
    args: [
      '--name=rollout-trace',
      `--data-dir=${path.join(l.dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl(l)}`,
      `--advertise-client-urls=${etcdUrl(l)}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=rollout-trace=${peerUrl}`,
      '--log-level=warn',
    ],
    logFile: path.join(l.dir, 'etcd.log'),
  };
}

/** kube-apiserver on 127.0.0.1, token auth, RBAC. */
export function apiserverSpec(l: ClusterLayout): ComponentSpec {
  return {
    name: 'kube-apiserver',
    command: binaryPath('kube-apiserver'),
    args: [
      `--etcd-servers=${etcdUrl(l)}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${l.apiPort}`,
      '--insecure-port=0',
      `--cert-dir=${certDir(l)}`,
      `--token-auth-file=${l.files.tokenFile}`,
      '--authorization-mode=RBAC',
      `--service-account-key-file=${l.files.saPublic}`,
      `--service-account-signing-key-file=${l.files.saPrivate}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--endpoint-reconciler-type=none',
      '--enable-admission-plugins=NamespaceLifecycle,ServiceAccount,ResourceQuota,LimitRanger',
      '--kubelet-preferred-address-types=InternalIP',
      '--allow-privileged=true',
      '--v=1',
    ],
    logFile: path.join(l.dir, 'kube-apiserver.log'),
  };
}

/** kube-controller-manager with the token controller (needs the apiserver's certificate). */
export function controllerManagerSpec(l: ClusterLayout): ComponentSpec {
  return {
    name: 'kube-controller-manager',
    command: binaryPath('kube-controller-manager'),
    args: [
      `--kubeconfig=${kubeconfigFile(l)}`,
      '--leader-elect=false',
      '--secure-port=0',
      '--port=0',
      `--service-account-private-key-file=${l.files.saPrivate}`,
      `--root-ca-file=${path.join(certDir(l), 'apiserver.crt')}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--use-service-account-credentials=false',
      '--v=1',
    ],
    logFile: path.join(l.dir, 'kube-controller-manager.log'),
  };
}

/** kube-scheduler. */
export function schedulerSpec(l: ClusterLayout): ComponentSpec {
  return {
    name: 'kube-scheduler',
    command: binaryPath('kube-scheduler'),
    args: [`--kubeconfig=${kubeconfigFile(l)}`, '--leader-elect=false', '--secure-port=0', '--port=0', '--v=1'],
    logFile: path.join(l.dir, 'kube-scheduler.log'),
  };
}

/** The simulated kubelet running `nodes` Nodes. */
export function kubeletSpec(l: ClusterLayout, nodes: number): ComponentSpec {
  return {
    name: 'kubelet',
    command: process.execPath,
    args: [
      '--import',
      'tsx',
      path.join(repoRoot, 'local-cluster/kubelet/main.ts'),
      '--kubeconfig',
      kubeconfigFile(l),
      '--nodes',
      String(nodes),
    ],
    logFile: path.join(l.dir, 'kubelet.log'),
    cwd: repoRoot,
  };
}

/** Which simulated controllers `controllersSpec` leaves out (local-cluster/controllers.md). */
export interface ControllerChoice {
  /** The MetalLB-like load-balancer controller (default true). */
  loadBalancer?: boolean;
  /** The ingress-nginx-like Ingress controller (default true). */
  ingress?: boolean;
  /** The cert-manager-like certificate controller and its CRDs (default true). */
  certificates?: boolean;
}

/** The simulated cluster controllers (load balancer, Ingress, certificates) in one process. */
export function controllersSpec(l: ClusterLayout, choice: ControllerChoice): ComponentSpec {
  const off = (on: boolean | undefined, flag: string) => (on === false ? [flag] : []);
  return {
    name: 'controllers',
    command: process.execPath,
    args: [
      '--import',
      'tsx',
      path.join(repoRoot, 'local-cluster/controllers/main.ts'),
      '--kubeconfig',
      kubeconfigFile(l),
      ...off(choice.loadBalancer, '--no-load-balancer'),
      ...off(choice.ingress, '--no-ingress'),
      ...off(choice.certificates, '--no-certificates'),
    ],
    logFile: path.join(l.dir, 'controllers.log'),
    cwd: repoRoot,
  };
}
