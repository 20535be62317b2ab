/**
 * Tracing one Deployment's rollout once the provider writes it (the I/O part of the trace):
 * which object to trace (the provider's outputs in gate mode, else the cluster, baseline.ts
 * `locate`), what to wait for and which timeout (decisions.ts), the tracker and its live lines.
 * In observe mode the provider stays the judge: once it returned, the trace gets a bounded time.
 */
import type * as pulumi from '@pulumi/pulumi';
import { KIND_BY_OMISSION, type RolloutEvent, type Verdict, type WorkloadKind } from '../core/index.js';
import { type LongTimer, setLongTimeout } from '../long-timer.js';
import type { Tracking } from '../track/index.js';
import { type Baseline, locate, type Written } from './baseline.js';
import { type CustomTimeouts, chooseTimeout, type TimeoutChoice, type WaitTarget, waitTarget } from './decisions.js';
import { userMessage } from './errors.js';
import { unheld } from './held-outputs.js';
import type { TraceOptions } from './options.js';
import { outputValue } from './outputs.js';
import { type StatusLine, StatusLines } from './status-lines.js';

/** What tracing the rollout ended with. */
export type TraceEnd =
  /** The provider wrote no Deployment (as in `pulumi destroy --run-program`). */
  | { kind: 'nothing-written' }
  /** Cancelled before the Deployment was found. */
  | { kind: 'cancelled' }
  /** `announced`: an unchanged Deployment was found not rolled out and healthy, and followed aloud. */
  | { kind: 'verdict'; verdict: Verdict; timeout: TimeoutChoice; announced: boolean };

/**
 * An unchanged Deployment is followed quietly this long: a rolled-out and healthy one reaches its
 * success verdict first and shows only the "no change" line.
 */
export const UNCHANGED_QUIET_MS = 3000;

/** What {@link traceWritten} needs. */
export interface TraceWrittenArgs {
  options: TraceOptions & { customTimeouts?: CustomTimeouts };
  baseline: Baseline;
  gate: boolean;
  /** What the provider wrote (undefined for a child of a provider-side component). */
  written?: Promise<Written | null>;
  /** Settles once the provider returned (observe mode). */
  provided?: Promise<unknown>;
  signal: AbortSignal;
  /** Logs one live line on the trace's row. */
  say: (line: StatusLine) => void;
  /** Patterns masked in every message and log line: the secret values of the Deployment's inputs. */
  redact?: RegExp[];
  /** For an unchanged Deployment: the line said once it turns out not rolled out and healthy. */
  notDoneLine?: string;
  /** Given each tracker's event list, filled as events come (the HTML report's). */
  collect?: (events: RolloutEvent[]) => void;
}

/** Finds the object the provider wrote, then traces its rollout to a verdict. */
export async function traceWritten(a: TraceWrittenArgs): Promise<TraceEnd> {
  const b = a.baseline;
  // Gate: the provider returns right after the write (waitFor holds at once), with the exact
  // object; observe: the provider is still awaiting, so find the object in the cluster.
  const exact = a.gate && a.written ? await a.written : undefined;
  const name = exact === null ? null : (exact?.name ?? (await locate(b, a.written, a.signal)));
  if (name === null) return { kind: 'nothing-written' };
  if (name === undefined) return { kind: 'cancelled' };
  const target = waitTarget(b.change, b.liveFacts, exact ?? undefined, b.plan.kind);
  const timeout = chooseTimeout(a.options.timeoutSeconds, a.options.customTimeouts, b.plan, b.change);
  const out = quietUntilNotDone(a.say, a.notDoneLine);
  const traced = await followTarget(a, name, target, out.say);
  try {
    const verdict = await traced.tracking.verdict;
    if (verdict.outcome !== 'succeeded') out.announce();
    return { kind: 'verdict', verdict, timeout, announced: out.announced() };
  } finally {
    out.stop();
    traced.unsubscribe();
  }
}

/** A tracker following `name` to `target`, its status lines sent to `say`. */
export interface Followed {
  tracking: Tracking;
  unsubscribe: () => void;
}

/**
 * Starts the tracker of `name` with the wait target `target`; each status line goes to `say`. In
 * observe mode the tracker is stopped a bounded time after the provider returned.
 */
export async function followTarget(
  a: Omit<TraceWrittenArgs, 'say' | 'notDoneLine'>,
  name: string,
  target: WaitTarget,
  say: (line: StatusLine) => void,
  onEvent?: (e: RolloutEvent) => void,
): Promise<Followed> {
  const b = a.baseline;
  const timeout = chooseTimeout(a.options.timeoutSeconds, a.options.customTimeouts, b.plan, b.change);
  // Loaded on first use: previews never need the watch machinery.
  const { trackRollout } = await import('../track/index.js');
  const tracking = trackRollout({
    name,
    kind: b.plan.kind,
    namespace: b.namespace,
    kubeconfig: b.kc,
    timeoutSeconds: timeout.seconds,
    noProgressTimeoutSeconds: a.options.noProgressTimeoutSeconds,
    policy: a.options.policy,
    logs: a.options.logs,
    signal: a.signal,
    baselineRevision: target.baselineRevision,
    minGeneration: target.minGeneration,
    notFoundGraceSeconds: target.notFoundGraceSeconds,
    redact: a.redact,
    ...(a.options.record !== undefined ? { record: a.options.record } : {}),
  });
  const lines = new StatusLines();
  const events: RolloutEvent[] = [];
  a.collect?.(events);
  const unsubscribe = tracking.subscribe((e) => {
    if (a.collect) events.push(e);
    onEvent?.(e);
    const line = lines.next(e);
    if (line) say(line);
  });
  if (!a.gate && a.provided) stopWhenProviderFinishes(tracking, a.provided, a.options.settleSeconds ?? 30);
  return { tracking, unsubscribe };
}

/** The lines of a trace held back until it turns out worth showing (see {@link quietUntilNotDone}). */
export interface QuietLines {
  say(line: StatusLine): void;
  /** Says `notDone`, then the held lines; later lines pass at once. */
  announce(): void;
  /** Starts the rule (when created unarmed): a warning or the quiet time announces. */
  arm(): void;
  announced(): boolean;
  /** Ends the quiet time; held lines are dropped. */
  stop(): void;
}

/**
 * The live lines of an unchanged Deployment (`notDone` set): held back until it turns out not
 * rolled out and healthy (a warning, or {@link UNCHANGED_QUIET_MS} without a success), then said
 * after `notDone`. Without `notDone` every line is said at once. Created unarmed, lines are held
 * and nothing announces until {@link QuietLines.arm}.
 */
export function quietUntilNotDone(say: (line: StatusLine) => void, notDone: string | undefined, armed = true): QuietLines {
  let held: StatusLine[] | undefined = notDone === undefined ? undefined : [];
  let timer: LongTimer | undefined;
  let live = false;
  const announce = () => {
    if (!held || notDone === undefined) return;
    const lines = held;
    held = undefined;
    timer?.cancel();
    say({ severity: 'info', text: notDone });
    for (const line of lines) say(line);
  };
  const arm = () => {
    if (live || !held) return;
    live = true;
    if (held.some((l) => l.severity === 'warn')) return announce();
    timer = setLongTimeout(announce, UNCHANGED_QUIET_MS).unref();
  };
  if (armed) arm();
  return {
    say(line: StatusLine) {
      if (!held) return say(line);
      held.push(line);
      if (live && line.severity === 'warn') announce();
    },
    announce,
    arm,
    announced: () => notDone !== undefined && held === undefined,
    stop: () => timer?.cancel(),
  };
}

/**
 * What the provider returned for the Deployment; null when it wrote no object: an empty id after
 * the step is the engine's skipped create (`pulumi destroy --run-program` for a resource not in
 * the state), whose outputs are only the inputs.
 */
export async function writtenBy(d: WrittenResource, asked: WorkloadKind | undefined): Promise<Written | null> {
  const kind = asked ?? KIND_BY_OMISSION;
  const [metadata, id] = await Promise.all([
    outputValue(unheld<WrittenMetadata>(d, 'metadata')),
    outputValue(unheld<string>(d, 'id')),
  ]).catch((err: unknown) => {
    throw new NotWrittenError(`the ${kind} was not written (${userMessage(err)})`);
  });
  if (!id || !metadata?.name) return null;
  return { name: metadata.name, generation: metadata.generation, uid: metadata.uid };
}

/**
 * The workload's registration failed (its provider call, or a dependency it waited for): the SDK
 * reports that failure and fails the program, so the trace adds no error of its own.
 */
export class NotWrittenError extends Error {}

/** The outputs {@link writtenBy} reads: any workload resource (Deployment, StatefulSet, DaemonSet, Job). */
export type WrittenResource = pulumi.CustomResource & {
  readonly metadata: pulumi.Output<WrittenMetadata>;
};

/** The metadata fields {@link writtenBy} reads. */
type WrittenMetadata = { name?: string; generation?: number; uid?: string };

/** Observe mode: the provider is the judge; once it returned, give the trace a bounded time. */
export function stopWhenProviderFinishes(tracking: Tracking, provided: Promise<unknown>, settleSeconds: number): void {
  let timer: LongTimer | undefined;
  void tracking.verdict.finally(() => timer?.cancel()).catch(() => undefined);
  const arm = () => {
    timer = setLongTimeout(() => tracking.stop('the kubernetes provider finished its await'), settleSeconds * 1000).unref();
  };
  provided.then(arm, arm);
}
