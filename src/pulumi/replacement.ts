/**
 * Whether the provider replaces a live workload instead of updating it, and why (pure): the
 * fields whose change pk cannot update (provider/pkg/provider/diff.go `forceNew`, plan.ts
 * `REPLACED_ON`), compared as the program declares them, and a Job not complete that carries
 * `pulumi.com/replaceUnready: "true"` (pk provider.go Diff, `metadata.ReplaceUnready`: Jobs only).
 */
import type { LiveDeployment } from './decisions.js';
import type { PlannedDeployment } from './plan.js';
import { parseQuantity } from './quantity.js';
import type { TemplateChange } from './template-diff.js';

/** Annotation that makes the provider replace a Job that is not complete on the next update. */
export const REPLACE_UNREADY = 'pulumi.com/replaceUnready';

/**
 * Whether the live value agrees with what the program declares: every declared field (deep) has
 * the same value live; fields the apiserver defaulted (and the program left out) do not count.
 */
export function declaredAgrees(declared: unknown, live: unknown): boolean {
  if (Array.isArray(declared)) {
    return Array.isArray(live) && live.length === declared.length && declared.every((d, i) => declaredAgrees(d, live[i]));
  }
  if (declared !== null && typeof declared === 'object') {
    if (live === null || typeof live !== 'object') return false;
    return Object.entries(declared).every(([k, v]) => v === undefined || declaredAgrees(v, (live as Record<string, unknown>)[k]));
  }
  return declared === live || sameQuantity(declared, live);
}

/** Two spellings of one Kubernetes quantity (`1024Mi` and `1Gi`, `0.5` and `500m`): the apiserver keeps its own. */
function sameQuantity(a: unknown, b: unknown): boolean {
  const quantity = (q: unknown) => (typeof q === 'string' || typeof q === 'number' ? parseQuantity(q) : undefined);
  const [x, y] = [quantity(a), quantity(b)];
  return x !== undefined && y !== undefined && x.nanos === y.nanos;
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {}).sort();
  const kb = Object.keys(b ?? {}).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a?.[k] === b?.[k]);
}

/**
 * Why the provider replaces the live object, if it does: `selector`, one of its kind's
 * replacement fields (`serviceName`, `parallelism`...), for a Job its `pod template`, which
 * cannot be updated, or `replaceUnready` (a Job not complete that carries {@link REPLACE_UNREADY}).
 */
export function replacementCause(plan: PlannedDeployment, live: LiveDeployment, changes: readonly TemplateChange[]): string | undefined {
  if (plan.selector && !sameLabels(plan.selector, live.selector)) return 'selector';
  for (const [field, value] of Object.entries(plan.replacedOn ?? {})) if (!declaredAgrees(value, live.replacedOn?.[field])) return field;
  if (changes.length > 0 && plan.kind === 'Job') return 'pod template';
  // pk checks the Job's readiness (started and Complete) whatever else changed.
  if (plan.kind === 'Job' && plan.annotations[REPLACE_UNREADY] === 'true' && live.complete === false) return 'replaceUnready';
  return undefined;
}

/** The changed field in words, for the lines and the preview (`spec.serviceName`); not for `replaceUnready`. */
export function replacementWords(cause: string | undefined, kind: string): string {
  if (cause === undefined) return kind === 'Job' ? 'pod template' : 'selector';
  return cause === 'selector' || cause === 'pod template' ? cause : `spec.${cause}`;
}
