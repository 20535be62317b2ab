/**
 * The credentials rollout-trace obtains itself rather than through client-node: a user's `exec`
 * plugin and its `tokenFile`. client-node 2.x caches an exec credential until its
 * expirationTimestamp (for ever without one) and never runs the plugin again after a 401; it reads
 * `token-file` (not kubectl's `tokenFile`) once at load; a missing or failing plugin is an Error
 * without a code. Here, as in kubectl (client-go): a credential is kept until it expires or the
 * apiserver answers 401 to it, then the plugin runs again (or the file is read again); a token
 * file is read again at most every minute; a plugin that cannot give one is a RolloutTraceError.
 *
 * client-node asks its own authenticators first, so {@link adoptCredentials} moves `exec` and
 * `tokenFile` into an auth-provider entry only {@link credentialSource} answers to. Credentials
 * are only ever put in request headers and TLS options: never printed, never recorded.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { KubeConfig, User } from '@kubernetes/client-node';
import type { Authenticator } from '@kubernetes/client-node/dist/auth.js';
import { RolloutTraceError } from '../errors.js';
import { type ExecConfig, type ExecCredential, runExecPlugin } from './exec-plugin.js';

/** The auth-provider name of the users whose credentials this module obtains. */
const PROVIDER = 'rollout-trace';
/** A token file is read again after this long (ms), as client-go's cached file token source. */
const TOKEN_FILE_MS = 60_000;
/** A credential that expires within this long (ms) is obtained again before a request. */
const EXPIRY_MARGIN_MS = 10_000;

/** What {@link adoptCredentials} keeps in a user's auth-provider config (keys client-node's authenticators ignore). */
interface ProviderConfig {
  plugin?: ExecConfig;
  tokenPath?: string;
}

interface Entry {
  credential: Promise<ExecCredential>;
  /** When it was obtained (ms). */
  at: number;
}

/** Obtained credentials by user name and settings (a plugin or file shared by kubeconfigs is run or read once). */
const cache = new Map<string, Entry>();
/** The credential each request's options were given, for {@link credentialRejected}. */
const usedBy = new WeakMap<object, Entry>();

/**
 * Moves the `exec` plugin and `tokenFile` of `kc`'s users (`tokenFiles`: by user name, from the
 * kubeconfig's own text) to rollout-trace's credential source, and registers it with `kc`.
 * Relative paths (a token file, a plugin command with a `/`) are taken from `baseDir`, as kubectl does.
 */
export function adoptCredentials(kc: KubeConfig, tokenFiles: ReadonlyMap<string, string> = new Map(), baseDir?: string): void {
  const abs = (p: string) => (baseDir && !isAbsolute(p) ? join(baseDir, p) : p);
  kc.users = kc.users.map((u) => {
    const tokenPath = tokenFiles.get(u.name);
    const exec = u.exec as ExecConfig | undefined | null;
    if (!exec && !(tokenPath && !u.token)) return u;
    const config: ProviderConfig = {};
    if (exec) config.plugin = { ...exec, ...(exec.command?.includes('/') ? { command: abs(exec.command) } : {}) };
    else if (tokenPath) config.tokenPath = abs(tokenPath);
    return { ...u, exec: undefined, authProvider: { name: PROVIDER, config } } as User;
  });
  kc.addAuthenticator(credentialSource);
}

/** True when `user` has an exec plugin or a token file: a credential that can be obtained again. */
export function hasRenewableCredential(user: User | null | undefined): boolean {
  return providerConfig(user) !== undefined;
}

/** Which kubeconfig setting holds `user`'s credential, for messages (never the credential). */
export function credentialSetting(user: User | null | undefined): string {
  const config = providerConfig(user);
  const plugin = config?.plugin ?? (user?.exec as ExecConfig | undefined);
  if (plugin) return `the exec credential plugin "${plugin.command ?? ''}" (users[].user.exec)`;
  if (config?.tokenPath) return `the token file "${config.tokenPath}" (users[].user.tokenFile)`;
  if (user?.token) return 'the token (users[].user.token)';
  if (user?.certFile || user?.certData) return 'the client certificate (users[].user.client-certificate)';
  if (user?.username) return 'the user name and password (users[].user.username)';
  if (user?.authProvider) return `the auth-provider "${user.authProvider.name ?? ''}" (users[].user.auth-provider)`;
  return 'no credential at all (the user sets none)';
}

/**
 * After the apiserver answered 401 to a request sent with `options`: forgets the credential it
 * carried (unless a newer one replaced it meanwhile), so the next request obtains one again.
 * True when that can help (the user has a plugin or a token file).
 */
export function credentialRejected(options: object): boolean {
  const used = usedBy.get(options);
  if (!used) return false;
  for (const [key, entry] of cache) if (entry === used) cache.delete(key);
  return true;
}

/** client-node's Authenticator for the users {@link adoptCredentials} adopted. */
const credentialSource: Authenticator = {
  isAuthProvider(user: User): boolean {
    return providerConfig(user) !== undefined;
  },
  async applyAuthentication(user: User, options: object): Promise<void> {
    const opts = options as { headers?: Record<string, unknown>; cert?: unknown; key?: unknown };
    const config = providerConfig(user)!;
    const entry = current(user, config);
    const credential = await entry.credential;
    usedBy.set(opts, entry);
    opts.headers ??= {};
    if (credential.token) opts.headers.Authorization = `Bearer ${credential.token}`;
    if (credential.cert && credential.key) {
      opts.cert = Buffer.from(credential.cert);
      opts.key = Buffer.from(credential.key);
    }
  },
};

/** The credential to use now: the cached one unless it expired (or the file is due to be read again). */
function current(user: User, config: ProviderConfig): Entry {
  const key = JSON.stringify([user.name, config]);
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && (config.plugin || now - cached.at < TOKEN_FILE_MS)) {
    const settled = settledValue.get(cached);
    if (!settled || settled.expiresAt === undefined || settled.expiresAt - EXPIRY_MARGIN_MS > now) return cached;
  }
  const credential = config.plugin ? runExecPlugin(user.name, config.plugin, undefined) : readTokenFile(user.name, config.tokenPath!);
  const entry: Entry = { credential, at: now };
  cache.set(key, entry);
  // A failure is not kept: the next request tries again (the plugin may work after a login).
  credential.then(
    (c) => settledValue.set(entry, c),
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  return entry;
}

/** The credential of each settled entry (to check its expiry without awaiting). */
const settledValue = new WeakMap<Entry, ExecCredential>();

async function readTokenFile(user: string, path: string): Promise<ExecCredential> {
  let token: string;
  try {
    token = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new RolloutTraceError(
      'kubeconfig',
      `Cannot read the token file "${path}" of user "${user}" (users[].user.tokenFile in the kubeconfig): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Point tokenFile at a readable file holding the bearer token.`,
      { cause: err },
    );
  }
  if (token === '') {
    throw new RolloutTraceError(
      'kubeconfig',
      `The token file "${path}" of user "${user}" (users[].user.tokenFile in the kubeconfig) is empty.`,
    );
  }
  return { token };
}

function providerConfig(user: User | null | undefined): ProviderConfig | undefined {
  const provider = user?.authProvider as { name?: string; config?: ProviderConfig } | undefined;
  return provider?.name === PROVIDER && provider.config ? provider.config : undefined;
}
