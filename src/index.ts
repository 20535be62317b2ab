/**
 * rollout-trace: follow a Kubernetes Deployment rollout with Pulumi's success predicate and get a
 * precise verdict (which pod, which container, why, last logs, events, kubectl hints).
 *
 * This is the whole public API (pinned by test/unit/public-api.test.ts):
 * - {@link trackRollout} / {@link trackRollouts}: the tracker (typed event stream + verdict);
 *   {@link trackWorkload}: the same for a Deployment, StatefulSet, DaemonSet or Job.
 * - {@link createSink}, {@link pipeToSink} and the sinks: render the stream for a TTY, CI logs or
 *   JSON lines, or collect it in memory; {@link formatVerdict} is the summary they print.
 * - Errors: {@link RolloutTraceError} (bad input, cluster unreachable, forbidden...) and
 *   {@link RolloutFailedError} / {@link assertSucceeded} (turn a failed verdict into a throw).
 * - The verdict, event and policy types.
 * - Pulumi integration: `import { ... } from 'rollout-trace/pulumi'`.
 *
 * The pure core (reducer, state, diagnosis) is internal: see src/core/README.md.
 *
 * @packageDocumentation
 */

export type {
  Classifier,
  ClassifierInput,
  ClassifierResult,
  ClassPolicy,
  CustomClass,
  DeploymentRef,
  EventBase,
  EventDigest,
  FailureClass,
  LogTail,
  NamespacedName,
  PodState,
  PodTiming,
  Policy,
  PolicyOverrides,
  Problem,
  ProblemClass,
  RolloutEvent,
  RolloutEventOf,
  RolloutPhase,
  RolloutTimings,
  StartPhase,
  SuccessCriterion,
  Verdict,
  WorkloadKind,
  WorkloadRef,
} from './core/index.js';
export { FAILURE_CLASSES } from './core/index.js';
export { isRolloutTraceError, RolloutTraceError, type RolloutTraceErrorCode } from './errors.js';
export {
  assertSucceeded,
  createSink,
  type FormatVerdictOptions,
  formatVerdict,
  htmlReport,
  isRolloutFailedError,
  JSON_SCHEMA_VERSION,
  type JsonLine,
  JsonSink,
  junitReport,
  MemorySink,
  markdownSummary,
  type OutputFormat,
  PlainSink,
  pipeToSink,
  RolloutFailedError,
  type RolloutFailure,
  type Sink,
  type SinkOptions,
  TtySink,
} from './report/index.js';
export {
  type LogFollowOptions,
  type LogOptions,
  type MultiTracking,
  type Tracking,
  type TrackOptions,
  trackRollout,
  trackRollouts,
  trackWorkload,
} from './track/index.js';
