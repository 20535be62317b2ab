/**
 * A Job removed after it ran (`ttlSecondsAfterFinished`): the next `pulumi up` that changes nothing
 * makes no provider call, and the trace would look for a Job that will never come back. It is
 * recognised from what the engine handed back and one read of the cluster, and passes.
 */
import { sleep } from '../cluster/index.js';
import type { Baseline, Written } from './baseline.js';
import { jobRemovedAfterItRan } from './decisions.js';
import { readWorkload } from './deployment-lookup.js';

/**
 * How long observe mode waits for what the engine handed back: at once when it made no provider
 * call; after the provider's own await when it created the Job (then the trace goes on as usual).
 */
const SAME_STEP_MS = 1000;

/**
 * The line saying that the Job ran before and is gone, when it is (see {@link jobRemovedAfterItRan});
 * undefined otherwise, and for every other kind or change. Gate mode has the write already;
 * observe mode looks only at an answer that comes at once.
 */
export async function jobGoneLine(
  b: Baseline,
  written: Promise<Written | null> | undefined,
  gate: boolean,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (b.plan.kind !== 'Job' || b.change !== 'create' || !written) return undefined;
  const settled = written.catch(() => undefined);
  const wrote = gate ? await settled : await Promise.race([settled, sleep(SAME_STEP_MS, signal).then(() => undefined)]);
  if (!wrote?.uid) return undefined;
  const live = await readWorkload(b.kc, b.namespace, wrote.name, signal, 'Job').catch(() => 'unknown' as const);
  if (live === 'unknown') return undefined;
  if (!jobRemovedAfterItRan({ kind: b.plan.kind, change: b.change, writtenUid: wrote.uid, liveUidAfter: live?.metadata?.uid }))
    return undefined;
  const ttl = b.plan.ttlSecondsAfterFinished;
  const why = ttl !== undefined ? `its ttlSecondsAfterFinished (${ttl} s) removed it after it finished` : 'it was removed after it ran';
  return `Job ${b.namespace}/${wrote.name} ran in an earlier update and is gone (${why}); this update changed nothing, so there is nothing to run`;
}
