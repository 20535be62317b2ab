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

export { fetchLogTail, type KubeConfigSource, loadKubeConfig } from './cluster/index.js';
export {
  customClassOf,
  defaultPolicy,
  diagnosePod,
  FAILURE_CLASSES,
  initialState,
  isCustomClass,
  kubectlHints,
  pulumiSucceeded,
  type RolloutState,
  reduce,
  resolvePolicy,
} from './core/index.js';
export { compileLogFilter, type LogFilter, type LogFilterOptions, REDACTED, redactLine } from './core/log-filter.js';
export type * from './core/types.js';
export { isRolloutTraceError, RolloutTraceError, type RolloutTraceErrorCode } from './errors.js';
export {
  assertSucceeded,
  createSink,
  type FormatVerdictOptions,
  formatVerdict,
  isRolloutFailedError,
  JSON_SCHEMA_VERSION,
  type JsonLine,
  JsonSink,
  MemorySink,
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
} from './track/index.js';
