/**
 * `RolloutTrace`: the Pulumi component that traces one Deployment's rollout during `pulumi up`.
 *
 * Why a ComponentResource: every `pulumi.log` call waits for its resource's URN, and all of them
 * share one promise chain. A Deployment's URN resolves only after the kubernetes provider's await,
 * so lines logged against it would all arrive at the end (and hold back every later log line).
 * A component's URN resolves right after registration, so its row can show live lines.
 */

import type { KubeConfig, V1Deployment } from '@kubernetes/client-node';
import type * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { sleep } from '../cluster/backoff.js';
import { contextNamespace, loadKubeConfig } from '../cluster/index.js';
import { revisionOf as annotatedRevision } from '../core/k8s.js';
import type { Verdict } from '../core/types.js';
import { type LongTimer, setLongTimeout } from '../long-timer.js';
import { formatVerdict, type RolloutFailure, rolloutFailureOf } from '../report/index.js';
import type { Tracking } from '../track/index.js';
import { cancellable } from './cancel.js';
import { userMessage } from './errors.js';
import { findDeployments } from './kube.js';
import { type StatusLine, StatusLines } from './lines.js';
import type { TraceOptions, TraceOutcome } from './options.js';
import { outputValue, settle } from './outputs.js';
import { type PlannedDeployment, planFromInputs } from './plan.js';
import { describeChange, type TemplateChange, templateChanges } from './template-diff.js';

/** The Pulumi type token of {@link RolloutTrace}. */
export const ROLLOUT_TRACE_TYPE = 'rollout-trace:pulumi:RolloutTrace';

/** The cluster settings the Deployment's kubernetes provider was given. */
export interface ProviderSettings {
  kubeconfig?: pulumi.Input<string>;
  context?: pulumi.Input<string>;
  namespace?: pulumi.Input<string>;
}

/** Arguments of {@link RolloutTrace}. */
export interface RolloutTraceArgs extends TraceOptions {
  /** The Deployment's declared inputs (the `args` given to `new k8s.apps.v1.Deployment`). */
  inputs: pulumi.Input<unknown>;
  /** The Deployment's Pulumi resource name (the provider's auto-name prefix). */
  deploymentName: string;
  /** The Deployment resource, if it already exists (else call {@link RolloutTrace.attach}). */
  deployment?: k8s.apps.v1.Deployment;
  /** What the Deployment's provider was given (used when `kubeconfig`/`context` are not set). */
  provider?: ProviderSettings;
}

/** The trace's result, also exposed as the component's outputs. */
export interface RolloutResult {
  outcome: TraceOutcome;
  /** One line, e.g. `revision 2 rolled out: 3/3 pods ready`. */
  summary: string;
  revision?: string;
  /** What the update changes: `create`, `rollout` (new pod template), `scale`, `unchanged`. */
  change?: ChangeKind;
  /** For a rollout that did not succeed: its main cause, machine-readable. */
  failure?: RolloutFailure;
}

/** What the planned update does to the live Deployment. */
export type ChangeKind = 'create' | 'rollout' | 'scale' | 'unchanged' | 'unknown';

/** What was learned before the provider touched the Deployment. */
interface Baseline {
  plan: PlannedDeployment;
  kc: KubeConfig;
  kubeconfig?: string;
  context?: string;
  namespace: string;
  live?: V1Deployment;
  /** Names of the matching Deployments that existed before the update. */
  existing: Set<string>;
  change: ChangeKind;
  changes: TemplateChange[];
}

const BASELINE_TIMEOUT_MS = 15_000;
/** Traces registered together read their namespace's Deployments once (the baseline is pre-update). */
const BASELINE_LIST_REUSE_MS = 2_000;
/** Concurrent searches for new auto-named Deployments share one list (the search polls every 500 ms). */
const LOCATE_LIST_REUSE_MS = 250;

/**
 * Traces one Deployment's rollout in `pulumi up`: live per-ReplicaSet and per-pod status lines on
 * this component's row (ephemeral), a permanent failure summary, and in gate mode the verdict that
 * fails this resource (and everything depending on {@link RolloutTrace.ready}).
 *
 * Usually created for you by `traceDeployments()`, `tracedDeployment()` or `gatedDeployment()`.
 */
export class RolloutTrace extends pulumi.ComponentResource {
  /** How the trace ended (`previewed` during preview). */
  readonly outcome: pulumi.Output<TraceOutcome>;
  /** One-line summary of the verdict or of the preview report. */
  readonly summary: pulumi.Output<string>;
  /** The Deployment's revision when the trace ended. */
  readonly revision: pulumi.Output<string | undefined>;
  /**
   * When the rollout did not succeed: its main cause (`class`, `pod`, `container`, `reason`,
   * `explanation`, `hint`...), for stack outputs and policy checks; undefined otherwise.
   */
  readonly failure: pulumi.Output<RolloutFailure | undefined>;
  /**
   * Resolves to this component once the rollout succeeded (gate mode) or the trace ended
   * (observe mode); rejects when a gated rollout fails. Use it in `dependsOn` of resources that
   * must wait for the rollout: `dependsOn: [trace.ready]`.
   */
  readonly ready: pulumi.Output<pulumi.Resource>;
  /** @internal Resolves once the live Deployment was read: the Deployment waits for it. */
  readonly baseline: pulumi.Output<pulumi.Resource>;

  private attachDeployment!: (d: k8s.apps.v1.Deployment) => void;
  private readonly mode: TraceOptions['mode'];

  constructor(name: string, args: RolloutTraceArgs, opts?: pulumi.ComponentResourceOptions) {
    super(ROLLOUT_TRACE_TYPE, name, {}, opts);
    this.mode = args.mode ?? 'observe';
    const deployment = new Promise<k8s.apps.v1.Deployment>((resolve) => (this.attachDeployment = resolve));
    if (args.deployment) this.attachDeployment(args.deployment);

    const baseline = this.readBaseline(args);
    // A failed gate must fail `pulumi up`: the language host fails the update on an uncaught
    // error and reports a ResourceError against its resource, once per error object. So `failed`
    // rejects unhandled with the ResourceError, and `ready` rejects with the very same object
    // (resources waiting on it fail too, without a second report). The registered outputs never
    // reject: a rejection there would be re-worded "error serializing property ...".
    const failed = this.run(args, baseline, deployment);
    const result = failed.catch((err: unknown) => this.failedResult(err));
    // The deliberate unhandled leaf that reports a gate failure to the language host.
    failed.then(() => undefined);
    this.baseline = pulumi.output(
      baseline.then(
        (): pulumi.Resource => this,
        (): pulumi.Resource => this,
      ),
    );
    this.outcome = pulumi.output(result.then((r) => r.outcome));
    this.summary = pulumi.output(result.then((r) => r.summary));
    this.revision = pulumi.output(result.then((r) => r.revision));
    this.failure = pulumi.output(result.then((r) => r.failure));
    this.ready = pulumi.output(failed.then((): pulumi.Resource => this));
    this.registerOutputs({ outcome: this.outcome, summary: this.summary, revision: this.revision, failure: this.failure });
  }

  private lastResult: RolloutResult | undefined;

  private failedResult(err: unknown): RolloutResult {
    const summary = this.lastResult?.summary ?? userMessage(err);
    return {
      outcome: this.lastResult?.outcome ?? 'failed',
      summary,
      revision: this.lastResult?.revision,
      change: this.lastResult?.change,
      ...(this.lastResult?.failure ? { failure: this.lastResult.failure } : {}),
    };
  }

  /** Tells the trace which Deployment resource it traces (when it was created after the trace). */
  attach(deployment: k8s.apps.v1.Deployment): void {
    this.attachDeployment(deployment);
  }

  /** Lines already sent: like the provider's de-duplicating logger, each line is logged once. */
  private readonly said = new Set<string>();

  /**
   * Logs a line on this component's row. `fromTracker` lines were already chosen by LogLines (one
   * per state change; an application's repeated log line is news): they are never dropped here.
   * Other lines (preview, summaries) are said once.
   */
  private say(line: StatusLine, ephemeral = true, fromTracker = false): void {
    const key = `${line.severity}\u0000${ephemeral}\u0000${line.text}`;
    if (!fromTracker && this.said.has(key)) return;
    this.said.add(key);
    const log = line.severity === 'warn' ? pulumi.log.warn : pulumi.log.info;
    const sent = log(line.text, this, undefined, ephemeral).catch(() => undefined);
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  /** Log writes still on their way to the engine (a Ctrl-C waits for them). */
  private readonly sending = new Set<Promise<void>>();

  private flushed(): Promise<unknown> {
    return Promise.all([...this.sending]);
  }

  /** Reads the live Deployment (read-only) before the provider changes it. */
  private async readBaseline(args: RolloutTraceArgs): Promise<Baseline | undefined> {
    const inputs = await settle(args.inputs);
    const kubeconfig = await settle(args.kubeconfig ?? args.provider?.kubeconfig);
    const context = await settle(args.context ?? args.provider?.context);
    const providerNamespace = await settle(args.provider?.namespace);
    if (!inputs.known || !kubeconfig.known || !context.known || !providerNamespace.known) return undefined;
    const plan = planFromInputs(args.deploymentName, inputs.value);
    const kc = loadKubeConfig({ kubeconfig: kubeconfig.value, context: context.value });
    const namespace = plan.namespace ?? providerNamespace.value ?? contextNamespace(kc);
    const found = await withTimeout(
      (signal) => findDeployments(kc, namespace, plan, { signal, maxAgeMs: BASELINE_LIST_REUSE_MS }),
      BASELINE_TIMEOUT_MS,
      `reading Deployments in namespace "${namespace}"`,
    );
    const live = found[0];
    const changes = live ? templateChanges(plan.template, live.spec?.template, { secret: inputs.secret }) : [];
    let change: ChangeKind;
    if (!live) change = 'create';
    else if (changes.length > 0) change = 'rollout';
    else if (plan.replicas !== undefined && plan.replicas !== (live.spec?.replicas ?? 1)) change = 'scale';
    else change = 'unchanged';
    return {
      plan,
      kc,
      kubeconfig: kubeconfig.value,
      context: context.value,
      namespace,
      live,
      existing: new Set(found.map((d) => d.metadata?.name ?? '')),
      change,
      changes,
    };
  }

  private async run(
    args: RolloutTraceArgs,
    baselinePromise: Promise<Baseline | undefined>,
    deployment: Promise<k8s.apps.v1.Deployment>,
  ): Promise<RolloutResult> {
    let baseline: Baseline | undefined;
    try {
      baseline = await baselinePromise;
    } catch (err) {
      if (pulumi.runtime.isDryRun()) {
        // A preview never fails because of us, not even in gate mode.
        const summary = `preview: rollout-trace could not read the cluster: ${userMessage(err)}`;
        this.say({ severity: 'warn', text: summary }, false);
        return { outcome: 'previewed', summary, change: 'unknown' };
      }
      return this.cannotTrace(`could not read the cluster: ${userMessage(err)}`);
    }
    if (pulumi.runtime.isDryRun()) return this.preview(baseline);
    if (!baseline) return this.cannotTrace('the Deployment or cluster settings are still unknown');
    if (baseline.change === 'unchanged' && this.mode === 'observe') {
      const summary = `no change to Deployment ${baseline.namespace}/${baseline.live?.metadata?.name}: ${liveState(baseline.live)}`;
      this.say({ severity: 'info', text: summary });
      return { outcome: 'unchanged', summary, revision: revisionOf(baseline.live), change: 'unchanged' };
    }
    try {
      return await this.trace(args, baseline, deployment);
    } catch (err) {
      if (pulumi.ResourceError.isInstance(err)) throw err;
      return this.cannotTrace(userMessage(err));
    }
  }

  /** Preview: report what the update would do; never writes, never waits for a rollout. */
  private preview(baseline: Baseline | undefined): RolloutResult {
    let summary: string;
    if (!baseline) {
      summary = 'preview: the Deployment depends on values known only during the update; it will be traced then';
    } else {
      const where = `${baseline.namespace}/${baseline.live?.metadata?.name ?? baseline.plan.name ?? `${baseline.plan.namePrefix}-<random>`}`;
      const state = liveState(baseline.live);
      switch (baseline.change) {
        case 'create':
          summary = `preview: Deployment ${where} does not exist yet: the update creates it (revision 1, ${plural(baseline.plan.replicas ?? 1, 'replica')})`;
          break;
        case 'rollout':
          summary =
            `preview: the pod template of ${where} changes (${baseline.changes.slice(0, 3).map(describeChange).join('; ')}` +
            `${baseline.changes.length > 3 ? `; +${baseline.changes.length - 3} more` : ''}): ` +
            `the update starts a new rollout (live: ${state})`;
          break;
        case 'scale':
          summary = `preview: ${where} scales ${baseline.live?.spec?.replicas ?? 1} → ${baseline.plan.replicas} replicas, pod template unchanged: no new rollout (live: ${state})`;
          break;
        default:
          summary = `preview: the pod template of ${where} is unchanged: no new rollout (live: ${state})`;
      }
    }
    this.say({ severity: 'info', text: summary }, false);
    return { outcome: 'previewed', summary, revision: revisionOf(baseline?.live), change: baseline?.change ?? 'unknown' };
  }

  private cannotTrace(why: string): RolloutResult {
    const summary = `rollout-trace cannot trace this Deployment: ${why}`;
    // A gate must not let dependents through: its error is the report. Observe mode just warns.
    if (this.mode === 'gate') throw new pulumi.ResourceError(summary, this, true);
    this.say({ severity: 'warn', text: summary }, false);
    return { outcome: 'cancelled', summary };
  }

  private async trace(args: RolloutTraceArgs, b: Baseline, deploymentP: Promise<k8s.apps.v1.Deployment>): Promise<RolloutResult> {
    const gate = this.mode === 'gate';
    const cancel = cancellable(args.signal);
    try {
      this.say({ severity: 'info', text: changeLine(b) });
      const located = await this.locate(b, deploymentP, gate, cancel.signal);
      if (!located) return { outcome: 'cancelled', summary: 'cancelled before the Deployment was found', change: b.change };
      const timeout = timeoutOf(args, b.plan);
      // Loaded on first use: previews never need the watch machinery.
      const { trackRollout } = await import('../track/index.js');
      const tracking = trackRollout({
        name: located.name,
        namespace: b.namespace,
        kubeconfig: b.kc,
        timeoutSeconds: timeout.seconds,
        noProgressTimeoutSeconds: args.noProgressTimeoutSeconds,
        policy: args.policy,
        logs: args.logs,
        signal: cancel.signal,
        baselineRevision: b.change === 'rollout' ? revisionOf(b.live) : undefined,
        minGeneration: located.generation ?? (b.live && b.change !== 'unchanged' ? (b.live.metadata?.generation ?? 0) + 1 : undefined),
        notFoundGraceSeconds: b.change === 'create' ? 60 : undefined,
      });
      const lines = new StatusLines();
      const unsubscribe = tracking.subscribe((e) => {
        const line = lines.next(e);
        if (line) this.say(line, true, true);
      });
      if (!gate) this.stopWhenProviderFinishes(tracking, deploymentP, args.settleSeconds ?? 30);
      const verdict = await tracking.verdict;
      unsubscribe();
      return this.conclude(verdict, b.change, timeout);
    } finally {
      cancel.release(this.flushed());
    }
  }

  /** Finds the Deployment's real name: declared, already live, or auto-named by the provider. */
  private async locate(
    b: Baseline,
    deploymentP: Promise<k8s.apps.v1.Deployment>,
    gate: boolean,
    signal: AbortSignal,
  ): Promise<{ name: string; generation?: number } | undefined> {
    if (gate) {
      // skipAwait: the provider returns right after the write, with the exact name and generation.
      const d = await deploymentP;
      const metadata = await outputValue(d.metadata).catch((err: unknown) => {
        throw new Error(`the Deployment was not written (${userMessage(err)})`);
      });
      return { name: metadata.name, generation: metadata.generation };
    }
    if (b.plan.name) return { name: b.plan.name };
    if (b.live?.metadata?.name) return { name: b.live.metadata.name };
    // A new auto-named Deployment: its name appears when the provider creates it.
    const fromOutputs = deploymentP.then((d) => outputValue(d.metadata)).then((m) => m.name);
    fromOutputs.catch(() => undefined);
    while (!signal.aborted) {
      const winner = await Promise.race([fromOutputs, sleep(500, signal).then(() => undefined)]).catch(() => undefined);
      if (winner) return { name: winner };
      const found = await findDeployments(b.kc, b.namespace, b.plan, { maxAgeMs: LOCATE_LIST_REUSE_MS }).catch(() => []);
      const fresh = found.find((d) => !b.existing.has(d.metadata?.name ?? ''));
      if (fresh?.metadata?.name) return { name: fresh.metadata.name };
    }
    return undefined;
  }

  /** Observe mode: the provider is the judge; once it returned, give the trace a bounded time. */
  private stopWhenProviderFinishes(tracking: Tracking, deploymentP: Promise<k8s.apps.v1.Deployment>, settleSeconds: number): void {
    let timer: LongTimer | undefined;
    void tracking.verdict.finally(() => timer?.cancel()).catch(() => undefined);
    const arm = () => {
      timer = setLongTimeout(() => tracking.stop('the kubernetes provider finished its await'), settleSeconds * 1000).unref();
    };
    deploymentP.then((d) => outputValue(d.urn)).then(arm, arm);
  }

  private conclude(verdict: Verdict, change: ChangeKind, timeout: { seconds: number; source: string }): RolloutResult {
    const revision = verdict.revision;
    if (verdict.outcome === 'succeeded') {
      this.say({ severity: 'info', text: verdict.summary });
      return { outcome: 'succeeded', summary: verdict.summary, revision, change };
    }
    const lines: string[] = [];
    if (verdict.outcome === 'timed-out') {
      lines.push(
        verdict.timeoutKind === 'no-progress'
          ? `rollout-trace gave up after ${verdict.timeoutSeconds}s without progress: the noProgressTimeoutSeconds option of rollout-trace`
          : `rollout-trace gave up after ${verdict.timeoutSeconds ?? timeout.seconds}s: ${timeout.source}`,
      );
    }
    const failure = rolloutFailureOf(verdict);
    if (verdict.outcome === 'cancelled') {
      this.say({ severity: 'warn', text: `trace stopped: ${verdict.summary}` });
      this.lastResult = { outcome: 'cancelled', summary: verdict.summary, revision, change, failure };
      if (this.mode === 'gate') throw new pulumi.ResourceError(`rollout trace cancelled: ${verdict.summary}`, this, true);
      return this.lastResult;
    }
    lines.push(formatVerdict(verdict, { color: false }));
    this.lastResult = { outcome: verdict.outcome, summary: verdict.summary, revision, change, failure };
    if (this.mode === 'gate') {
      throw new pulumi.ResourceError(lines.join('\n'), this, true);
    }
    lines.push('(observe mode: the kubernetes provider keeps waiting until its own timeout; gatedDeployment() fails fast)');
    this.say({ severity: 'warn', text: lines.join('\n') }, false);
    return this.lastResult;
  }
}

function timeoutOf(args: TraceOptions, plan: PlannedDeployment): { seconds: number; source: string } {
  if (args.timeoutSeconds !== undefined) return { seconds: args.timeoutSeconds, source: 'the timeoutSeconds option of rollout-trace' };
  if (plan.timeoutSeconds !== undefined) {
    return { seconds: plan.timeoutSeconds, source: "the Deployment's pulumi.com/timeoutSeconds annotation" };
  }
  return { seconds: 600, source: "the default timeout (600s, the same as the kubernetes provider's await)" };
}

function changeLine(b: Baseline): string {
  const name = b.live?.metadata?.name ?? b.plan.name ?? `${b.plan.namePrefix}-*`;
  switch (b.change) {
    case 'create':
      return `new Deployment ${b.namespace}/${name}: tracing its first rollout`;
    case 'rollout':
      return `pod template changed (${b.changes.slice(0, 2).map(describeChange).join('; ')}): tracing the rollout from revision ${revisionOf(b.live) ?? '?'}`;
    case 'scale':
      return `scale-only update (${b.live?.spec?.replicas ?? 1} → ${b.plan.replicas} replicas): no new rollout`;
    default:
      return `no pod template change for ${b.namespace}/${name}`;
  }
}

/** The live revision, undefined (not '') when the Deployment has none yet. */
function revisionOf(d: V1Deployment | undefined): string | undefined {
  return annotatedRevision(d) || undefined;
}

function liveState(d: V1Deployment | undefined): string {
  if (!d) return 'not found';
  const rev = revisionOf(d);
  return `${rev ? `revision ${rev}, ` : ''}${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 1} ready`;
}

/** Runs `run` with a signal that aborts its request once `ms` have passed, and rejects then. */
async function withTimeout<T>(run: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  let timer: LongTimer | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setLongTimeout(() => {
      const err = new Error(`${what} took longer than ${ms / 1000}s`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), limit]);
  } finally {
    timer?.cancel();
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
