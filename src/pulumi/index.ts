/**
 * rollout-trace in a Pulumi program (`rollout-trace/pulumi`).
 *
 * - Observe mode ({@link traceDeployments}, {@link tracedDeployment}): the kubernetes provider's
 *   await stays in charge; rollout-trace streams live ReplicaSet/pod lines into `pulumi up` while
 *   it runs and leaves a permanent summary on failure.
 * - Gate mode ({@link gatedDeployment}, or `traceDeployments({ mode: 'gate' })`): the Deployment
 *   gets `pulumi.com/waitFor` on its name (the provider returns once it is written, and keeps its
 *   delete wait) and rollout-trace owns the await, failing within seconds with the full diagnosis.
 * - Every workload kind ({@link traceWorkloads}): StatefulSets, DaemonSets and Jobs too, in either
 *   mode, with the same lines and failure summary.
 * - Preview: never writes or waits; reports whether the planned change starts a new rollout.
 * @module
 */
export {
  type ChangeKind,
  type CustomTimeouts,
  chooseTimeout,
  GATE_WAIT_FOR,
  gateAnnotations,
  type TimeoutChoice,
  waitTarget,
} from './decisions.js';
export {
  gatedDeployment,
  rolloutOf,
  type TracedDeployment,
  traceDeployments,
  tracedDeployment,
  traceWorkloads,
  withGateAwait,
  withSkipAwait,
} from './deployments.js';
export type { TraceMode, TraceOptions, TraceOutcome } from './options.js';
export { type PlannedDeployment, planFromInputs, SKIP_AWAIT, WAIT_FOR } from './plan.js';
export { RELEASE_TRACE_TYPE, ReleaseTrace, type ReleaseTraceArgs } from './release-trace.js';
export {
  type ProviderSettings,
  ROLLOUT_TRACE_TYPE,
  type RolloutResult,
  RolloutTrace,
  type RolloutTraceArgs,
} from './rollout-trace.js';
export { type ComponentRollout, type ComponentRollouts, rolloutsOf } from './rollouts-of.js';
export { type StatusLine, StatusLines, statusLine } from './status-lines.js';
export { describeChange, type TemplateChange, type TemplateChangeOptions, templateChanges } from './template-diff.js';
