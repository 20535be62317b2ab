import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { binaryPath, ensureBinaries } from './binaries.js';
import { repoRoot } from './paths.js';
import { type Component, freePort, isAlive, killGroup, killGroupNow, logTail, sleep, startComponent } from './processes.js';

/** Options for {@link startLocalCluster}. */
export interface LocalClusterOptions {
  /** Working directory (etcd data, certs, logs, kubeconfig). Default: a new temp dir, removed on stop. */
  dir?: string;
  /** Start the simulated kubelet (default true). */
  kubelet?: boolean;
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
}

/** A running embedded control plane. */
export interface LocalCluster {
  /** Path of an admin kubeconfig for this cluster. */
  kubeconfigPath: string;
  /** The same kubeconfig, loaded. */
  kubeConfig: KubeConfig;
  /** The apiserver URL, e.g. https://127.0.0.1:34567. */
  server: string;
  /** Working directory holding logs and state. */
  dir: string;
  /** Process ids of every component, for `cluster:down`. */
  pids: Record<string, number>;
  /** Stops every process (SIGTERM, then SIGKILL) and removes a temp dir. Idempotent. */
  stop(): Promise<void>;
}

const SERVICE_CIDR = '10.0.0.0/24';

/**
 * Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler (all real, Kubernetes
 * 1.20.2) and the simulated kubelet on free loopback ports, and resolves once the cluster can run
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

  const stop = async () => {
    if (stopped) return;
    stopped = true;
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

  const started = (c: Component) => {
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
    const files = writeSecrets(dir);

    log(`[cluster] starting etcd on 127.0.0.1:${etcdPort}`);
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const peerUrl = `http://127.0.0.1:${etcdPeerPort}`;
    const etcd = started(
      startComponent(
        'etcd',
        binaryPath('etcd'),
        [
          '--name=rollout-trace',
          `--data-dir=${path.join(dir, 'etcd')}`,
          `--listen-client-urls=${etcdUrl}`,
          `--advertise-client-urls=${etcdUrl}`,
          `--listen-peer-urls=${peerUrl}`,
          `--initial-advertise-peer-urls=${peerUrl}`,
          `--initial-cluster=rollout-trace=${peerUrl}`,
          '--log-level=warn',
        ],
        path.join(dir, 'etcd.log'),
      ),
    );
    await waitFor('etcd', etcd, () => httpOk(`${etcdUrl}/health`), 20_000).catch((e) => fail('etcd start', etcd, e.message));

    log(`[cluster] starting kube-apiserver on 127.0.0.1:${apiPort}`);
    const certDir = path.join(dir, 'certs');
    const apiserver = started(
      startComponent(
        'kube-apiserver',
        binaryPath('kube-apiserver'),
        [
          `--etcd-servers=${etcdUrl}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--secure-port=${apiPort}`,
          '--insecure-port=0',
          `--cert-dir=${certDir}`,
          `--token-auth-file=${files.tokenFile}`,
          '--authorization-mode=RBAC',
          `--service-account-key-file=${files.saPublic}`,
          `--service-account-signing-key-file=${files.saPrivate}`,
          '--service-account-issuer=https://kubernetes.default.svc',
          `--service-cluster-ip-range=${SERVICE_CIDR}`,
          '--endpoint-reconciler-type=none',
          '--enable-admission-plugins=NamespaceLifecycle,ServiceAccount,ResourceQuota,LimitRanger',
          '--kubelet-preferred-address-types=InternalIP',
          '--allow-privileged=true',
          '--v=1',
        ],
        path.join(dir, 'kube-apiserver.log'),
      ),
    );
    const server = `https://127.0.0.1:${apiPort}`;
    await waitFor('kube-apiserver', apiserver, () => httpOk(`${server}/readyz`, files.token), 60_000).catch((e) =>
      fail('kube-apiserver start', apiserver, e.message),
    );

    const kubeconfigPath = path.join(dir, 'kubeconfig');
    const ca = readFileSync(path.join(certDir, 'apiserver.crt'));
    writeFileSync(kubeconfigPath, kubeconfigYaml(server, ca, files.token), { mode: 0o600 });

    log('[cluster] starting kube-controller-manager and kube-scheduler');
    const cm = started(
      startComponent(
        'kube-controller-manager',
        binaryPath('kube-controller-manager'),
        [
          `--kubeconfig=${kubeconfigPath}`,
          '--leader-elect=false',
          '--secure-port=0',
          '--port=0',
          `--service-account-private-key-file=${files.saPrivate}`,
          `--root-ca-file=${path.join(certDir, 'apiserver.crt')}`,
          `--service-cluster-ip-range=${SERVICE_CIDR}`,
          '--use-service-account-credentials=false',
          '--v=1',
        ],
        path.join(dir, 'kube-controller-manager.log'),
      ),
    );
    const scheduler = started(
      startComponent(
        'kube-scheduler',
        binaryPath('kube-scheduler'),
        [`--kubeconfig=${kubeconfigPath}`, '--leader-elect=false', '--secure-port=0', '--port=0', '--v=1'],
        path.join(dir, 'kube-scheduler.log'),
      ),
    );
    // The kubelet needs only the apiserver, so it starts while the controller-manager warms up.
    const kubelet =
      options.kubelet === false
        ? undefined
        : started(
            startComponent(
              'kubelet',
              process.execPath,
              [
                '--import',
                'tsx',
                path.join(repoRoot, 'local-cluster/kubelet/main.ts'),
                '--kubeconfig',
                kubeconfigPath,
                '--nodes',
                String(options.nodes ?? 2),
              ],
              path.join(dir, 'kubelet.log'),
              repoRoot,
            ),
          );
    if (kubelet) log(`[cluster] starting the simulated kubelet (${options.nodes ?? 2} nodes)`);
    // The token controller is the last thing a rollout needs from the controller-manager.
    await waitFor('kube-controller-manager', cm, () => defaultTokenExists(server, files.token), 60_000).catch((e) =>
      fail('kube-controller-manager start', cm, e.message),
    );
    if (!isAlive(scheduler.child.pid!)) await fail('kube-scheduler start', scheduler, 'exited');
    if (kubelet) {
      await waitFor(
        'simulated kubelet',
        kubelet,
        () => Promise.resolve(logTail(kubelet.logFile, 200).includes('kubelet ready:')),
        60_000,
      ).catch((e) => fail('simulated kubelet start', kubelet, e.message));
    }

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    const pids = Object.fromEntries(components.map((c) => [c.name, c.child.pid!]));
    log(`[cluster] ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (${dir})`);
    return { kubeconfigPath, kubeConfig, server, dir, pids, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

interface SecretFiles {
  token: string;
  tokenFile: string;
  saPrivate: string;
  saPublic: string;
}

function writeSecrets(dir: string): SecretFiles {
  const token = randomBytes(24).toString('hex');
  const tokenFile = path.join(dir, 'tokens.csv');
  writeFileSync(tokenFile, `${token},admin,admin,"system:masters"\n`, { mode: 0o600 });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saPrivate = path.join(dir, 'sa.key');
  const saPublic = path.join(dir, 'sa.pub');
  writeFileSync(saPrivate, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(saPublic, publicKey.export({ type: 'spki', format: 'pem' }));
  return { token, tokenFile, saPrivate, saPublic };
}

function kubeconfigYaml(server: string, ca: Buffer, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: rollout-trace-local',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca.toString('base64')}`,
    'users:',
    '- name: admin',
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: rollout-trace-local',
    '  context:',
    '    cluster: rollout-trace-local',
    '    user: admin',
    '    namespace: default',
    'current-context: rollout-trace-local',
    '',
  ].join('\n');
}

async function waitFor(name: string, c: Component, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (c.child.exitCode !== null || c.child.signalCode !== null)
      throw new Error(`${name} exited with ${c.child.exitCode ?? c.child.signalCode}`);
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${name} not ready after ${timeoutMs / 1000}s`);
}

function httpGet(url: string, token?: string): Promise<{ status: number; body: string }> {
  const lib = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.get(
      url,
      { headers: token ? { Authorization: `Bearer ${token}` } : {}, rejectUnauthorized: false, timeout: 2000 },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

async function httpOk(url: string, token?: string): Promise<boolean> {
  return (await httpGet(url, token)).status === 200;
}

async function defaultTokenExists(server: string, token: string): Promise<boolean> {
  const res = await httpGet(`${server}/api/v1/namespaces/default/serviceaccounts/default`, token);
  if (res.status !== 200) return false;
  return (JSON.parse(res.body).secrets ?? []).length > 0;
}
