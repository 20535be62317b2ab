/**
 * Eager validation of {@link TrackOptions}: everything a caller can get wrong is reported before
 * anything is opened.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { contextNamespace, type KubeConfigSource, loadKubeConfig, type SourceOptions } from '../cluster/index.js';
import type { Policy, PolicyOverrides, TrackTarget, WorkloadKind } from '../core/index.js';
import { clusterTextCleaner, compileLogFilter, KIND_BY_OMISSION, kindRefusal, resolvePolicy, WORKLOAD_KINDS } from '../core/index.js';
import { RolloutTraceError } from '../errors.js';
import { durationProblem, MAX_DURATION_MS } from '../long-timer.js';
import type { TraceRecorder } from '../record/index.js';
import type { HubReplay } from './event-hub.js';
import { checkPatterns, compiled, type LogOptions, type ResolvedLogOptions, resolveLogOptions } from './log-options.js';
import type { WatchAfterVerdict } from './verdict-watch.js';

/** What to track and how. */
export interface TrackOptions {
  /** Name of the workload (DNS-1123 subdomain): a Deployment unless {@link TrackOptions.kind} says otherwise. */
  name: string;
  /** Kind of the workload: `Deployment` (default), `StatefulSet`, `DaemonSet` or `Job`. */
  kind?: WorkloadKind;
  /** Namespace (DNS-1123 label). Default: the kubeconfig context's namespace, else `default`. */
  namespace?: string;
  /** A KubeConfig, kubeconfig text, or a path. Default: `$KUBECONFIG` / `~/.kube/config`. */
  kubeconfig?: string | KubeConfig;
  /** Context to use instead of the kubeconfig's current-context. */
  context?: string;
  /** Overall deadline in seconds (Pulumi's default: 600). The verdict is then `timed-out`. */
  timeoutSeconds?: number;
  /**
   * Ends tracking with a `timed-out` verdict (`timeoutKind: 'no-progress'`) when the rollout shows
   * no progress for this many seconds: no new revision, ReplicaSet ready/available change, pod
   * state change, scale or phase. The summary names what is still pending. Default: off (only the
   * overall `timeoutSeconds` applies). Like kubedog's "no activity" timeout.
   */
  noProgressTimeoutSeconds?: number;
  /** Overrides of the default failure policy. */
  policy?: PolicyOverrides;
  /** Aborting it cancels tracking (verdict `cancelled`) and closes every watch. */
  signal?: AbortSignal;
  /** The Deployment's revision before the change being tracked (Pulumi's `lastOutputs`). */
  baselineRevision?: string;
  /** The `metadata.generation` just written; older observed objects are stale. */
  minGeneration?: number;
  /**
   * Container logs: tails attached to failing problems (default 20 lines), redaction, and the
   * opt-in live stream (`{ follow: true }`). `false` turns every log read off.
   */
  logs?: false | LogOptions;
  /**
   * Patterns (regular expressions) masked as `***` in every cluster-supplied string of every event
   * and of the verdict: termination messages, event, condition and waiting messages, log lines.
   * Built-in shapes are always masked (`password=...`, `Authorization: Bearer ...`, URL passwords);
   * `logs.redact` patterns count too. See docs/security.md.
   */
  redact?: Array<string | RegExp>;
  /** How long a missing workload is waited for before `workload-not-found`. Default 30. */
  notFoundGraceSeconds?: number;
  /**
   * Records the trace into this file (gzip-compressed JSON lines, docs/recording.md): every
   * observation the trace reduced (redacted like the events; container `env` values are never
   * written), its own events and the verdict, for `rollout-trace replay`. Traces given the same
   * path share one file.
   */
  record?: string;
}

/** Validated options with defaults applied. */
export interface ResolvedTrackOptions {
  name: string;
  kind: WorkloadKind;
  namespace: string;
  kc: KubeConfig;
  timeoutSeconds: number;
  noProgressTimeoutSeconds?: number;
  policy: Policy;
  signal?: AbortSignal;
  baselineRevision?: string;
  minGeneration?: number;
  logs: ResolvedLogOptions;
  /** Redacts, sanitises and caps one cluster-supplied string (`redact` and `logs.redact`). */
  clean: (text: string) => string;
  /** The redaction alone (no sanitising), for what a recording stores. */
  mask: (text: string) => string;
  notFoundGraceSeconds: number;
  record?: string;
}

/** The longest duration accepted, in seconds (Number.MAX_SAFE_INTEGER ms). */
const MAX_SECONDS = Math.floor(MAX_DURATION_MS / 1000);

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Loads a kubeconfig and selects its context ({@link loadKubeConfig}). */
export type KubeConfigLoader = (source: KubeConfigSource) => KubeConfig;

/**
 * A {@link loadKubeConfig} that loads each (kubeconfig, context) once and hands the same
 * KubeConfig to every caller: trackRollouts resolves one option set per Deployment, and reading
 * and parsing the same file for each of 200 Deployments was ~0.5 s of CPU. A KubeConfig given as
 * an object is keyed by identity.
 */
export function sharedKubeConfigLoader(): KubeConfigLoader {
  const loaded = new Map<KubeConfigSource['kubeconfig'], Map<string | undefined, KubeConfig>>();
  return (source) => {
    const byContext = loaded.get(source.kubeconfig) ?? new Map<string | undefined, KubeConfig>();
    loaded.set(source.kubeconfig, byContext);
    let kc = byContext.get(source.context);
    if (!kc) {
      kc = loadKubeConfig(source);
      byContext.set(source.context, kc);
    }
    return kc;
  };
}

/**
 * Validates `opts` and applies defaults; loads the kubeconfig (no network).
 *
 * @throws RolloutTraceError `bad-input` (or `kubeconfig`) naming the bad value and what is valid.
 */
export function resolveTrackOptions(opts: TrackOptions, load: KubeConfigLoader = loadKubeConfig): ResolvedTrackOptions {
  if (opts === null || typeof opts !== 'object') bad(`options must be an object like { name: "my-app" }; got ${String(opts)}.`);
  const { kind, name } = checkedWorkload(opts);
  if (opts.namespace !== undefined) checkNamespace(opts.namespace);
  const logsOnSuccess = typeof opts.logs === 'object' && opts.logs !== null ? opts.logs.onSuccess : undefined;
  const refused = kindRefusal(kind, name, { policy: opts.policy, baselineRevision: opts.baselineRevision, logsOnSuccess });
  if (refused) bad(refused);
  const { timeoutSeconds, noProgress, grace } = checkedDurations(opts);
  if (opts.minGeneration !== undefined && (!Number.isInteger(opts.minGeneration) || opts.minGeneration < 0)) {
    bad(`minGeneration must be a non-negative integer (the ${kind}'s metadata.generation); got ${String(opts.minGeneration)}.`);
  }
  if (opts.baselineRevision !== undefined && (typeof opts.baselineRevision !== 'string' || !/^\d+$/.test(opts.baselineRevision))) {
    bad(
      `baselineRevision must be a Deployment revision as a string of digits (the deployment.kubernetes.io/revision annotation, e.g. "3"); got ${JSON.stringify(opts.baselineRevision)}.`,
    );
  }
  const logs = resolveLogOptions(opts.logs, bad);
  checkPatterns(opts.redact, 'redact', bad);
  const patterns = [...(opts.redact ?? []), ...((opts.logs || undefined)?.redact ?? [])];
  const clean = compiled(() => clusterTextCleaner(patterns), 'redact', bad);
  const masked = compiled(() => compileLogFilter({ redact: patterns }), 'redact', bad);
  if (opts.record !== undefined && (typeof opts.record !== 'string' || opts.record.trim() === '')) {
    bad(`record must be the path of the file to record the trace into; got ${JSON.stringify(opts.record)}.`);
  }
  if (opts.signal !== undefined && !(opts.signal instanceof AbortSignal))
    bad('signal must be an AbortSignal (e.g. from an AbortController).');
  const policy = resolvePolicy(opts.policy);
  const kc = load({ kubeconfig: opts.kubeconfig, context: opts.context });
  const namespace = opts.namespace ?? contextNamespace(kc);
  if (opts.namespace === undefined) checkNamespace(namespace, "the kubeconfig context's namespace");
  return {
    name,
    kind,
    namespace,
    kc,
    timeoutSeconds,
    ...(noProgress !== undefined ? { noProgressTimeoutSeconds: noProgress } : {}),
    policy,
    signal: opts.signal,
    baselineRevision: opts.baselineRevision,
    minGeneration: opts.minGeneration,
    logs,
    clean,
    mask: (text) => masked(text) ?? text,
    notFoundGraceSeconds: grace,
    ...(opts.record !== undefined ? { record: opts.record } : {}),
  };
}

/** The workload's kind (default Deployment) and name, checked. */
function checkedWorkload(opts: TrackOptions): { kind: WorkloadKind; name: string } {
  const { name } = opts;
  const kind = opts.kind ?? KIND_BY_OMISSION;
  if (!WORKLOAD_KINDS.includes(kind)) {
    bad(`kind ${JSON.stringify(kind)} is not a traced workload kind: it must be one of ${WORKLOAD_KINDS.join(', ')} (default Deployment).`);
  }
  if (typeof name !== 'string' || name === '') bad(`name must be the ${kind}'s name (a non-empty string); got ${JSON.stringify(name)}.`);
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    bad(
      `name ${JSON.stringify(name)} is not a valid ${kind} name: it must be a DNS-1123 subdomain (at most 253 ` +
        `characters of lower-case letters, digits, '-' and '.', starting and ending with a letter or digit), e.g. "my-app".`,
    );
  }
  return { kind, name };
}

/** The timeout (default 600 s), the no-progress timeout (default off) and the not-found grace (default 30 s), checked. */
function checkedDurations(opts: TrackOptions): { timeoutSeconds: number; noProgress: number | undefined; grace: number } {
  const timeoutSeconds = opts.timeoutSeconds ?? 600;
  if (durationProblem(timeoutSeconds) || timeoutSeconds <= 0) {
    bad(`timeoutSeconds must be a positive number of seconds of at most ${MAX_SECONDS} (default 600); got ${String(timeoutSeconds)}.`);
  }
  const noProgress = opts.noProgressTimeoutSeconds;
  if (noProgress !== undefined && (durationProblem(noProgress) || noProgress <= 0)) {
    bad(
      `noProgressTimeoutSeconds must be a positive number of seconds of at most ${MAX_SECONDS}, or left out to turn it off (the default); got ${String(noProgress)}.`,
    );
  }
  const grace = opts.notFoundGraceSeconds ?? 30;
  if (durationProblem(grace) || grace < 0) {
    bad(`notFoundGraceSeconds must be a number of seconds from 0 to ${MAX_SECONDS} (default 30); got ${String(grace)}.`);
  }
  return { timeoutSeconds, noProgress, grace };
}

/** The core's {@link TrackTarget} for validated options: the Deployment and what to judge it against. */
export function trackTarget(o: ResolvedTrackOptions): TrackTarget {
  return {
    namespace: o.namespace,
    name: o.name,
    kind: o.kind,
    ...(o.baselineRevision !== undefined ? { baselineRevision: o.baselineRevision } : {}),
    ...(o.minGeneration !== undefined ? { minGeneration: o.minGeneration } : {}),
  };
}

function checkNamespace(ns: unknown, what = 'namespace'): asserts ns is string {
  if (typeof ns !== 'string' || ns.length > 63 || !DNS1123_LABEL.test(ns)) {
    bad(
      `${what} ${JSON.stringify(ns)} is not a valid namespace name: it must be a DNS-1123 label (at most 63 ` +
        `lower-case letters, digits and '-', starting and ending with a letter or digit), e.g. "default".`,
    );
  }
}

function bad(message: string): never {
  throw new RolloutTraceError('bad-input', message);
}

/** Internal knobs for tests (not part of the public API: see `trackRolloutWith` in tracker.ts). */
export interface TrackInternals {
  source?: SourceOptions;
  /** Tick period (ms). Default 1000. */
  tickMs?: number;
  /** What the event stream replays to a late consumer (default `all`, see HubReplay). */
  replay?: HubReplay;
  /** Watch on after the verdict (the CLI's `--watch`): see {@link WatchAfterVerdict}. */
  watchAfterVerdict?: WatchAfterVerdict;
  /** Records the trace (the `record` option, tracker.ts). */
  recorder?: TraceRecorder;
}
