/**
 * Controllers a real cluster runs beside Kubernetes' own and the embedded 1.20 control plane
 * lacks, simulated as the kubelet is: a load-balancer controller (MetalLB-like) for `type:
 * LoadBalancer` Services, an Ingress controller (ingress-nginx-like) and a certificate controller
 * (cert-manager-like) for a CustomResourceDefinition it installs. Conventions:
 * local-cluster/controllers.md.
 */
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node';
import { CertificateController } from './certificates.js';
import { IngressController, type IngressOptions } from './ingress-nginx.js';
import { LoadBalancerController, type LoadBalancerOptions } from './load-balancer.js';
import { CLUSTER_NAMESPACE_SELECTOR, NamespaceScope } from './scope.js';

export type { AddressPool } from './address-pool.js';
export { DEFAULT_POOLS } from './address-pool.js';
export { FAILING_ISSUER, ISSUE_SECONDS_ANNOTATION, ISSUED_MESSAGE, ISSUING_ISSUER, rateLimitedMessage } from './certificate-requests.js';
export { CERT_API_VERSION, CERT_GROUP, CERT_VERSION } from './certificates-crd.js';
export type { Condition } from './conditions.js';
export { INGRESS_DEFAULTS, type IngressOptions } from './ingress-nginx.js';
export { ADDRESS_POOL_ANNOTATION, LOAD_BALANCER_ANNOTATION, type LoadBalancerOptions, QUOTA_MESSAGE } from './load-balancer.js';
export { CLUSTER_NAMESPACE_SELECTOR, PRIVATE_CONTROLLERS_LABEL } from './scope.js';

/** The controllers by the names `startControllers` reports and the cluster's options use. */
export type ControllerName = 'load-balancer' | 'ingress-nginx' | 'certificates';

/** Options of {@link startControllers}. */
export interface ControllersOptions {
  /** Kubeconfig (loaded, or a file path) with rights to Services, Ingresses, CRDs and Events. */
  kubeconfig: KubeConfig | string;
  /** The load-balancer controller's options, or false to run none (Services stay `<pending>`). Default: on. */
  loadBalancer?: false | LoadBalancerOptions;
  /** The Ingress controller's options, or false to run none. Default: on, class `nginx`. */
  ingress?: false | IngressOptions;
  /** Run the certificate controller (and install its CRDs). Default true. */
  certificates?: boolean;
  /**
   * The namespaces served, as a Namespace label selector. Default {@link CLUSTER_NAMESPACE_SELECTOR}
   * (every namespace not handed to a test's own controllers).
   */
  namespaceSelector?: string;
  /** Diagnostic lines (default: nowhere). */
  log?: (line: string) => void;
}

/** Running controllers. */
export interface Controllers {
  /** Which ones run. */
  names: ControllerName[];
  /** Stops every watch, queue and timer. Idempotent; startControllers again to restart. */
  stop(): Promise<void>;
}

interface Running {
  start(): Promise<void>;
  stop(): void;
  resync(namespace: string): void;
}

/** Starts the chosen controllers and resolves once each has listed what it watches. */
export async function startControllers(opts: ControllersOptions): Promise<Controllers> {
  const kc = typeof opts.kubeconfig === 'string' ? loadFile(opts.kubeconfig) : opts.kubeconfig;
  const log = opts.log ?? (() => undefined);
  const core = kc.makeApiClient(CoreV1Api);
  const running: [ControllerName, Running][] = [];
  const scope = new NamespaceScope(
    kc,
    core,
    opts.namespaceSelector ?? CLUSTER_NAMESPACE_SELECTOR,
    (ns) => {
      for (const [, c] of running) c.resync(ns);
    },
    log,
  );
  if (opts.loadBalancer !== false)
    running.push(['load-balancer', new LoadBalancerController(kc, core, scope, opts.loadBalancer ?? {}, log)]);
  if (opts.ingress !== false) {
    const networking = kc.makeApiClient(NetworkingV1Api);
    running.push(['ingress-nginx', new IngressController(kc, core, networking, scope, opts.ingress ?? {}, log)]);
  }
  if (opts.certificates !== false) {
    const custom = kc.makeApiClient(CustomObjectsApi);
    running.push(['certificates', new CertificateController(kc, core, custom, kc.makeApiClient(ApiextensionsV1Api), scope, log)]);
  }
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    scope.stop();
    for (const [, c] of running) c.stop();
  };
  try {
    await scope.start();
    for (const [, c] of running) await c.start();
  } catch (err) {
    await stop();
    throw err;
  }
  return { names: running.map(([n]) => n), stop };
}

function loadFile(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}
