/**
 * A Job removed after it ran (`ttlSecondsAfterFinished`): the next `pulumi up` that changes nothing
 * makes no provider call, and the trace would look for a Job that will never come back. It is
 * recognised from what the engine handed back and one read of the cluster, and passes.
 */
import { sleep } from '../cluster/index.js';
import type { Baseline, Written } from './baseline.js';
import { jobRemovedAfterItRan } from './decisions.js';
import { findWorkloads, readWorkload } from './deployment-lookup.js';
import { currentRun } from './run-state.js';

/** How often observe mode looks for a new Job while it waits for the engine's answer. */
const LOOK_EVERY_MS = 500;
/** Concurrent looks for new auto-named Jobs share one list (as baseline.ts `locate` does). */
const LIST_REUSE_MS = 250;

/**
 * The line saying that the Job ran before and is gone, when it is (see {@link jobRemovedAfterItRan});
 * undefined otherwise, and for every other kind or change. Gate mode has the write already (the
 * gate's `waitFor` holds at once); observe mode waits for whichever comes first, the engine's
 * answer or a new Job (see {@link answerUnlessCreated}).
 */
export async function jobGoneLine(
  b: Baseline,
  written: Promise<Written | null> | undefined,
  gate: boolean,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (b.plan.kind !== 'Job' || b.change !== 'create' || !written) return undefined;
  const settled = written.catch(() => undefined);
  const wrote = gate ? await settled : await answerUnlessCreated(b, settled, signal);
  if (!wrote?.uid) return undefined;
  const live = await readWorkload(b.kc, b.namespace, wrote.name, signal, 'Job').catch(() => 'unknown' as const);
  if (live === 'unknown') return undefined;
  if (!jobRemovedAfterItRan({ kind: b.plan.kind, change: b.change, writtenUid: wrote.uid, liveUidAfter: live?.metadata?.uid }))
    return undefined;
  const ttl = b.plan.ttlSecondsAfterFinished;
  const why = ttl !== undefined ? `its ttlSecondsAfterFinished (${ttl} s) removed it after it finished` : 'it was removed after it ran';
  return `Job ${b.namespace}/${wrote.name} ran in an earlier update and is gone (${why}); this update changed nothing, so there is nothing to run`;
}

/**
 * Observe mode: the engine's answer when it comes while no new Job exists; undefined once one does
 * (the provider created it: its answer comes only after its own await, and the trace follows the
 * Job meanwhile), or when cancelled. No time limit: a step that makes no provider call may be sent
 * long after the registration, queued behind its dependencies or the engine's `--parallel` workers
 * (pp pkg/resource/deploy/step_executor.go), and its answer is the stored outputs (step.go SameStep).
 */
async function answerUnlessCreated(
  b: Baseline,
  settled: Promise<Written | null | undefined>,
  signal: AbortSignal,
): Promise<Written | null | undefined> {
  const answered = settled.then((wrote) => ({ wrote }));
  while (!signal.aborted) {
    const answer = await Promise.race([answered, sleep(LOOK_EVERY_MS, signal).then(() => undefined)]);
    if (answer) return answer.wrote;
    if (await newJobExists(b, signal)) return undefined;
  }
  return undefined;
}

/** Whether a Job of the plan exists now (there was none before the update): the declared name, or a new auto-named one. */
async function newJobExists(b: Baseline, signal: AbortSignal): Promise<boolean> {
  if (b.plan.name) return !!(await readWorkload(b.kc, b.namespace, b.plan.name, signal, 'Job').catch(() => undefined));
  const found = await findWorkloads(b.kc, b.namespace, b.plan, {
    signal,
    maxAgeMs: LIST_REUSE_MS,
    cache: currentRun().lists,
    autonamedSince: b.readAt,
  }).catch(() => []);
  return found.some((d) => !b.existing.has(d.metadata?.name ?? ''));
}
