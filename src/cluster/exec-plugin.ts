/**
 * Runs a kubeconfig user's `exec` credential plugin (what EKS, GKE and AKS kubeconfigs use) with
 * kubectl's contract: the command with its `args`, its `env` added to ours, `KUBERNETES_EXEC_INFO`
 * holding the ExecCredential request (non-interactive), and an ExecCredential on stdout with a
 * bearer token or a client certificate and key. What the plugin prints is never logged or quoted:
 * only its exit code and the last line of its stderr are told.
 */
import { spawn } from 'node:child_process';
import { RolloutTraceError } from '../errors.js';

/** A kubeconfig `users[].user.exec` entry, as client-node parses it (the YAML's own keys). */
export interface ExecConfig {
  command?: string;
  args?: string[];
  env?: Array<{ name: string; value: string }> | null;
  apiVersion?: string;
  installHint?: string;
  provideClusterInfo?: boolean;
}

/** What a plugin gave: a token and/or a client certificate, valid until `expiresAt` (ms; undefined: until refused). */
export interface ExecCredential {
  token?: string;
  cert?: string;
  key?: string;
  expiresAt?: number;
}

/** The longest a plugin may run before the request it serves fails (ms). */
const PLUGIN_TIMEOUT_MS = 120_000;

/**
 * Runs the plugin of user `user` once.
 *
 * @throws RolloutTraceError `kubeconfig` when the command is missing, exits non-zero, runs too
 *   long or prints no usable ExecCredential: each names the user, the command and the setting.
 */
export function runExecPlugin(user: string, exec: ExecConfig, cluster: { server: string } | undefined): Promise<ExecCredential> {
  const command = exec.command ?? '';
  const where = `the credential plugin "${command}" of user "${user}" (users[].user.exec.command in the kubeconfig)`;
  if (command === '') {
    return Promise.reject(
      new RolloutTraceError('kubeconfig', `User "${user}" has an exec credential plugin without a command; set users[].user.exec.command.`),
    );
  }
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1beta1';
  const info = {
    apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(exec.provideClusterInfo && cluster ? { cluster } : {}) },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const e of exec.env ?? []) env[e.name] = e.value;
  return new Promise((resolve, reject) => {
    const child = spawn(command, exec.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: PLUGIN_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    child.on('error', (err: NodeJS.ErrnoException) => {
      const hint = exec.installHint ? ` ${oneLine(exec.installHint)}` : '';
      const why =
        err.code === 'ENOENT' ? 'was not found (not on $PATH, nor at that path)' : `could not be started (${err.code ?? err.message})`;
      reject(
        new RolloutTraceError(
          'kubeconfig',
          `${capitalize(where)} ${why}. Install it or correct the command; kubectl needs it too.${hint}`,
          { cause: err },
        ),
      );
    });
    child.on('close', (code, signal) => {
      if (code === null && signal === null) return; // 'error' said it
      if (code !== 0) {
        const last = lastLine(stderr);
        const how = signal
          ? `was stopped by ${signal}${signal === 'SIGTERM' ? ` after ${PLUGIN_TIMEOUT_MS / 1000} s` : ''}`
          : `exited with code ${code}`;
        reject(
          new RolloutTraceError(
            'kubeconfig',
            `${capitalize(where)} ${how}${last ? `; its last error line: "${last}"` : ''}. Run it by hand (or \`kubectl get ns\`) to see why: a login may have expired.`,
          ),
        );
        return;
      }
      try {
        resolve(parseCredential(stdout, apiVersion));
      } catch (err) {
        reject(new RolloutTraceError('kubeconfig', `${capitalize(where)} printed no usable ExecCredential: ${(err as Error).message}.`));
      }
    });
  });
}

/** The credential in a plugin's stdout; throws an Error saying what is wrong (never quoting the output). */
export function parseCredential(stdout: string, apiVersion: string): ExecCredential {
  let parsed: { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error('its output is not JSON');
  }
  if (parsed?.kind !== 'ExecCredential') throw new Error('its output is not an object of kind ExecCredential');
  if (parsed.apiVersion !== apiVersion)
    throw new Error(`its apiVersion is ${JSON.stringify(parsed.apiVersion)}, not "${apiVersion}" as the kubeconfig asks`);
  const s = parsed.status ?? {};
  const str = (k: string) => (typeof s[k] === 'string' && s[k] !== '' ? (s[k] as string) : undefined);
  const token = str('token');
  const cert = str('clientCertificateData');
  const key = str('clientKeyData');
  if (!token && !(cert && key)) throw new Error('its status has neither a token nor a client certificate and key');
  const expiry = str('expirationTimestamp');
  const expiresAt = expiry !== undefined ? Date.parse(expiry) : undefined;
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new Error('its status.expirationTimestamp is not an RFC 3339 time');
  return {
    ...(token ? { token } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return oneLine(lines[lines.length - 1] ?? '').slice(0, 200);
}

function oneLine(s: string): string {
  // Control characters never reach the terminal (cluster-supplied or not, a plugin's text is not ours).
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
