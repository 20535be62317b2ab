/**
 * The pure rollout core: observations in, typed rollout events out. No I/O, no timers, no clock
 * (time is each observation's `at`).
 *
 * Feeding it (the tracker's job): call {@link reduce} for every list/watch object change, one
 * `synced` once the initial lists of every kind are complete, a `tick` about once a second (policy
 * windows only expire on an observation), and `timeout` / `cancel` when the deadline fires or the
 * caller aborts. Stop feeding once a `verdict` event came out.
 *
 * @packageDocumentation
 */
export type * from './types.js';
export type { RolloutState, PulumiAwaitState, EmittedMemo } from './state.js';
export { initialState, reduce, problemsOf } from './reducer.js';
export { defaultPolicy, resolvePolicy, failDeadline, FAILURE_CLASSES, AUTOSCALER_GRACE_SECONDS } from './policy.js';
export { isCustomClass, customClassOf, CUSTOM_PREFIX } from './classifiers.js';
export { diagnosePod, classifyPull, parseMissing, probeHandler, probeBudgetSeconds } from './diagnose/index.js';
export type { PullKind } from './diagnose/index.js';
export { kubectlHints, type HintSubject } from './hints.js';
export { pulumiPodMessage, pulumiErrorMessages, trimImagePullMsg } from './pulumi-messages.js';
export { pulumiSucceeded, pulumiProgressMessage } from './pulumi-await.js';
export { podView, type PodView } from './pod-state.js';
export { problemLine, problemSubject } from './verdict.js';
export { resolveMaxUnavailable } from './success.js';
export { REVISION_ANNOTATION } from './k8s.js';
