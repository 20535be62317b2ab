/**
 * The pure rollout core: observations in, typed rollout events out. No I/O, no timers, no clock
 * (time is each observation's `at`).
 *
 * Feeding it (the tracker's job): call {@link reduce} for every list/watch object change (or
 * {@link reduceBatch} for several that came together), one `synced` once the initial lists of every kind are complete, a `tick` about once a second (policy
 * windows only expire on an observation), and `timeout` / `cancel` when the deadline fires or the
 * caller aborts. Stop feeding once a `verdict` event came out.
 *
 * @packageDocumentation
 */

export { CUSTOM_PREFIX, customClassOf, isCustomClass } from './classifiers.js';
export {
  cleanClusterText,
  cleanEvent,
  cleanedEvent,
  cleanedVerdict,
  clusterTextCleaner,
  escapeCommandLine,
  MAX_TEXT_CHARS,
  sanitizeText,
} from './cluster-text.js';
export { revisionOfWorkload, successLogContainers } from './current-pods.js';
export type { PullKind } from './diagnose/index.js';
export { classifyPull, diagnosePod, parseMissing, probeBudgetSeconds, probeHandler } from './diagnose/index.js';
export { formatDuration, formatWindow } from './format-duration.js';
export { type HintSubject, kubectlHints } from './hints.js';
export { currentPodsKey, idleTick, ticksMatterAfter } from './idle-tick.js';
export { nodeReadiness } from './intake.js';
export { ownerOfKind, REVISION_ANNOTATION, revisionOf } from './k8s.js';
export {
  collectionPath,
  KIND_BY_OMISSION,
  KIND_FACTS,
  KIND_FEATURES,
  type KindFacts,
  type KindFeature,
  kindSpelled,
  ownsItsPods,
  WORKLOAD_KINDS,
  workloadKey,
  workloadOf,
} from './kinds/facts.js';
export { featuresAsked, kindRefusal } from './kinds/features.js';
export { kindModule } from './kinds/index.js';
export { jobCounts, jobRule } from './kinds/job.js';
export type { KindModule } from './kinds/module.js';
export { compileLogFilter, type LogFilter, type LogFilterOptions, REDACTED, redactLine } from './log-filter.js';
export { type LogTarget, logTargets } from './log-targets.js';
export { type PodView, podView } from './pod-state.js';
export { AUTOSCALER_GRACE_SECONDS, defaultPolicy, FAILURE_CLASSES, failDeadline, failureClassNamed, resolvePolicy } from './policy.js';
export { pulumiProgressMessage, pulumiSucceeded, replicaSetReadiness } from './pulumi-await.js';
export { pulumiErrorMessages, pulumiPodMessage, trimImagePullMsg } from './pulumi-messages.js';
export { isQuotaRefusal } from './quota-holders.js';
export { initialState, problemsOf, reduce, reduceBatch } from './reducer.js';
export { type EmittedMemo, type PulumiAwaitState, type RolloutState, watchedOn } from './state.js';
export { resolveMaxUnavailable } from './success.js';
export { dominantWords, goDurationSeconds, PHASE_WORDS, podTiming, rolloutTimings } from './timings.js';
export type * from './types.js';
export { problemLine, problemSubject } from './verdict.js';
export type { Workload } from './workloads.js';
export { SUCCESS_LOG_PODS } from './workloads.js';
