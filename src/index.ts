/**
 * rollout-trace: follow a Kubernetes Deployment rollout with Pulumi's success predicate and get a
 * precise verdict (which pod, which container, why, last logs, events, kubectl hints).
 *
 * - {@link trackRollout} / {@link trackRollouts}: the tracker (typed event stream + verdict).
 * - {@link createSink} and the sinks: render the stream for a TTY, CI logs or JSON lines.
 * - The pure core (policy, reducer, diagnosis) for custom integrations and tests.
 * - Pulumi integration: `import { ... } from 'rollout-trace/pulumi'`.
 *
 * @packageDocumentation
 */
export {
  trackRollout,
  trackRollouts,
  type Tracking,
  type MultiTracking,
  type TrackOptions,
  type LogOptions,
  type LogFollowOptions,
} from './track/index.js';
export { compileLogFilter, redactLine, REDACTED, type LogFilter, type LogFilterOptions } from './core/log-filter.js';
export {
  createSink,
  pipeToSink,
  formatVerdict,
  MemorySink,
  PlainSink,
  JsonSink,
  TtySink,
  JSON_SCHEMA_VERSION,
  type Sink,
  type SinkOptions,
  type OutputFormat,
  type JsonLine,
  type FormatVerdictOptions,
  RolloutFailedError,
  isRolloutFailedError,
  assertSucceeded,
  type RolloutFailure,
} from './report/index.js';
export {
  defaultPolicy,
  resolvePolicy,
  initialState,
  reduce,
  diagnosePod,
  kubectlHints,
  pulumiSucceeded,
  FAILURE_CLASSES,
  isCustomClass,
  customClassOf,
  type RolloutState,
} from './core/index.js';
export type * from './core/types.js';
export { loadKubeConfig, fetchLogTail, type KubeConfigSource } from './cluster/index.js';
export { RolloutTraceError, isRolloutTraceError, type RolloutTraceErrorCode } from './errors.js';
