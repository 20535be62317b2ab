/**
 * rollout-trace in a Pulumi program (`rollout-trace/pulumi`).
 *
 * - Observe mode ({@link traceDeployments}, {@link tracedDeployment}): the kubernetes provider's
 *   await stays in charge; rollout-trace streams live ReplicaSet/pod lines into `pulumi up` while
 *   it runs and leaves a permanent summary on failure.
 * - Gate mode ({@link gatedDeployment}, or `traceDeployments({ mode: 'gate' })`): the Deployment
 *   gets `pulumi.com/skipAwait: "true"` and rollout-trace owns the await, failing within seconds
 *   with the full diagnosis.
 * - Preview: never writes or waits; reports whether the planned change starts a new rollout.
 * @module
 */
export { traceDeployments, tracedDeployment, gatedDeployment, withSkipAwait, rolloutOf, type TracedDeployment } from './deployments.js';
export {
  RolloutTrace,
  ROLLOUT_TRACE_TYPE,
  type RolloutTraceArgs,
  type RolloutResult,
  type ChangeKind,
  type ProviderSettings,
} from './rollout-trace.js';
export type { TraceOptions, TraceMode, TraceOutcome } from './options.js';
export { statusLine, StatusLines, type StatusLine } from './lines.js';
export { templateChanges, describeChange, type TemplateChange, type TemplateChangeOptions } from './template-diff.js';
export { planFromInputs, SKIP_AWAIT, type PlannedDeployment } from './plan.js';
