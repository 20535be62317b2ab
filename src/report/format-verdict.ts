/**
 * The final summary every sink (and the Pulumi integration) prints: krane's failure paragraphs
 * (reason in plain words, raw reason, exit code, restarts, termination message, last logs, warning
 * events, kubectl hints) for our typed {@link Verdict}.
 */

import type { EventDigest, LogTail, Problem, Verdict, WorkloadKind } from '../core/index.js';
import { cleanedVerdict, dominantWords, KIND_BY_OMISSION, KIND_FACTS, PHASE_WORDS, workloadKey, workloadOf } from '../core/index.js';
import { type Palette, palette } from './colors.js';
import { formatDuration } from './format-time.js';

/** Options for {@link formatVerdict}. */
export interface FormatVerdictOptions {
  /** Use ANSI colours. Default false. */
  color?: boolean;
  /** Append Pulumi's await messages for the same state (for parity with `pulumi up`). Default false. */
  pulumiMessages?: boolean;
  /** Include the kubectl hints. Default true. */
  hints?: boolean;
  /** Lead the first line with ✔ / ✖ / ⏱ / ◼. Default true. */
  symbol?: boolean;
}

const SYMBOLS: Record<Verdict['outcome'], string> = {
  succeeded: '✔',
  failed: '✖',
  'timed-out': '✖',
  cancelled: '◼',
};

/**
 * `ns/name` of a traced Deployment; `ns/sts/name`, `ns/ds/name`, `ns/job/name` of the other kinds.
 * @deprecated Use {@link workloadKey}.
 */
export function deploymentKey(d: { namespace: string; name: string }, kind: WorkloadKind): string {
  return workloadKey({ kind, ...d });
}

/** The heading word(s) of an outcome, krane-style. */
export function outcomeLabel(v: Verdict): string {
  switch (v.outcome) {
    case 'succeeded':
      return 'SUCCEEDED';
    case 'failed':
      return 'FAILED';
    case 'timed-out':
      if (v.timeoutSeconds === undefined) return 'TIMED OUT';
      // Say which deadline fired: the overall one, or nothing moving for a while.
      return v.timeoutKind === 'no-progress'
        ? `TIMED OUT (no progress for ${v.timeoutSeconds}s)`
        : `TIMED OUT (after ${v.timeoutSeconds}s)`;
    case 'cancelled':
      return 'CANCELLED';
  }
}

/**
 * Renders a verdict as a multi-line block (no trailing newline). Success is one or two lines
 * (revision, ready/desired, duration); failure adds one paragraph per distinct problem.
 */
export function formatVerdict(raw: Verdict, options: FormatVerdictOptions = {}): string {
  // A verdict from the tracker passes as it is; any other is cleaned here (docs/security.md).
  const verdict = cleanedVerdict(raw);
  const c = palette(options.color === true);
  const lines: string[] = [];
  const ok = verdict.outcome === 'succeeded';
  const colorOutcome = ok ? c.green : verdict.outcome === 'cancelled' ? c.yellow : c.red;
  const symbol = options.symbol === false ? '' : `${colorOutcome(SYMBOLS[verdict.outcome])} `;
  const named = workloadOf(verdict);
  lines.push(
    `${symbol}${c.bold(`${named.kind} ${named.namespace}/${named.name}`)}: ${colorOutcome(outcomeLabel(verdict))} - ${verdict.summary}`,
  );
  lines.push(`  ${figuresLine(verdict)}`);
  const time = timeLine(verdict);
  if (time) lines.push(`  ${c.dim(time)}`);
  if (ok) {
    // A Job's output on success (`--logs-on-success`), pod by pod.
    for (const log of verdict.logs ?? []) lines.push(`  ${c.bold(`Pod/${log.pod}`)}`, ...formatLog(log, c));
    return lines.join('\n');
  }

  const groups = causeFirst(groupProblems(verdict.problems), (g) => g[0]!);
  for (const group of groups) {
    lines.push('', ...formatProblem(group[0]!, group.slice(1), c));
  }
  if (options.pulumiMessages === true && verdict.pulumiMessages.length > 0) {
    lines.push('', `  ${c.bold('Pulumi would report:')}`);
    for (const m of verdict.pulumiMessages) lines.push(`    * ${m}`);
  }
  // One pod per group is enough to dig into: its hints, then the Deployment's.
  const hints = unique([...groups.flatMap((g) => g[0]!.hints), ...verdict.hints]);
  if (options.hints !== false && hints.length > 0) {
    lines.push('', `  ${c.bold('To dig further:')}`);
    for (const h of hints) lines.push(`    ${c.cyan(h)}`);
  }
  return lines.join('\n');
}

/**
 * The verdict's figures in its kind's words: `revision 2 · 3/3 ready · 3 updated · 3 available ·
 * took 12.3s`; a DaemonSet's `3/3 nodes ready`; a Job's `2/4 succeeded · 2 running · 1 failed
 * (backoffLimit 6)`, which has no revision.
 */
function figuresLine(v: Verdict): string {
  const r = v.replicas;
  const took = `took ${formatDuration(v.finishedAt - v.startedAt)}`;
  if (v.notFound) return `never found · ${took}`;
  if (v.job) {
    const j = v.job;
    const done = j.completions === undefined ? `${j.succeeded} succeeded` : `${j.succeeded}/${j.completions} succeeded`;
    return [done, `${j.active} running`, `${j.failed} failed (backoffLimit ${j.backoffLimit})`, took].join(' · ');
  }
  const parts = [
    v.revision !== undefined ? `revision ${v.revision}` : 'revision unknown',
    `${r.ready}/${r.desired} ${KIND_FACTS[v.kind ?? KIND_BY_OMISSION].per === 'nodes' ? 'nodes ' : ''}ready`,
    `${r.updated} updated`,
    `${r.available} available`,
    took,
  ];
  return parts.join(' · ');
}

/** A rollout shorter than this says nothing of where its time went: nothing was slow. */
const SLOW_ROLLOUT_MS = 10_000;
/** Nor one whose slowest phase took the pods less than this in all. */
const SLOW_PHASE_SECONDS = 5;

/**
 * Where the pods' time went, for a rollout that was slow: `where the time went: image pulls: 62 % of
 * the pods' time, 4 pods × 11 s on node-2 (waiting for a node 2 s, image pulls 44 s, container
 * starts 3 s, readiness 12 s)`. The figures are in the verdict (`timings`) whatever the pace.
 */
function timeLine(v: Verdict): string | undefined {
  const t = v.timings;
  const lead = t ? dominantWords(t) : undefined;
  if (!t?.dominant || !lead) return undefined;
  if (v.finishedAt - v.startedAt < SLOW_ROLLOUT_MS || t.phases[t.dominant.phase] < SLOW_PHASE_SECONDS) return undefined;
  const sums = (Object.keys(PHASE_WORDS) as (keyof typeof PHASE_WORDS)[]).map((ph) => `${PHASE_WORDS[ph]} ${t.phases[ph]} s`);
  return `where the time went: ${lead} (${sums.join(', ')})`;
}

/**
 * A failed Job's details lead with the pod that says why (its exit code, message and log), as its
 * summary does; the Job's condition follows. `problemOf` reads an item's problem.
 */
export function causeFirst<T>(items: T[], problemOf: (item: T) => Problem): T[] {
  if (items[0] === undefined || problemOf(items[0]).class !== 'job-failed') return items;
  const cause = items.findIndex((item) => problemOf(item).object.kind === 'Pod');
  return cause < 1 ? items : [items[cause]!, ...items.filter((_, i) => i !== cause)];
}

/** Problems with the same cause (e.g. three pods with the same bad image) print once. */
function groupProblems(problems: Problem[]): Problem[][] {
  const groups = new Map<string, Problem[]>();
  for (const p of problems) {
    const key = [p.class, p.reason, p.container ?? '', p.explanation].join('\u0000');
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()];
}

function formatProblem(p: Problem, alsoOn: Problem[], c: Palette): string[] {
  const container = p.container !== undefined ? ` ${p.initContainer === true ? 'init container' : 'container'} "${p.container}"` : '';
  const deleted = p.podDeleted === true ? c.dim(' (deleted)') : '';
  const out = [`  ${c.red('●')} ${c.bold(`${p.object.kind}/${p.object.name}`)}${deleted}${container}: ${p.explanation}`];
  const detail = (label: string, value: string) => out.push(`      ${c.dim(label.padEnd(12))} ${value}`);
  detail('reason', p.message !== '' && p.message !== p.explanation ? `${p.reason}: ${joinLines(readableMessage(p.message))}` : p.reason);
  if (p.exitCode !== undefined) detail('exit code', String(p.exitCode));
  if (p.restartCount !== undefined && p.restartCount > 0) detail('restarts', String(p.restartCount));
  if (p.terminationMessage !== undefined && p.terminationMessage !== '') {
    detail('terminated', joinLines(p.terminationMessage));
  }
  if (p.probe) detail('probe', `${p.probe.kind} ${p.probe.handler} failed ${p.probe.failures} time(s)`);
  if (p.missing) {
    // Only names: a missing Secret's *values* are never known, let alone printed.
    detail('missing', `${p.missing.kind} "${p.missing.name}"${p.missing.key !== undefined ? ` key "${p.missing.key}"` : ''}`);
  }
  if (alsoOn.length > 0) detail('also on', alsoOn.map((q) => `${q.object.kind}/${q.object.name}`).join(', '));
  for (const log of p.logs ?? []) out.push(...formatLog(log, c));
  const events = dedupeEvents(p.events);
  if (events.length > 0) {
    out.push(`      ${c.dim('events')}`);
    for (const e of events) {
      const count = e.count > 1 ? c.dim(` (${e.count} times)`) : '';
      const type = e.type === 'Warning' ? c.yellow(e.reason) : e.reason;
      out.push(`        [${e.object}] ${type}: ${joinLines(readableMessage(e.message))}${count}`);
    }
  }
  return out;
}

function formatLog(log: LogTail, c: Palette): string[] {
  const instance = log.previous ? 'previous instance' : 'current instance';
  // Read when the problem was seen: the pod or its log was gone by the verdict.
  const which = log.capturedAt !== undefined ? `${instance}, read before the pod was deleted` : instance;
  const head = `      ${c.dim(`logs of "${log.container}" (${which}`)}`;
  if (log.error !== undefined) return [`${head}${c.dim(`): unavailable: ${joinLines(log.error)}`)}`];
  if (log.lines.length === 0) return [`${head}${c.dim('): no output')}`];
  return [
    `${head}${c.dim(`, last ${log.lines.length} line${log.lines.length === 1 ? '' : 's'})`)}`,
    ...log.lines.map((l) => `        ${c.dim('│')} ${l}`),
  ];
}

/**
 * Strips the container runtime's wrapping (`rpc error: code = Unknown desc = Error response from
 * daemon: `), as kubespy does: the rest is the registry's own words.
 */
export function readableMessage(message: string): string {
  return message.replace(/rpc error: code = \w+ desc = /g, '').replace(/Error response from daemon: /g, '');
}

/**
 * Same reason+message on the same object is one line with the highest count. The kubelet's bare
 * echo events (`Failed: Error: ErrImagePull`) are dropped when a detailed event of the same reason
 * about the same object is there.
 */
function dedupeEvents(events: EventDigest[]): EventDigest[] {
  const byKey = new Map<string, EventDigest>();
  const detailed = new Set(events.filter((e) => !/^Error: \w+$/.test(e.message)).map((e) => `${e.object}\u0000${e.reason}`));
  for (const e of events) {
    if (/^Error: \w+$/.test(e.message) && detailed.has(`${e.object}\u0000${e.reason}`)) continue;
    const key = `${e.object}\u0000${e.reason}\u0000${e.message}`;
    const seen = byKey.get(key);
    if (!seen || e.count > seen.count) byKey.set(key, e);
  }
  return [...byKey.values()].sort((a, b) => (a.type === b.type ? 0 : a.type === 'Warning' ? -1 : 1));
}

/** Keeps a multi-line message on one line: each line break shows as ` ⏎ `. */
function joinLines(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ⏎ ').trim();
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
