/**
 * The failure-policy flags (`--fail-after`, `--tolerate`, `--warn-only`, `--ignore`, `--success`,
 * `--settle`) into the tracker's {@link PolicyOverrides}.
 */
import type { FailureClass, PolicyOverrides, SuccessCriterion } from '../core/index.js';
import { FAILURE_CLASSES, failureClassNamed } from '../core/index.js';
import { durationInRange, parseDuration } from './duration.js';
import { UsageError } from './usage-error.js';

/** The policy flags as parsed (repeatable ones as lists). */
export interface PolicyFlags {
  failAfter: string[];
  warnOnly: string[];
  ignore: string[];
  tolerate: string[];
  success: string | undefined;
  settle: string | undefined;
}

function failureClass(flag: string, name: string): FailureClass {
  const cls = failureClassNamed(name);
  if (!cls) throw new UsageError(`${flag} names an unknown failure class "${name}"; valid classes are ${FAILURE_CLASSES.join(', ')}.`);
  return cls;
}

/** The overrides the flags ask for, or undefined when they ask for none (the default policy). */
export function policyOverrides({ failAfter, warnOnly, ignore, tolerate, success, settle }: PolicyFlags): PolicyOverrides | undefined {
  const classes: NonNullable<PolicyOverrides['classes']> = {};
  for (const spec of failAfter) {
    const m = /^([a-z-]+)=(.+)$/.exec(spec);
    if (!m)
      throw new UsageError(
        `--fail-after "${spec}" must look like CLASS=SECONDS, e.g. --fail-after crash-loop=30 or --fail-after image-pull-transient=5m.`,
      );
    const cls = failureClass('--fail-after', m[1]!);
    const seconds = parseDuration(m[2]!);
    if (seconds === undefined)
      throw new UsageError(`--fail-after ${cls}="${m[2]}" is not a duration; use seconds or a Go-style duration such as 30s or 2m.`);
    classes[cls] = { ...classes[cls], action: 'fail', afterSeconds: durationInRange(`--fail-after ${cls}`, m[2]!, seconds) };
  }
  for (const spec of tolerate) {
    const m = /^([a-z-]+)=(.*)$/.exec(spec);
    if (!m)
      throw new UsageError(
        `--tolerate "${spec}" must look like CLASS=PODS, e.g. --tolerate crash-loop=1 (one crashing pod does not fail the rollout; two do).`,
      );
    const cls = failureClass('--tolerate', m[1]!);
    if (!/^\d{1,6}$/.test(m[2]!))
      throw new UsageError(`--tolerate ${cls}="${m[2]}" is not a number of pods; use an integer >= 0, e.g. --tolerate ${cls}=1.`);
    classes[cls] = { ...classes[cls], tolerate: Number(m[2]) };
  }
  for (const name of warnOnly) classes[failureClass('--warn-only', name)] = { action: 'warn' };
  for (const name of ignore) classes[failureClass('--ignore', name)] = { action: 'ignore' };
  const criterion = success === undefined ? undefined : successCriterion(success);
  const settleSeconds = settle === undefined ? undefined : parseDuration(settle);
  if (settle !== undefined && settleSeconds === undefined)
    throw new UsageError(`--settle "${settle}" is not a duration; use seconds or a Go-style duration such as 0, 5s or 30s.`);
  if (Object.keys(classes).length === 0 && criterion === undefined && settleSeconds === undefined) return undefined;
  return {
    ...(Object.keys(classes).length > 0 ? { classes } : {}),
    ...(criterion ? { success: criterion } : {}),
    ...(settleSeconds !== undefined ? { settleSeconds } : {}),
  };
}

function successCriterion(text: string): SuccessCriterion {
  if (text === 'full') return { mode: 'full' };
  if (text === 'maxUnavailable') return { mode: 'maxUnavailable' };
  const m = /^(\d{1,3})%$/.exec(text);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 100) return { mode: 'percent', percent: Number(m[1]) };
  if (/^\d{1,6}$/.test(text) && Number(text) >= 1) return { mode: 'pods', pods: Number(text) };
  throw new UsageError(
    `--success "${text}" is not supported; use full (Pulumi's predicate, the default), maxUnavailable, a percentage of ready pods such as 75%, or a number of ready pods such as 2.`,
  );
}

/** The parseArgs definitions of the policy flags, which `rollout-trace` and `replay` both take. */
export const POLICY_OPTIONS = {
  'fail-after': { type: 'string', multiple: true },
  'warn-only': { type: 'string', multiple: true },
  tolerate: { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
  success: { type: 'string' },
  settle: { type: 'string' },
} as const;

/** The policy flags as parseArgs returns them (the names both `rollout-trace` and `replay` take). */
export interface PolicyFlagValues {
  'fail-after'?: string[];
  'warn-only'?: string[];
  ignore?: string[];
  tolerate?: string[];
  success?: string;
  settle?: string;
}

/** {@link policyOverrides} of the parsed flag values. */
export function policyFromFlags(values: PolicyFlagValues): PolicyOverrides | undefined {
  return policyOverrides({
    failAfter: values['fail-after'] ?? [],
    warnOnly: values['warn-only'] ?? [],
    ignore: values.ignore ?? [],
    tolerate: values.tolerate ?? [],
    success: values.success,
    settle: values.settle,
  });
}
