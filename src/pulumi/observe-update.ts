/**
 * Observe mode, for a Deployment that already exists: which rollout follows is decided by what
 * the provider writes, not by comparing the declared spec with the live one (an `ignoreChanges`
 * field, a Deployment left out by `--target`, a field that server-side apply removes, `paused`
 * flipped back: the spec comparison is wrong for each). Two traces start, both quiet:
 * - the write's trace follows only a generation newer than the baseline's: it sees the write;
 * - the live check judges the object as it is (the engine's continue-awaiting update after a
 *   failed await writes nothing, yet the provider awaits again).
 *
 * The first evidence decides: the write's trace seeing a newer generation (decisions.ts
 * `showsWrite`), or the provider returning the baseline's generation (nothing written,
 * `writeEffect`), or, for an unchanged Deployment, the live check finding it not rolled out and
 * healthy. The object deleted while the provider works (`showsDelete`), a new object of the
 * resource in the cluster (an auto-named object replaced gets a new name, and the engine deletes the
 * old one only after the program), or the provider returning another object, is a replacement the
 * spec comparison could not see (`--replace`, `replaceOnChanges`, a field pk replaces on): the trace
 * hands over to the new object. A Job's write shows in no generation (1.20 sets none), so a Job
 * has only the live check and these replacement signals.
 */
import type { RolloutEvent, Verdict } from '../core/index.js';
import { setLongTimeout } from '../long-timer.js';
import { type Baseline, newObjectSeen, type Written } from './baseline.js';
import { chooseTimeout, showsDelete, showsWrite, type TimeoutChoice, waitTarget, writeEffect } from './decisions.js';
import { readWorkload } from './deployment-lookup.js';
import type { StatusLine } from './status-lines.js';
import {
  type Followed,
  followTarget,
  quietUntilNotDone,
  type TraceWrittenArgs,
  traceWritten,
  UNCHANGED_QUIET_MS,
} from './trace-written.js';

/** What {@link observeUpdate} needs beyond {@link TraceWrittenArgs}. */
export interface ObserveUpdateArgs extends Omit<TraceWrittenArgs, 'written' | 'notDoneLine'> {
  baseline: Baseline & { live: NonNullable<Baseline['live']> };
  /** What the provider returned (observe mode: after its own await). */
  written: Promise<Written | null>;
  /** The line said when the live check finds an unchanged Deployment not rolled out and healthy. */
  notDoneLine: string;
  /** Says the first line once the write is seen; `generation` is the written one when known. */
  onWrite: (generation: number | undefined) => void;
  /** Says the first line once the object is seen deleted: the provider replaces it. */
  onReplaced: () => void;
}

/** How an observed update ended: which trace decided, and its verdict. */
export interface ObservedEnd {
  /**
   * `write`: the write changed the spec and its rollout was followed; `live`: nothing was written;
   * `replaced`: the object was deleted and the new one's rollout was followed.
   */
  via: 'write' | 'live' | 'replaced';
  verdict: Verdict;
  timeout: TimeoutChoice;
  /** `live`: the Deployment was found not rolled out and healthy and followed aloud. */
  announced: boolean;
}

/** Follows an existing Deployment in observe mode until the write decides what to trace. */
export async function observeUpdate(a: ObserveUpdateArgs): Promise<ObservedEnd> {
  const b = a.baseline;
  const name = b.live.metadata?.name ?? '';
  const timeout = chooseTimeout(a.options.timeoutSeconds, a.options.customTimeouts, b.plan, b.change);
  const byGeneration = b.plan.kind !== 'Job';
  let writeHeld: StatusLine[] | undefined = [];
  const seen = evidenceSignals();
  const write = byGeneration ? await followWrite(a, name, (l) => (writeHeld ? writeHeld.push(l) : a.say(l)), seen.onEvent) : undefined;
  // The live check: quiet. For an unchanged Deployment it may announce once the write had
  // time to show (a write usually follows the registration at once), otherwise only once the
  // provider returned the baseline's generation.
  const liveLines = quietUntilNotDone(a.say, a.notDoneLine, false);
  const arming = b.change === 'unchanged' ? setLongTimeout(() => liveLines.arm(), UNCHANGED_QUIET_MS).unref() : undefined;
  const looking = new AbortController();
  const stopLooking = () => looking.abort();
  a.signal.addEventListener('abort', stopLooking);
  let live: Followed | undefined;
  try {
    live = await followTarget(a, name, waitTarget('unchanged', b.liveFacts, undefined, b.plan.kind), liveLines.say, (e) =>
      seen.onEvent(e, false),
    );
    const liveVerdict = live.tracking.verdict;
    const newObject = newObjectSeen(b, looking.signal);
    const winner = await firstEvidence(a, { ...seen, newObject, write, liveVerdict, announced: liveLines.announced, byGeneration });
    stopLooking();
    arming?.cancel();
    if (winner === 'replaced') {
      live.tracking.stop('the object was replaced');
      write?.tracking.stop('the object was replaced');
      liveLines.stop();
      return await followReplacement(a, timeout, await (write ?? live).tracking.verdict);
    }
    if (winner === 'write' && write) {
      live.tracking.stop('the write decided');
      liveLines.stop();
      const now = await readWorkload(b.kc, b.namespace, name, undefined, b.plan.kind).catch(() => undefined);
      a.onWrite(now?.metadata?.generation);
      const held = writeHeld;
      writeHeld = undefined;
      for (const line of held) a.say(line);
      return { via: 'write', verdict: await write.tracking.verdict, timeout, announced: false };
    }
    write?.tracking.stop('nothing was written');
    liveLines.arm();
    const verdict = await liveVerdict;
    if (verdict.outcome !== 'succeeded') liveLines.announce();
    return { via: 'live', verdict, timeout, announced: liveLines.announced() };
  } finally {
    stopLooking();
    a.signal.removeEventListener('abort', stopLooking);
    arming?.cancel();
    liveLines.stop();
    write?.unsubscribe();
    live?.unsubscribe();
  }
}

/** The write's trace: it follows only a generation past the baseline's (and, for a new template, a new revision). */
function followWrite(
  a: ObserveUpdateArgs,
  name: string,
  say: (line: StatusLine) => void,
  onEvent: (e: RolloutEvent, fromWrite: boolean) => void,
): Promise<Followed> {
  const b = a.baseline;
  const target = waitTarget(b.change === 'unchanged' ? 'scale' : b.change, b.liveFacts, undefined, b.plan.kind);
  return followTarget(a, name, target, say, (e) => onEvent(e, true));
}

/** The signals the traces' events give: the object seen deleted, the write seen. */
function evidenceSignals(): Pick<Evidence, 'deleteSeen' | 'writeSeen'> & { onEvent: (e: RolloutEvent, fromWrite: boolean) => void } {
  let sawDelete!: () => void;
  let sawWrite!: () => void;
  const deleteSeen = new Promise<void>((resolve) => (sawDelete = resolve));
  const writeSeen = new Promise<void>((resolve) => (sawWrite = resolve));
  const onEvent = (e: RolloutEvent, fromWrite: boolean) => {
    if (showsDelete(e)) sawDelete();
    else if (fromWrite && showsWrite(e)) sawWrite();
  };
  return { deleteSeen, writeSeen, onEvent };
}

/** What {@link firstEvidence} races: the traces' signals and verdicts. */
interface Evidence {
  deleteSeen: Promise<void>;
  writeSeen: Promise<void>;
  /** A new object of this resource seen in the cluster (baseline.ts `newObjectSeen`). */
  newObject: Promise<string>;
  /** The write's trace; none for a Job, whose write is not seen in its generation. */
  write: Followed | undefined;
  liveVerdict: Promise<Verdict>;
  /** Whether the live check announced a rollout not done (then its verdict decides). */
  announced: () => boolean;
  byGeneration: boolean;
}

/**
 * Which trace decides, on the first evidence: the object deleted or a new object seen, or the
 * provider returning another object (`replaced`); the write seen, or the write's trace ended first,
 * cancelled or timed out (`write`); the provider returning with nothing written, or the live
 * check's verdict once it announced itself (`live`).
 */
function firstEvidence(a: ObserveUpdateArgs, e: Evidence): Promise<'replaced' | 'write' | 'live'> {
  const never = new Promise<never>(() => {});
  return Promise.race([
    e.deleteSeen.then(() => 'replaced' as const),
    e.newObject.then(() => 'replaced' as const),
    e.writeSeen.then(() => 'write' as const),
    e.write ? e.write.tracking.verdict.then(() => 'write' as const) : never,
    a.written.then(
      (w) => providerAnswer(a.baseline, w, e.byGeneration) ?? never,
      () => 'live' as const,
    ),
    e.liveVerdict.then(() => (e.announced() ? ('live' as const) : never)),
  ]);
}

/**
 * What the provider's answer decides: nothing written (`live`), another object (`replaced`), or
 * nothing yet (the write's trace decides). A Job's write shows in no generation: the same object
 * back means no Job to follow but the live one.
 */
function providerAnswer(b: ObserveUpdateArgs['baseline'], w: Written | null, byGeneration: boolean): 'live' | 'replaced' | undefined {
  if (w === null) return 'live';
  const effect = writeEffect(b.change, b.liveFacts, w);
  if (effect === 'nothing-changed') return 'live';
  if (effect === 'replaced') return 'replaced';
  if (!byGeneration && w.uid !== undefined && w.uid === b.liveFacts?.uid) return 'live';
  return undefined;
}

/**
 * The followed object was replaced while the provider works: says so, then follows the new object
 * (another uid, or a new auto-name) to its verdict; `deleted` is the old object's, kept when no new
 * object comes.
 */
async function followReplacement(a: ObserveUpdateArgs, timeout: TimeoutChoice, deleted: Verdict): Promise<ObservedEnd> {
  a.onReplaced();
  // The new object's lines are said as they come: its first rollout is no unchanged object's.
  const traced = await traceWritten({ ...a, notDoneLine: undefined, baseline: { ...a.baseline, change: 'replace' } });
  const verdict = traced.kind === 'verdict' ? traced.verdict : deleted;
  return { via: 'replaced', verdict, timeout, announced: false };
}
