/**
 * Kubeconfig files as users have them (YAML, kubectl's keys) for the connection-path tests, a
 * credential plugin like the ones EKS, GKE and AKS kubeconfigs run, and ServiceAccount token
 * Secrets to give it (deleting one revokes its token: the next request with it gets a 401).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import type { KubeConfig } from '@kubernetes/client-node';
import { clients, waitUntil } from './cluster.js';

/** A folder for this test's files, removed after it. */
export function testDir(t: TestContext): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rt-kubeconfig-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The cluster entry's and user entry's YAML keys (kubectl's spellings), values as written. */
export interface KubeconfigShape {
  cluster: Record<string, string | boolean>;
  /** The user's keys; undefined: the context names no user (kubectl proxy's kubeconfig). */
  user?: Record<string, unknown>;
  namespace?: string;
}

/** Writes a one-context kubeconfig (`cluster`, `user`, context `test`) to `dir/name` and returns its path. */
export function writeKubeconfig(dir: string, shape: KubeconfigShape, name = 'kubeconfig'): string {
  const file = path.join(dir, name);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster: shape.cluster }],
    users: shape.user ? [{ name: 'tester', user: shape.user }] : [],
    contexts: [
      {
        name: 'test',
        context: { cluster: 'test', ...(shape.user ? { user: 'tester' } : {}), ...(shape.namespace ? { namespace: shape.namespace } : {}) },
      },
    ],
    'current-context': 'test',
  };
  // JSON is YAML; kubectl reads it too.
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return file;
}

/** The `cluster` keys of the test cluster (its server and CA) with `over` applied. */
export function testCluster(base: KubeConfig, over: Record<string, string | boolean> = {}): Record<string, string | boolean> {
  const c = base.getCurrentCluster()!;
  const ca = c.caData ?? (c.caFile ? readFileSync(c.caFile).toString('base64') : undefined);
  return { server: c.server, ...(ca ? { 'certificate-authority-data': ca } : {}), ...over };
}

/** A credential plugin script: prints an ExecCredential with the token in `tokenFile`, counting its runs. */
export interface CredentialPlugin {
  /** The script's path (its `exec.command`). */
  command: string;
  /** The file whose content is the token the plugin hands out. */
  tokenFile: string;
  /** How many times the plugin ran. */
  runs(): number;
  /** The `users[].user.exec` entry that runs it. */
  exec: Record<string, unknown>;
}

/** Writes a credential plugin to `dir`; `expiresInSeconds` sets the credential's expirationTimestamp. */
export function credentialPlugin(dir: string, token: string, expiresInSeconds = 3600): CredentialPlugin {
  const command = path.join(dir, 'credential-plugin.sh');
  const tokenFile = path.join(dir, 'plugin-token');
  const runsFile = path.join(dir, 'plugin-runs');
  writeFileSync(tokenFile, token, { mode: 0o600 });
  writeFileSync(
    command,
    [
      '#!/bin/sh',
      // kubectl's contract: the request comes in KUBERNETES_EXEC_INFO.
      'case "$KUBERNETES_EXEC_INFO" in *ExecCredential*) ;; *) echo "no KUBERNETES_EXEC_INFO" >&2; exit 2;; esac',
      `echo run >> '${runsFile}'`,
      // A login that expired: the token file is gone.
      `[ -f '${tokenFile}' ] || { echo 'error: the SSO session has expired; run the login command' >&2; exit 1; }`,
      `expires=$(date -u -d "+${expiresInSeconds} seconds" +%Y-%m-%dT%H:%M:%SZ)`,
      `printf '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}\\n' "$(cat '${tokenFile}')" "$expires"`,
      '',
    ].join('\n'),
  );
  chmodSync(command, 0o755);
  const runs = () => (existsSync(runsFile) ? readFileSync(runsFile, 'utf8').split('\n').filter(Boolean).length : 0);
  return { command, tokenFile, runs, exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command, interactiveMode: 'Never' } };
}

/**
 * Creates a token Secret for ServiceAccount `sa` in `ns` and waits for the token controller to fill
 * it; deleting the Secret revokes the token.
 */
export async function serviceAccountToken(ns: string, sa: string, secret: string): Promise<string> {
  const { core } = clients();
  await core.createNamespacedSecret({
    namespace: ns,
    body: {
      metadata: { name: secret, annotations: { 'kubernetes.io/service-account.name': sa } },
      type: 'kubernetes.io/service-account-token',
    },
  });
  return waitUntil(
    async () => {
      const s = await core.readNamespacedSecret({ name: secret, namespace: ns });
      return s.data?.token ? Buffer.from(s.data.token, 'base64').toString('utf8') : undefined;
    },
    { what: `token of Secret ${ns}/${secret}`, timeoutMs: 30_000 },
  );
}

/**
 * Waits until the apiserver refuses `token` (401) on a list of pods in `ns`: it caches a token's
 * authentication for up to 10 s, so a deleted token Secret is not refused at once.
 */
export async function waitTokenRefused(token: string, ns: string, base: KubeConfig): Promise<void> {
  const cluster = base.getCurrentCluster()!;
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64') : cluster.caFile ? readFileSync(cluster.caFile) : undefined;
  const status = () =>
    new Promise<number>((resolve, reject) => {
      const headers = { Authorization: `Bearer ${token}` };
      https
        .get(`${cluster.server}/api/v1/namespaces/${ns}/pods?limit=1`, { ca, headers }, (r) => resolve(r.resume().statusCode ?? 0))
        .on('error', reject);
    });
  await waitUntil(async () => (await status()) === 401, { what: 'the revoked token refused with 401', timeoutMs: 30_000, intervalMs: 500 });
}
