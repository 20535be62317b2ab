import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ensureBinaries } from './binaries.js';
import { type ComponentFaults, componentFaults, type HealthProbes } from './component-faults.js';
import {
  apiserverSpec,
  type ClusterLayout,
  type ControllerChoice,
  certDir,
  controllerManagerSpec,
  controllersSpec,
  etcdSpec,
  etcdUrl,
  kubeconfigFile,
  kubeletSpec,
  schedulerSpec,
  serverUrl,
} from './component-specs.js';
import { defaultTokenExists, httpOk, waitFor } from './probes.js';
import {
  type Component,
  type ComponentSpec,
  freePort,
  isAlive,
  killGroup,
  killGroupNow,
  logSince,
  logTail,
  startComponent,
} from './processes.js';
import { kubeconfigYaml, writeSecrets } from './secrets.js';
import { type DelayingLink, paceProcess, type SlowControlPlane, startDelayingLink } from './slow-link.js';

/** Options for {@link startLocalCluster}. */
export interface LocalClusterOptions {
  /** Working directory (etcd data, certs, logs, kubeconfig). Default: a new temp dir, removed on stop. */
  dir?: string;
  /** Start the simulated kubelet (default true). */
  kubelet?: boolean;
  /**
   * The simulated load-balancer, Ingress and certificate controllers (local-cluster/controllers.md):
   * false for none, or which to leave out (`{ loadBalancer: false }`). Default: all three.
   */
  controllers?: false | ControllerChoice;
  /** Number of simulated Nodes (default 2). */
  nodes?: number;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  /**
   * Keep the processes running when this process exits (for `npm run cluster:up`).
   * Default false: they are killed when this process exits, and on SIGINT/SIGTERM (which then
   * exit this process with 130/143).
   */
  detach?: boolean;
  /**
   * Slow the control plane (`npm run stress -- --slow`): every client, the controllers and the
   * kubelet included, reaches the apiserver through a delaying forwarder, and etcd is paused for a
   * slice of every period. Default: not slowed.
   */
  slow?: SlowControlPlane;
}

/**
 * A running embedded control plane. Its fault switches (`kill`, `freeze`, `thaw`, `restart`,
 * `waitHealthy`) act on one component; use them on a cluster of the test's own.
 */
export interface LocalCluster extends ComponentFaults {
  /** Path of an admin kubeconfig for this cluster. */
  kubeconfigPath: string;
  /** The same kubeconfig, loaded. */
  kubeConfig: KubeConfig;
  /** The apiserver URL, e.g. https://127.0.0.1:34567 (the delaying forwarder's, when slowed). */
  server: string;
  /** Working directory holding logs and state. */
  dir: string;
  /** Process ids of every component, for `cluster:down` (kept current across restarts). */
  pids: Record<string, number>;
  /** Stops every process (SIGTERM, then SIGKILL) and removes a temp dir. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler (all real, Kubernetes
 * 1.20.2), the simulated kubelet and the simulated cluster controllers on free loopback ports, and resolves once the cluster can run
 * pods. Builds the binaries first if they are not cached. On any failure every started process is
 * stopped and the error names the step and shows its log tail.
 */
export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const log = options.log ?? ((l: string) => process.stderr.write(l + '\n'));
  await ensureBinaries(log);
  const ownsDir = !options.dir;
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'rollout-trace-'));
  mkdirSync(dir, { recursive: true });
  const components: Component[] = [];
  let stopped = false;
  let link: DelayingLink | undefined;
  let unpace = () => {};

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    unpace();
    await link?.close();
    process.off('exit', killAllNow);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const c of [...components].reverse()) if (c.child.pid) await killGroup(c.child.pid);
    if (ownsDir) rmSync(dir, { recursive: true, force: true });
  };
  const killAllNow = () => {
    for (const c of components) if (c.child.pid) killGroupNow(c.child.pid);
  };
  // Children run in their own process groups, so a Ctrl-C does not reach them: kill them here.
  const onSignal = (sig: NodeJS.Signals) => {
    killAllNow();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  if (!options.detach) {
    process.on('exit', killAllNow);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  const started = (spec: ComponentSpec) => {
    const c = startComponent(spec);
    components.push(c);
    if (options.detach) c.child.unref();
    return c;
  };
  const fail = async (step: string, c?: Component, detail?: string): Promise<never> => {
    const tail = c ? `\n--- last lines of ${c.logFile} ---\n${logTail(c.logFile)}` : '';
    await stop();
    throw new Error(`local cluster: ${step} failed${detail ? `: ${detail}` : ''}${tail}`);
  };

  try {
    const t0 = Date.now();
    const [etcdPort, etcdPeerPort, apiPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const layout: ClusterLayout = { dir, etcdPort, etcdPeerPort, apiPort, files: writeSecrets(dir) };
    const server = serverUrl(layout);
    const { token } = layout.files;
    const probes: HealthProbes = {
      etcd: () => httpOk(`${etcdUrl(layout)}/health`),
      'kube-apiserver': () => httpOk(`${server}/readyz`, token),
      kubelet: (c) => Promise.resolve(logSince(c.logFile, c.logOffset).includes('kubelet ready:')),
      controllers: (c) => Promise.resolve(logSince(c.logFile, c.logOffset).includes('controllers ready:')),
    };

    log(`[cluster] starting etcd on 127.0.0.1:${etcdPort}`);
    const etcd = started(etcdSpec(layout));
    await waitFor('etcd', etcd, () => probes.etcd!(etcd), 20_000).catch((e) => fail('etcd start', etcd, e.message));

    log(`[cluster] starting kube-apiserver on 127.0.0.1:${apiPort}`);
    const apiserver = started(apiserverSpec(layout));
    await waitFor('kube-apiserver', apiserver, () => probes['kube-apiserver']!(apiserver), 60_000).catch((e) =>
      fail('kube-apiserver start', apiserver, e.message),
    );
    const kubeconfigPath = kubeconfigFile(layout);
    const ca = readFileSync(path.join(certDir(layout), 'apiserver.crt'));
    if (options.slow) {
      link = await startDelayingLink({ host: '127.0.0.1', port: apiPort }, options.slow);
      unpace = paceProcess(() => components.find((c) => c.name === 'etcd')?.child.pid, options.slow.etcdPauseMs, options.slow.etcdPeriodMs);
      log(`[cluster] slowed: clients reach the apiserver through 127.0.0.1:${link.port}; ${JSON.stringify(options.slow)}`);
    }
    const clientUrl = link ? `https://127.0.0.1:${link.port}` : server;
    writeFileSync(kubeconfigPath, kubeconfigYaml(clientUrl, ca, token), { mode: 0o600 });

    log('[cluster] starting kube-controller-manager and kube-scheduler');
    const cm = started(controllerManagerSpec(layout));
    const scheduler = started(schedulerSpec(layout));
    // The kubelet needs only the apiserver, so it starts while the controller-manager warms up.
    const kubelet = options.kubelet === false ? undefined : started(kubeletSpec(layout, options.nodes ?? 2));
    if (kubelet) log(`[cluster] starting the simulated kubelet (${options.nodes ?? 2} nodes)`);
    const controllers = options.controllers === false ? undefined : started(controllersSpec(layout, options.controllers ?? {}));
    if (controllers) log('[cluster] starting the simulated load-balancer, Ingress and certificate controllers');
    // The token controller is the last thing a rollout needs from the controller-manager.
    await waitFor('kube-controller-manager', cm, () => defaultTokenExists(server, token), 60_000).catch((e) =>
      fail('kube-controller-manager start', cm, e.message),
    );
    if (!isAlive(scheduler.child.pid!)) await fail('kube-scheduler start', scheduler, 'exited');
    if (kubelet) {
      await waitFor('simulated kubelet', kubelet, () => probes.kubelet!(kubelet), 60_000).catch((e) =>
        fail('simulated kubelet start', kubelet, e.message),
      );
    }
    if (controllers) {
      await waitFor('simulated controllers', controllers, () => probes.controllers!(controllers), 60_000).catch((e) =>
        fail('simulated controllers start', controllers, e.message),
      );
    }

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    const pids = Object.fromEntries(components.map((c) => [c.name, c.child.pid!]));
    log(`[cluster] ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (${dir})`);
    return { kubeconfigPath, kubeConfig, server: clientUrl, dir, pids, stop, ...componentFaults(components, probes, pids) };
  } catch (err) {
    await stop();
    throw err;
  }
}
