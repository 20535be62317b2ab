/**
 * What a shared namespace source delivers to, and how it is tuned.
 */
import type { Observation, WatchedKind, WorkloadKind } from '../core/index.js';
import type { RolloutTraceError } from '../errors.js';
import type { KindWatcherOptions } from './kind-watcher.js';

/** Receives one tracked Deployment's observations. */
export interface SourceSubscriber {
  /** Name of the tracked Deployment: Deployment observations of other names are not delivered. */
  readonly workloadName: string;
  /** Kind of the traced workload named {@link workloadName} (default `Deployment`). */
  readonly kind: WorkloadKind;
  /**
   * True: also deliver a pod's routine Normal Events (Scheduled, Pulling, Created, Started,
   * Killing), which only user classifiers read. Default: they are neither delivered nor cached.
   */
  readonly routinePodEvents?: boolean;
  /**
   * True when the trace's success criterion is partial (`--success`): any line of its workload or
   * its ReplicaSets can meet it, so none of them waits for a batch of Pod and Event lines.
   */
  readonly partialSuccess?: boolean;
  /**
   * An observation: object upserts/deletes, and `synced` once every kind it needs was listed and
   * its watch accepted (so a permission problem surfaces before `synced`, never after).
   */
  onObservation(obs: Observation): void;
  /** The source failed for good (forbidden, unreachable, namespace missing); it is closed. */
  onError(err: RolloutTraceError): void;
  /**
   * The apiserver cannot be used right now (down, frozen, overloaded) and is being retried:
   * `message` says why, e.g. `waiting for the API server https://...: HTTP 503: ...; retrying until the timeout`.
   */
  onWaiting?(message: string): void;
  /** Something degrades the diagnosis without stopping the trace (e.g. RBAC refuses to list Nodes); said once. */
  onWarning?(message: string): void;
}

/** Source tunables. */
export interface SourceOptions extends KindWatcherOptions {
  /** First contact must succeed within this many seconds. Default: no bound (each tracker's timeout ends the wait). */
  firstContactSeconds?: number;
  /** Say `waiting for the API server` after this long without any successful list or watch. Default 45. */
  lostContactSeconds?: number;
  /** Longest wait for one first-contact answer (ms) before retrying. Default 4000. */
  attemptMs?: number;
  /** Clock (ms); injectable for tests. */
  now?: () => number;
  /**
   * Revisions before the Deployment list's that the Event backlog's replay starts at (see
   * backlog-replay.ts); 0: no replay. Default 5000.
   */
  replayRevisions?: number;
  /**
   * Whether the traced workloads' own Events are listed by name while the Event list is under way
   * (named-events.ts). Default true; with `replayRevisions: 0`, false makes every verdict wait
   * for the Event list.
   */
  namedEventList?: boolean;
  /** Called before each back-off pause of a list or watch (diagnostics and tests). */
  onRetry?: (kind: WatchedKind, what: string, err: unknown, delayMs: number) => void;
}
