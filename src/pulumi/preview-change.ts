/**
 * What a preview says the update does to a workload whose declared replicas differ from the live
 * ones. pk's Diff compares the new inputs with its checkpoint (the object as its last write or
 * refresh left it, pruned to the old inputs: pk provider/pkg/provider/provider.go L1486-1494,
 * `parseCheckpointObject`, `pruneLiveState`), not with the live object: after an HPA or
 * `kubectl scale` changed the live replicas, unchanged declared replicas are no diff, and the
 * provider writes nothing. The engine then takes a same step, which hands back the stored outputs
 * in a preview too (pp pkg/resource/deploy/step.go SameStep): their generation is older than the
 * live one, which the outside scale bumped. That is decisions.ts `writeEffect`'s "nothing
 * written", read here from the engine's preview of the workload.
 */
import type { Baseline, Written } from './baseline.js';
import { writeEffect } from './decisions.js';

/**
 * The baseline a preview reports: a `scale` that the engine's preview of the workload shows the
 * provider will not write (its stored outputs, older than the live object) is `unchanged`.
 * `written` is what the engine answered for the workload in this preview (undefined: not known).
 */
export async function previewChange(
  declared: Baseline | undefined,
  written: Promise<Written | null> | undefined,
): Promise<Baseline | undefined> {
  if (declared?.change !== 'scale' || !written) return declared;
  const answered = await written.catch(() => undefined);
  return writeEffect(declared.change, declared.liveFacts, answered) === 'nothing-changed' ? { ...declared, change: 'unchanged' } : declared;
}
