/**
 * Loads a kubeconfig from the same places kubectl and the Pulumi Kubernetes provider look.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
// js-yaml itself, as KubeConfig reads YAML: client-node's loadYaml would bring its generated API (ObjectSerializer).
import { load as loadYaml } from 'js-yaml';
import { RolloutTraceError } from '../errors.js';
import { settleConnections } from './connection.js';
import { adoptCredentials } from './credentials.js';

/** Where to get cluster credentials from. */
export interface KubeConfigSource {
  /**
   * A loaded {@link KubeConfig}, the text of a kubeconfig (YAML or JSON), or a path to one —
   * like the Pulumi provider's `kubeconfig` argument. Default: `$KUBECONFIG` (a
   * `path.delimiter`-separated list, merged like kubectl) or `~/.kube/config`, else the in-cluster
   * service account.
   */
  kubeconfig?: string | KubeConfig;
  /** Context to use instead of the kubeconfig's `current-context`. */
  context?: string;
}

/**
 * Loads and validates a kubeconfig and selects its context.
 *
 * Users' `exec` plugins and `tokenFile`s are served by rollout-trace (credentials.ts), and each
 * cluster's plain-HTTP server or proxy is settled as kubectl would (connection.ts).
 *
 * @throws RolloutTraceError `kubeconfig` for a missing file, unparsable content, no current
 *   context, an unknown context, cluster or user (the message lists the defined ones), or a plain
 *   HTTP server on another machine that would get credentials.
 */
export function loadKubeConfig(source: KubeConfigSource = {}): KubeConfig {
  const { kc, origin } = loadRaw(source.kubeconfig);
  if (source.context !== undefined) {
    if (!kc.getContextObject(source.context)) {
      throw new RolloutTraceError('kubeconfig', `Context "${source.context}" is not defined in ${origin}. ${describeContexts(kc)}`);
    }
    kc.setCurrentContext(source.context);
  }
  const current = kc.getCurrentContext();
  if (!current || !kc.getContextObject(current)) {
    throw new RolloutTraceError(
      'kubeconfig',
      current
        ? `The current-context "${current}" of ${origin} is not one of its contexts. Pass \`context\`. ${describeContexts(kc)}`
        : `${capitalize(origin)} has no current-context. Pass \`context\` to choose one. ${describeContexts(kc)}`,
    );
  }
  const ctx = kc.getContextObject(current)!;
  if (!kc.getCluster(ctx.cluster)) {
    throw new RolloutTraceError(
      'kubeconfig',
      `Context "${current}" in ${origin} refers to cluster "${ctx.cluster}", which is not defined there; ` +
        `defined clusters: ${
          kc
            .getClusters()
            .map((c) => `"${c.name}"`)
            .join(', ') || 'none'
        }.`,
    );
  }
  if (ctx.user && !kc.getUser(ctx.user)) {
    throw new RolloutTraceError(
      'kubeconfig',
      `Context "${current}" in ${origin} refers to user "${ctx.user}", which is not defined there; ` +
        `defined users: ${names(kc.getUsers()) || 'none'}. Correct the context's user or add that user (kubectl config set-credentials).`,
    );
  }
  // The users of a merged or copied kubeconfig were adopted already: this registers the source with `kc`.
  adoptCredentials(kc);
  settleConnections(kc);
  return kc;
}

function names(entries: ReadonlyArray<{ name: string }>): string {
  return entries.map((e) => `"${e.name}"`).join(', ');
}

/** The namespace of the kubeconfig's current context, or `default` (like kubectl). */
export function contextNamespace(kc: KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}

/** `server (context "name")`, for messages. */
export function describeTarget(kc: KubeConfig): string {
  return `${kc.getCurrentCluster()?.server ?? '(no server)'} (context "${kc.getCurrentContext()}")`;
}

function loadRaw(input: string | KubeConfig | undefined): { kc: KubeConfig; origin: string } {
  // A copy: selecting `context` must not change the caller's object.
  if (input instanceof KubeConfig) return { kc: copyKubeConfig(input), origin: 'the given KubeConfig' };
  if (input !== undefined && typeof input !== 'string') {
    throw new RolloutTraceError(
      'kubeconfig',
      `kubeconfig must be a KubeConfig, a kubeconfig file's text or a path to one; got ${typeof input}.`,
    );
  }
  if (typeof input === 'string') {
    if (input.trim() === '') {
      throw new RolloutTraceError(
        'kubeconfig',
        'kubeconfig is an empty string; pass kubeconfig text, a path, or leave it unset to use $KUBECONFIG or ~/.kube/config.',
      );
    }
    if (looksLikeContent(input)) return { kc: parseContent(input, 'the kubeconfig text'), origin: 'the kubeconfig text' };
    return { kc: loadFile(expandHome(input), `kubeconfig path "${input}"`), origin: `kubeconfig "${input}"` };
  }
  return loadDefault();
}

/** Pulumi's provider accepts contents or a path; contents always span lines or are JSON. */
function looksLikeContent(s: string): boolean {
  const t = s.trim();
  return t.includes('\n') || t.startsWith('{') || /^\s*(apiVersion|kind|clusters|contexts|users|current-context)\s*:/m.test(t);
}

function parseContent(text: string, what: string, baseDir?: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromString(text, { onInvalidEntry: 'throw' });
  } catch (err) {
    throw new RolloutTraceError(
      'kubeconfig',
      `Could not parse ${what} as a kubeconfig (YAML or JSON with clusters, users and contexts): ${errorHeadline(err)}.`,
      { cause: err },
    );
  }
  if (kc.getContexts().length === 0 && kc.getClusters().length === 0) {
    throw new RolloutTraceError('kubeconfig', `${capitalize(what)} defines no clusters and no contexts; it is not a usable kubeconfig.`);
  }
  if (baseDir) makePathsAbsolute(kc, baseDir);
  adoptCredentials(kc, tokenFiles(text), baseDir);
  return kc;
}

/**
 * kubectl's `tokenFile` of each user (client-node reads only a `token-file` key, once): by user
 * name, from the kubeconfig's text.
 */
function tokenFiles(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let raw: { users?: Array<{ name?: unknown; user?: { tokenFile?: unknown } }> } | undefined;
  try {
    raw = loadYaml(text) as typeof raw;
  } catch {
    return out;
  }
  for (const u of Array.isArray(raw?.users) ? raw.users : []) {
    if (typeof u?.name === 'string' && typeof u.user?.tokenFile === 'string' && u.user.tokenFile !== '') out.set(u.name, u.user.tokenFile);
  }
  return out;
}

function loadFile(path: string, what: string): KubeConfig {
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new Error('it is a directory');
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new RolloutTraceError(
      'kubeconfig',
      `Cannot read ${what} (${resolve(path)}): ${errorHeadline(err)}. Pass the path of an existing kubeconfig file, its YAML/JSON text, or leave kubeconfig unset to use $KUBECONFIG or ~/.kube/config.`,
      { cause: err },
    );
  }
  return parseContent(text, what.replace(/^kubeconfig path/, 'kubeconfig file'), dirname(resolve(path)));
}

/** kubectl's rules: `$KUBECONFIG` files merged, first file wins per name and for current-context. */
function loadDefault(): { kc: KubeConfig; origin: string } {
  const env = process.env.KUBECONFIG;
  if (env) {
    const files = env.split(delimiter).filter((f) => f !== '');
    const present = files.filter((f) => existsSync(f));
    if (present.length === 0) {
      throw new RolloutTraceError(
        'kubeconfig',
        `None of the files in $KUBECONFIG exist (${files.map((f) => `"${f}"`).join(', ')}). Point $KUBECONFIG at a kubeconfig file or pass kubeconfig explicitly.`,
      );
    }
    const merged = mergeFirstWins(present.map((f) => loadFile(f, `kubeconfig path "${f}" (from $KUBECONFIG)`)));
    return { kc: merged, origin: present.length === 1 ? `kubeconfig "${present[0]}"` : `$KUBECONFIG (${present.join(delimiter)})` };
  }
  const home = join(homedir(), '.kube', 'config');
  if (existsSync(home)) return { kc: loadFile(home, `kubeconfig path "${home}"`), origin: `kubeconfig "${home}"` };
  if (process.env.KUBERNETES_SERVICE_HOST) {
    const kc = new KubeConfig();
    try {
      kc.loadFromCluster();
      return { kc, origin: 'the in-cluster service account' };
    } catch {
      // fall through to the error below
    }
  }
  throw new RolloutTraceError(
    'kubeconfig',
    `No kubeconfig found: $KUBECONFIG is not set and ${home} does not exist. Pass kubeconfig (a path or the file's text) or set $KUBECONFIG.`,
  );
}

/** A new KubeConfig with the same clusters, users, contexts and current context. */
function copyKubeConfig(kc: KubeConfig): KubeConfig {
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.getClusters(),
    users: kc.getUsers(),
    contexts: kc.getContexts(),
    currentContext: kc.getCurrentContext(),
  });
  return out;
}

function mergeFirstWins(configs: KubeConfig[]): KubeConfig {
  const out = new KubeConfig();
  const clusters = new Map<string, ReturnType<KubeConfig['getClusters']>[number]>();
  const users = new Map<string, ReturnType<KubeConfig['getUsers']>[number]>();
  const contexts = new Map<string, ReturnType<KubeConfig['getContexts']>[number]>();
  let current = '';
  for (const kc of configs) {
    for (const c of kc.getClusters()) if (!clusters.has(c.name)) clusters.set(c.name, c);
    for (const u of kc.getUsers()) if (!users.has(u.name)) users.set(u.name, u);
    for (const c of kc.getContexts()) if (!contexts.has(c.name)) contexts.set(c.name, c);
    if (!current && kc.getCurrentContext()) current = kc.getCurrentContext();
  }
  out.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext: current,
  });
  return out;
}

function makePathsAbsolute(kc: KubeConfig, baseDir: string): void {
  const abs = (p: string | undefined) => (p && !isAbsolute(p) ? join(baseDir, p) : p);
  for (const c of kc.getClusters()) (c as { caFile?: string }).caFile = abs(c.caFile);
  for (const u of kc.getUsers()) {
    const mu = u as { certFile?: string; keyFile?: string };
    mu.certFile = abs(u.certFile);
    mu.keyFile = abs(u.keyFile);
  }
}

function describeContexts(kc: KubeConfig): string {
  const names = kc.getContexts().map((c) => `"${c.name}"`);
  return names.length ? `Available contexts: ${names.join(', ')}.` : 'It defines no contexts.';
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** The first line of an error's message, without its final period (to quote it inside a sentence). */
function errorHeadline(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]
    .replace(/\.$/, '');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
