/**
 * Options shared by every way of tracing a Deployment from a Pulumi program.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { PolicyOverrides } from '../core/index.js';
import type { LogOptions } from '../track/index.js';

/**
 * How rollout-trace takes part in `pulumi up`.
 * - `observe`: the kubernetes provider keeps its own await (and stays the judge); rollout-trace
 *   streams live status lines while it runs and, on failure, leaves a permanent summary.
 * - `gate`: the Deployment gets `pulumi.com/skipAwait: "true"` and rollout-trace owns the await:
 *   its verdict (with the failure policy) fails the trace resource within seconds, and resources
 *   that depend on the trace wait for a successful rollout.
 */
export type TraceMode = 'observe' | 'gate';

/** Options for tracing one Deployment (or, with `traceDeployments`, every Deployment). */
export interface TraceOptions {
  /** Default `observe` (for `gatedDeployment`: `gate`). */
  mode?: TraceMode;
  /**
   * The cluster, as the kubernetes provider got it: kubeconfig *content* (YAML/JSON) or a *path*.
   * Default: the Deployment's provider's `kubeconfig` when rollout-trace saw that provider being
   * created, else the stack config `kubernetes:kubeconfig`, else `$KUBECONFIG` / `~/.kube/config`.
   */
  kubeconfig?: pulumi.Input<string>;
  /** Kubeconfig context; same defaulting as `kubeconfig`. */
  context?: pulumi.Input<string>;
  /**
   * Gives up after this many seconds. Default: the Deployment's `pulumi.com/timeoutSeconds`
   * annotation, else 600 (the provider's default).
   */
  timeoutSeconds?: number;
  /**
   * Gives up when the rollout makes no progress (no revision, ReplicaSet or pod change) for this
   * many seconds. Default: off.
   */
  noProgressTimeoutSeconds?: number;
  /** Failure-policy overrides (which failures fail the rollout, and after how long). */
  policy?: PolicyOverrides;
  /**
   * Container logs: tails in failure summaries (default 20 lines), redaction, and the opt-in live
   * stream (`{ follow: true }`: each line becomes a status line of the component's row).
   */
  logs?: false | LogOptions;
  /** Aborting it stops the trace and closes every watch. Ctrl-C (SIGINT/SIGTERM) does the same. */
  signal?: AbortSignal;
  /**
   * Observe mode: how long to keep tracing after the provider returned without a verdict yet
   * (seconds, default 30). The provider's success predicate and ours are the same, so this only
   * bounds odd cases.
   */
  settleSeconds?: number;
  /**
   * At most about 30 live lines per Deployment (phases, ReplicaSets by quarters of their pods,
   * each distinct problem once), for a non-interactive `pulumi up` that prints every line as its
   * own row. Default: on when the Pulumi CLI's display is non-interactive as far as the program can
   * tell: `TERM=dumb`, a CI system the CLI detects, or `CI` or `PULUMI_NON_INTERACTIVE` set (and not
   * `false`/`0`); docs/pulumi.md says which signal it cannot see.
   */
  compactLines?: boolean;
  /**
   * Records every trace of the run into this file (gzip-compressed JSON lines, one trace after
   * another: docs/recording.md), for `rollout-trace replay FILE`. Redacted like the lines; container
   * `env` values are never written.
   */
  record?: string;
  /** Writes the HTML report of the run's traces to this file (rewritten as each trace ends: docs/report.md). */
  report?: string;
  /** Writes a JUnit XML report of the run's traces to this file (one test case per workload, rewritten as each ends). */
  junit?: string;
}

/** What the trace ended with. */
export type TraceOutcome =
  | 'succeeded'
  | 'failed'
  | 'timed-out'
  | 'cancelled'
  /** Preview: reported the planned change, touched nothing. */
  | 'previewed'
  /** The program's inputs equal the live Deployment: the provider has nothing to do. */
  | 'unchanged'
  /** Nothing to trace: renderYamlToDirectory, an unreachable cluster with skipUpdateUnreachable, no object written. */
  | 'skipped';
