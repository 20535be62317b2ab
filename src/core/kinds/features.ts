/**
 * Which of a trace's options have a meaning for its kind ({@link KIND_FACTS}): an option that has
 * none is refused in one sentence, never ignored.
 */
import type { PolicyOverrides, SuccessCriterion } from '../policy-types.js';
import type { WorkloadKind } from '../types.js';
import { KIND_FACTS, type KindFeature } from './facts.js';

/** The options of a trace that depend on its kind. */
export interface KindOptions {
  policy?: PolicyOverrides | undefined;
  baselineRevision?: string | undefined;
  logsOnSuccess?: boolean | undefined;
  pulumiMessages?: boolean | undefined;
}

/** How an option is named to its user: the library's name, then the CLI's flag. */
const NAMES: Record<KindFeature, string> = {
  'success-percent': 'a success share (policy.success percent, --success N%)',
  'success-pods': 'a success count (policy.success pods, --success N)',
  'success-max-unavailable': 'success maxUnavailable (policy.success, --success maxUnavailable)',
  settle: 'settleSeconds (policy.settleSeconds, --settle)',
  'baseline-revision': 'baselineRevision',
  'logs-on-success': 'logs.onSuccess (--logs-on-success)',
  'pulumi-messages': '--pulumi-messages',
};

const SUCCESS_FEATURE: Record<Exclude<SuccessCriterion['mode'], 'full'>, KindFeature> = {
  percent: 'success-percent',
  pods: 'success-pods',
  maxUnavailable: 'success-max-unavailable',
};

/** The kind-dependent features `options` ask for. */
export function featuresAsked(options: KindOptions): KindFeature[] {
  const asked: KindFeature[] = [];
  const mode = options.policy?.success?.mode;
  if (mode !== undefined && mode !== 'full') asked.push(SUCCESS_FEATURE[mode]);
  if (options.policy?.settleSeconds !== undefined) asked.push('settle');
  if (options.baselineRevision !== undefined) asked.push('baseline-revision');
  if (options.logsOnSuccess === true) asked.push('logs-on-success');
  if (options.pulumiMessages === true) asked.push('pulumi-messages');
  return asked;
}

/**
 * The one-sentence refusal of the first option of `options` that has no meaning for `kind`
 * (undefined when every one has), e.g. `settleSeconds (policy.settleSeconds, --settle) has no
 * meaning for a Job (job/migrate): a Job succeeds when its pods have ended, …`.
 */
export function kindRefusal(kind: WorkloadKind, name: string, options: KindOptions): string | undefined {
  for (const feature of featuresAsked(options)) {
    const why = KIND_FACTS[kind].features[feature];
    if (why === true) continue;
    const article = /^[AEIOU]/.test(kind) ? 'an' : 'a';
    const ref = `${KIND_FACTS[kind].short}/${name}`;
    return `${NAMES[feature]} has no meaning for ${article} ${kind} (${ref}): ${why}. Leave it out, or trace ${ref} in a call of its own without it.`;
  }
  return undefined;
}
