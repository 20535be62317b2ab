/**
 * What the provider's write did to the workload, as the trace learns it (I/O around decisions.ts
 * `writeEffect`): gate mode from the provider's answer, right after its write; observe mode, for a
 * replacement the spec comparison expects, from the cluster (another uid under the name, or the
 * provider handing back the same object).
 */
import { type Baseline, replacementSeen, type Written } from './baseline.js';
import { type WriteEffect, writeEffect } from './decisions.js';

/** The write's effect, what the provider answered (gate mode), and the baseline as the write showed it. */
export async function whatWasWritten(
  gate: boolean,
  declared: Baseline,
  written: Promise<Written | null> | undefined,
  signal: AbortSignal,
): Promise<{ wrote: Written | null | undefined; effect: WriteEffect; baseline: Baseline }> {
  const wrote = gate && written ? await written.catch(() => undefined) : undefined;
  let effect = writeEffect(declared.change, declared.liveFacts, wrote);
  // Observe: a replacement is said once it is seen (a new uid), not from the spec comparison.
  if (!gate && written && declared.change === 'replace' && (await replacementSeen(declared, written, signal)) === false) {
    effect = 'nothing-changed';
  }
  return { wrote, effect, baseline: afterWrite(declared, effect) };
}

/** The baseline as the write showed it: what the spec comparison said, unless the write says otherwise. */
function afterWrite(declared: Baseline, effect: WriteEffect): Baseline {
  if (effect === 'as-declared') return declared;
  return { ...declared, change: effect === 'replaced' ? 'replace' : 'unchanged' };
}
