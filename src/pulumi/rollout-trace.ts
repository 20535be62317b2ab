/**
 * `RolloutTrace`: the Pulumi component that traces one Deployment's rollout during `pulumi up`.
 * It logs its lines and sets its outputs; the cluster reads are baseline.ts, tracing the
 * rollout is trace-written.ts, what to do is decided in decisions.ts and worded in wording.ts.
 *
 * Why a ComponentResource: every `pulumi.log` call waits for its resource's URN, and all of them
 * share one promise chain. A Deployment's URN resolves only after the kubernetes provider's await,
 * so lines logged against it would all arrive at the end (and hold back every later log line).
 * A component's URN resolves right after registration, so its row can show live lines.
 */

import * as pulumi from '@pulumi/pulumi';
import type { RolloutEvent, RolloutTimings, Verdict } from '../core/index.js';
import type { RolloutFailure } from '../report/index.js';
import type { Baseline, Written } from './baseline.js';
import { cancellable } from './cancel.js';
import { concludeTrace } from './conclude.js';
import {
  type ChangeKind,
  notTracedBecause,
  providerAwaitDiffers,
  skipsUpdateUnreachable,
  type TimeoutChoice,
  traceDecision,
} from './decisions.js';
import { cannotTrace, type EarlyEndHost, quietlyUnchanged, skipped, unreadable } from './early-results.js';
import { userMessage } from './errors.js';
import { keepingItsMessage, unheld } from './held-outputs.js';
import { jobGoneLine } from './job-gone.js';
import { observeUpdate } from './observe-update.js';
import type { TraceOutcome } from './options.js';
import { carryingDependency, outputValue, secretPatterns, settle } from './outputs.js';
import { previewChange } from './preview-change.js';
import { refusalOf } from './providers.js';
import { baselineOf, type RolloutResult, type RolloutTraceArgs } from './rollout-trace-args.js';
import { RowLines } from './row-lines.js';
import type { StatusLine } from './status-lines.js';
import { writtenAfterStep } from './step-end.js';
import { NotWrittenError, traceWritten, type WrittenResource, writtenBy } from './trace-written.js';
import { changeLine, notDoneLineOf, previewSummary, replacedLine, specChangedLine } from './wording.js';
import { whatWasWritten } from './write-effect.js';

export type { ProviderSettings } from './baseline.js';
export type { ChangeKind } from './decisions.js';
export type { RolloutResult, RolloutTraceArgs } from './rollout-trace-args.js';

/** The Pulumi type token of {@link RolloutTrace}. */
export const ROLLOUT_TRACE_TYPE = 'rollout-trace:pulumi:RolloutTrace';

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
  /** One-line summary of the verdict or of the preview report (secret when the inputs hold secrets). */
  readonly summary: pulumi.Output<string>;
  /** The Deployment's revision when the trace ended. */
  readonly revision: pulumi.Output<string | undefined>;
  /** When the rollout did not succeed: its main cause (secret when the inputs hold secrets). */
  readonly failure: pulumi.Output<RolloutFailure | undefined>;
  /** Where the time went: each new pod's phases in seconds, and the phase that took most of their time. */
  readonly timings: pulumi.Output<RolloutTimings | undefined>;
  /**
   * Resolves to this component once the rollout succeeded (gate mode) or the trace ended
   * (observe mode); rejects when a gated rollout fails. Use it in `dependsOn` of resources that
   * must wait for the rollout: `dependsOn: [trace.ready]`; the state then records a dependency on
   * the Deployment (destroy order, `--target-dependents`).
   */
  readonly ready: pulumi.Output<pulumi.Resource>;
  /** @internal Resolves once the live Deployment was read: the Deployment waits for it. */
  readonly baseline: pulumi.Output<pulumi.Resource>;
  /**
   * @internal Resolves once the trace ended without failing the gate; rejects with the gate's
   * error (reported once, against this component). A gated workload's outputs wait for it.
   */
  readonly gateOpen: Promise<void>;

  private attachDeployment!: (d: WrittenResource) => void;
  private readonly gate: boolean;
  private lastResult: RolloutResult | undefined;
  private readonly lines: RowLines;
  private readonly args: RolloutTraceArgs;
  /** Each tracker's events, when a report is asked for (run-outputs.ts). */
  private readonly eventLists: RolloutEvent[][] = [];

  constructor(name: string, args: RolloutTraceArgs, opts?: pulumi.ComponentResourceOptions) {
    super(ROLLOUT_TRACE_TYPE, name, {}, opts);
    this.args = args;
    this.lines = new RowLines(this, args.compactLines);
    this.gate = args.mode === 'gate';
    const deployment = new Promise<WrittenResource>((resolve) => (this.attachDeployment = resolve));
    if (args.deployment) this.attachDeployment(args.deployment);
    const written = args.detached ? undefined : deployment.then((d) => writtenBy(d, args.kind));
    const provided = args.detached ? undefined : deployment.then((d) => outputValue(unheld(d, 'urn')));
    // A Deployment that failed is reported by the engine; these only inform the trace.
    written?.catch(() => undefined);
    provided?.catch(() => undefined);

    const inputs = settle(args.inputs);
    const baseline = baselineOf(args, inputs);
    // A failed gate must fail `pulumi up`: the language host fails the update on an uncaught
    // error and reports a ResourceError against its resource, once per error object. So `failed`
    // rejects unhandled with the ResourceError, and `ready` rejects with the very same object
    // (resources waiting on it fail too, without a second report). The registered outputs never
    // reject: a rejection there would be re-worded "error serializing property ...".
    const failed = this.run(args, baseline, written, provided);
    const result = failed.catch((err: unknown) => this.failedResult(err));
    this.gateOpen = failed.then(
      () => undefined,
      (err: unknown) => {
        throw keepingItsMessage(err);
      },
    );
    const secret = inputs.then((s) => s.known && s.secret);
    const maybeSecret = <T>(value: Promise<T>) =>
      pulumi.output(secret).apply((s) => (s ? pulumi.secret(value) : pulumi.output(value))) as pulumi.Output<T>;
    const resolveToThis = (): pulumi.Resource => this;
    this.baseline = pulumi.output(baseline.then(resolveToThis, resolveToThis));
    this.outcome = pulumi.output(result.then((r) => r.outcome));
    this.summary = maybeSecret(result.then((r) => r.summary));
    this.revision = pulumi.output(result.then((r) => r.revision));
    this.failure = maybeSecret(result.then((r) => r.failure));
    this.timings = pulumi.output(result.then((r) => r.timings));
    // The Deployment too: a component with no custom children records no dependency.
    this.ready = carryingDependency(pulumi.output(failed.then(resolveToThis)), args.detached ? Promise.resolve(undefined) : deployment);
    this.registerOutputs({
      outcome: this.outcome,
      summary: this.summary,
      revision: this.revision,
      failure: this.failure,
      timings: this.timings,
    });
  }

  /** Tells the trace which workload resource it traces (when it was created after the trace). */
  attach(deployment: WrittenResource): void {
    this.attachDeployment(deployment);
  }

  private failedResult(err: unknown): RolloutResult {
    const last = this.lastResult;
    return { ...last, outcome: last?.outcome ?? 'failed', summary: last?.summary ?? userMessage(err) };
  }

  private say(line: StatusLine, ephemeral = true, fromTracker = false): void {
    this.lines.say(line, ephemeral, fromTracker);
  }

  /** This component, for the results of a trace that judges no rollout (early-results.ts). */
  private get early(): EarlyEndHost {
    return { resource: this, gate: this.gate, say: (line, ephemeral) => this.say(line, ephemeral) };
  }

  private async run(
    args: RolloutTraceArgs,
    baselineP: Promise<Baseline | undefined>,
    written: Promise<Written | null> | undefined,
    provided: Promise<unknown> | undefined,
  ): Promise<RolloutResult> {
    const render = await settle(args.provider?.renderYamlToDirectory);
    const skipUnreachable = await settle(args.provider?.skipUpdateUnreachable);
    const skip = notTracedBecause({ provider: { renderYamlToDirectory: render.known ? render.value : undefined } });
    if (skip) return skipped(this.early, skip);
    let baseline: Baseline | undefined;
    try {
      baseline = await baselineP;
    } catch (err) {
      const skips = skipUnreachable.known && skipsUpdateUnreachable(skipUnreachable.value, process.env.PULUMI_K8S_SKIP_UPDATE_UNREACHABLE);
      return unreadable(this.early, userMessage(err), skips);
    }
    if (pulumi.runtime.isDryRun()) {
      const previewed = await previewChange(baseline, written);
      const summary = previewSummary(previewed, args.kind);
      // A Deployment the update leaves as it is gets no permanent line (ephemeral on its row).
      this.say({ severity: 'info', text: summary }, previewed?.change === 'unchanged');
      return { outcome: 'previewed', summary, revision: previewed?.liveFacts?.revision, change: previewed?.change ?? 'unknown' };
    }
    if (!baseline) return cannotTrace(this.early, 'the Deployment or cluster settings are still unknown');
    const refusal = refusalOf(args.provider);
    if (refusal) return cannotTrace(this.early, refusal);
    try {
      return await this.trace(args, baseline, written, provided);
    } catch (err) {
      if (pulumi.ResourceError.isInstance(err)) throw err;
      if (err instanceof NotWrittenError) return skipped(this.early, err.message);
      return cannotTrace(this.early, userMessage(err));
    }
  }

  private async trace(
    args: RolloutTraceArgs,
    declared: Baseline,
    written: Promise<Written | null> | undefined,
    provided: Promise<unknown> | undefined,
  ): Promise<RolloutResult> {
    const cancel = cancellable(args.signal);
    // A provider-side component's child: its step's end, then the cluster, tell what was written.
    if (args.detached && args.stepEnded) ({ written, provided } = writtenAfterStep(declared, args.stepEnded));
    try {
      // Observe mode: the provider's own await decides the update (an unchanged object gets no
      // provider call, so no await); say at once when it ends otherwise.
      const differs =
        this.gate || declared.change === 'unchanged' ? undefined : providerAwaitDiffers(declared.plan, declared.change, declared.liveFacts);
      if (differs) this.say({ severity: 'warn', text: differs }, false);
      const gone = await jobGoneLine(declared, written, this.gate, cancel.signal);
      if (gone) {
        this.say({ severity: 'info', text: gone });
        return { outcome: 'unchanged', summary: gone, change: 'unchanged' };
      }
      // Observe mode, an existing object: the write, a replacement or the provider's answer decides.
      const existing = declared.change !== 'replace' && declared.change !== 'create';
      if (!this.gate && written && hasLive(declared) && existing) {
        return await this.observeWrite(args, declared, written, provided, cancel.signal);
      }
      const { wrote, effect, baseline } = await whatWasWritten(this.gate, declared, written, cancel.signal);
      // An unchanged Deployment is judged on its live state (after a failed rollout the engine
      // continues the provider's await on the next update): quietly, unless it is not done.
      const checkLive = effect !== 'spec-changed' && traceDecision(baseline.change) === 'check-live';
      if (effect === 'spec-changed') this.say({ severity: 'info', text: specChangedLine(declared, wrote?.generation) });
      else if (effect === 'replaced') this.say({ severity: 'info', text: replacedLine(declared) });
      else if (!checkLive) this.say({ severity: 'info', text: changeLine(baseline) });
      const say = (line: StatusLine) => this.say(line, true, true);
      const notDoneLine = checkLive ? notDoneLineOf(baseline) : undefined;
      const traced = await traceWritten({
        options: args,
        baseline,
        gate: this.gate,
        written,
        provided,
        signal: cancel.signal,
        say,
        notDoneLine,
        redact: await secretPatterns(args.inputs).catch(() => []),
        ...this.collecting(),
      });
      if (traced.kind === 'nothing-written')
        return skipped(this.early, 'the provider wrote no Deployment (as in `pulumi destroy --run-program`)');
      if (traced.kind === 'cancelled')
        return { outcome: 'cancelled', summary: 'cancelled before the Deployment was found', change: baseline.change };
      const unchanged = checkLive ? quietlyUnchanged(this.early, baseline, traced.verdict, traced.announced) : undefined;
      if (unchanged) return unchanged;
      return this.conclude(traced.verdict, effect === 'spec-changed' ? 'rollout' : baseline.change, traced.timeout);
    } finally {
      cancel.release(this.lines.drained());
    }
  }

  /** Observe mode, an existing Deployment: the provider's write decides what is traced (observe-update.ts). */
  private async observeWrite(
    args: RolloutTraceArgs,
    declared: Baseline & { live: NonNullable<Baseline['live']> },
    written: Promise<Written | null>,
    provided: Promise<unknown> | undefined,
    signal: AbortSignal,
  ): Promise<RolloutResult> {
    const unchanged = declared.change === 'unchanged';
    const end = await observeUpdate({
      options: args,
      baseline: declared,
      gate: false,
      written,
      provided,
      signal,
      say: (line) => this.say(line, true, true),
      notDoneLine: notDoneLineOf(declared),
      redact: await secretPatterns(args.inputs).catch(() => []),
      ...this.collecting(),
      onWrite: (generation) =>
        this.say({ severity: 'info', text: unchanged ? specChangedLine(declared, generation) : changeLine(declared) }),
      onReplaced: () => this.say({ severity: 'info', text: replacedLine(declared) }),
    });
    if (end.via === 'replaced') return this.conclude(end.verdict, 'replace', end.timeout);
    if (end.via === 'write') return this.conclude(end.verdict, unchanged ? 'rollout' : declared.change, end.timeout);
    return quietlyUnchanged(this.early, declared, end.verdict, end.announced) ?? this.conclude(end.verdict, 'unchanged', end.timeout);
  }

  /** Event lists are kept only when the run's report is asked for. */
  private collecting(): { collect?: (events: RolloutEvent[]) => void } {
    return this.args.report !== undefined ? { collect: (events) => this.eventLists.push(events) } : {};
  }

  private conclude(verdict: Verdict, change: ChangeKind, timeout: TimeoutChoice): RolloutResult {
    const events = this.eventLists.find((l) => l.some((e) => e.type === 'verdict' && e.verdict === verdict)) ?? [];
    const ended = concludeTrace({
      verdict,
      change,
      timeout,
      gate: this.gate,
      args: this.args,
      events,
      say: (line) => this.say(line, false),
    });
    if (ended.result.outcome !== 'succeeded') this.lastResult = ended.result;
    if (ended.gateError !== undefined) throw new pulumi.ResourceError(ended.gateError, this, true);
    return ended.result;
  }
}

function hasLive(b: Baseline): b is Baseline & { live: NonNullable<Baseline['live']> } {
  return b.live !== undefined;
}
