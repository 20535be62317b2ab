/**
 * A tracker's container logs (I/O; the tracker feeds it): the tails read as problems and succeeded
 * Job pods are seen (log-capture.ts), a Job's containers streamed from their start so their last
 * lines outlive their pods, the opt-in live stream (`logs.follow`), and the tails a verdict carries.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { LogTarget, Observation, RolloutEvent, RolloutState, Verdict, WorkloadKind } from '../core/index.js';
import { kindModule, logTargets, SUCCESS_LOG_PODS, successLogContainers } from '../core/index.js';
import { wantsLogTails } from './decisions.js';
import { LogCapture, MAX_LOGGED_PODS } from './log-capture.js';
import { LogFollower } from './log-follower.js';
import type { ResolvedLogOptions } from './log-options.js';
import { type TailSource, withLogTails, withSuccessLogs } from './log-tails.js';

/** What {@link TrackerLogs} needs of the tracker's options. */
export interface TrackerLogsOptions {
  kc: KubeConfig;
  namespace: string;
  kind: WorkloadKind;
  logs: Exclude<ResolvedLogOptions, false>;
}

/** The logs of one trace: read early, kept, streamed, and attached to its verdict. */
export class TrackerLogs {
  private readonly capture: LogCapture;
  /** The opt-in live stream, published as `log` events. */
  private readonly follower: LogFollower | undefined;
  /** A Job's containers streamed into {@link capture} (their last lines kept). */
  private readonly keeper: LogFollower | undefined;

  constructor(
    private readonly opts: TrackerLogsOptions,
    publishLine: (target: LogTarget, line: string) => void,
  ) {
    const { kc, namespace, logs } = opts;
    const capture = new LogCapture(kc, namespace, logs.tailLines, logs.redact);
    this.capture = capture;
    // A kind whose pods end by design (a Job: its controller may delete a pod the moment it
    // fails): stream them from their start.
    if (!kindModule(opts.kind).podsRunOn) {
      const settings = { filter: (line: string) => line, maxStreams: MAX_LOGGED_PODS, maxLines: Number.POSITIVE_INFINITY };
      this.keeper = new LogFollower(kc, namespace, settings, (target, line) => capture.kept(target, line));
    }
    if (logs.follow) this.follower = new LogFollower(kc, namespace, logs.follow, publishLine);
  }

  /** After each step of observations: reads tails of the problems they raised and of the Job pods they show succeeded. */
  observed(observations: readonly Observation[], events: readonly RolloutEvent[], state: RolloutState): void {
    for (const e of events) if (e.type === 'problem') this.capture.problemSeen(e.problem);
    // Only a pod seen succeeded can add to them: no walk of the Job's pods on every other change.
    if (this.opts.logs.onSuccess === true && observations.some(succeededPod)) this.capture.succeededSeen(successLogContainers(state));
  }

  /** The containers to stream may have changed: opens what is new. */
  targetsChanged(state: RolloutState): void {
    this.follower?.sync(logTargets(state, this.opts.logs.follow?.containers));
    this.keeper?.sync(logTargets(state));
  }

  /** Before the verdict: the followed instances that ended are read to their end. */
  async drain(state: RolloutState): Promise<void> {
    await this.follower?.drain(logTargets(state, this.opts.logs.follow?.containers));
  }

  /** Closes every stream. */
  stop(): void {
    this.follower?.stop();
    this.keeper?.stop();
  }

  /** `verdict` with its log tails: a failure's problems', or a succeeded Job's pods' with `onSuccess`. */
  async enrich(verdict: Verdict, state: RolloutState): Promise<Verdict> {
    const source: TailSource = { kc: this.opts.kc, ...this.opts.logs, capture: this.capture };
    if (wantsLogTails(verdict)) return withLogTails(verdict, source);
    if (this.opts.logs.onSuccess !== true || verdict.outcome !== 'succeeded') return verdict;
    const live = successLogContainers(state);
    return withSuccessLogs(verdict, this.capture.successContainers(live, SUCCESS_LOG_PODS), source);
  }
}

/** Whether `obs` shows a pod succeeded. */
function succeededPod(obs: Observation): boolean {
  return obs.type === 'upsert' && obs.kind === 'Pod' && obs.object.status?.phase === 'Succeeded';
}
