/**
 * Cluster-supplied text made safe to print: every string that comes from the cluster (container
 * termination messages, event, condition and waiting messages, log lines...) goes through
 * {@link clusterTextCleaner} before any consumer sees it. Pure; see docs/security.md.
 *
 * - Secrets are masked (the default credential shapes of {@link redactLine}, plus the caller's patterns).
 * - Control characters are shown, not obeyed: C0 and DEL as `\x1b`, C1 (8-bit CSI...) and the
 *   Unicode line separators and bidi overrides as `\u009b`; tabs are kept. A line break (LF,
 *   CRLF) becomes ` ⏎ `, so one string is always one printed line; a bare CR is shown as `\x0d`.
 * - Text that GitHub Actions would run as a workflow command (`::error::...`, `##[...`) is escaped.
 * - Length is capped at {@link MAX_TEXT_CHARS}; a cut string ends with `… [cut: N chars]` (N: its length).
 */
import { compileLogFilter } from './log-filter.js';
import type { EventDigest, LogTail, Problem, RolloutEvent, Verdict } from './types.js';

/** The longest cluster-supplied string shown (characters, marker included). */
export const MAX_TEXT_CHARS = 2000;

/** Line breaks, with the blanks around them. */
const LINE_BREAK = /[ \t]*\r?\n[ \t]*/g;
/** C0 (but tab and LF), DEL and C1 controls. */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
/** Invisible characters that reorder or break lines: LS/PS, bidi embeddings, overrides and isolates, marks. */
const INVISIBLE = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Shows a control character as text: `\x1b` (C0, DEL) or `\u009b` (C1 and the invisible ones). */
function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * One printable line of at most `max` characters: line breaks as ` ⏎ `, controls shown as escapes,
 * cut with `… [cut: N chars]`. Idempotent: cleaning a cleaned string changes nothing.
 */
export function sanitizeText(text: string, max = MAX_TEXT_CHARS): string {
  const flat = text.replace(/(\r?\n)+$/, '').replace(LINE_BREAK, ' ⏎ ');
  const shown = escapeCommandLine(flat.replace(CONTROL, visible).replace(INVISIBLE, visible));
  return capText(shown, text.length, max);
}

/**
 * One line that GitHub Actions cannot take for a workflow command: a `::` that starts it (after
 * blanks, which the runner trims) becomes `\x3a:`, and every `##[` (the older form) `#\x23[`.
 */
export function escapeCommandLine(line: string): string {
  return line.replace(/^(\s*)::/, '$1\\x3a:').replace(/##\[/g, '#\\x23[');
}

/** `text` cut to `max` characters with a marker naming `length`, the original length. */
function capText(text: string, length: number, max: number): string {
  if (text.length <= max) return text;
  const marker = `… [cut: ${length} chars]`;
  let keep = Math.max(0, max - marker.length);
  // Never split a surrogate pair.
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep--;
  return text.slice(0, keep) + marker;
}

/**
 * The cleaner of cluster text: masks secrets (built-in shapes plus `redact`, regular expressions
 * as for `--redact`), then {@link sanitizeText}. Throws an Error naming an invalid pattern.
 */
export function clusterTextCleaner(redact: ReadonlyArray<string | RegExp> = []): (text: string) => string {
  const mask = compileLogFilter({ redact });
  return (text) => sanitizeText(mask(text) ?? text);
}

/** The default cleaner: built-in redactions and sanitising, no user patterns. */
export const cleanClusterText = clusterTextCleaner();

/** Events and verdicts {@link cleanEvent} / {@link cleanVerdict} returned (by identity: a copy is not in). */
const CLEANED = new WeakSet<RolloutEvent | Verdict>();

/**
 * `e` with `clean` applied to every cluster-supplied string it carries (messages, reasons, details,
 * log lines, termination messages, events, summaries, hints). Names validated by the API server
 * (pods, ReplicaSets, containers, nodes), numbers and enumerations are kept as they are. The
 * result is remembered as clean: {@link cleanedEvent} passes it through.
 */
export function cleanEvent(e: RolloutEvent, clean: (text: string) => string): RolloutEvent {
  const out = cleanFields(e, clean);
  CLEANED.add(out);
  return out;
}

/**
 * What a sink renders: `e` itself when it came through the boundary ({@link cleanEvent}: the
 * tracker), else `e` cleaned with the built-in rules (a hand-made or replayed event). Constant time
 * for the tracker's events. An event changed after it was cleaned is not looked at again.
 */
export function cleanedEvent(e: RolloutEvent): RolloutEvent {
  return CLEANED.has(e) ? e : cleanEvent(e, cleanClusterText);
}

/** {@link cleanedEvent} for a verdict (`formatVerdict`). */
export function cleanedVerdict(v: Verdict): Verdict {
  return CLEANED.has(v) ? v : cleanVerdict(v, cleanClusterText);
}

function cleanFields(e: RolloutEvent, clean: (text: string) => string): RolloutEvent {
  switch (e.type) {
    case 'waiting':
    case 'phase':
    case 'progress':
      return { ...e, message: clean(e.message) };
    case 'pod':
      return e.detail === undefined ? e : { ...e, detail: clean(e.detail) };
    case 'condition':
      return { ...e, ...opt('reason', e.reason, clean), ...opt('message', e.message, clean) };
    case 'k8s-event':
      return { ...e, event: cleanDigest(e.event, clean) };
    case 'problem':
    case 'problem-cleared':
      return { ...e, problem: cleanProblem(e.problem, clean) };
    case 'log':
      return { ...e, line: clean(e.line) };
    case 'held':
    case 'note':
      return { ...e, message: clean(e.message) };
    case 'verdict':
      return { ...e, verdict: cleanVerdict(e.verdict, clean) };
    case 'started':
    case 'revision':
    case 'superseded':
    case 'replicaset':
    case 'pod-deleted':
    case 'pod-orphaned':
    case 'paused':
    case 'resumed':
    case 'scaled':
      return e;
  }
}

/** `verdict` with `clean` applied to its summary, problems, Pulumi messages and hints (remembered as clean). */
export function cleanVerdict(v: Verdict, clean: (text: string) => string): Verdict {
  const out = {
    ...v,
    summary: clean(v.summary),
    problems: v.problems.map((p) => cleanProblem(p, clean)),
    ...(v.logs ? { logs: v.logs.map((l) => cleanTail(l, clean)) } : {}),
    pulumiMessages: v.pulumiMessages.map(clean),
    hints: v.hints.map(clean),
  };
  CLEANED.add(out);
  return out;
}

function cleanProblem(p: Problem, clean: (text: string) => string): Problem {
  return {
    ...p,
    reason: clean(p.reason),
    message: clean(p.message),
    explanation: clean(p.explanation),
    ...opt('terminationMessage', p.terminationMessage, clean),
    ...(p.probe ? { probe: { ...p.probe, handler: clean(p.probe.handler) } } : {}),
    ...(p.missing ? { missing: { ...p.missing, name: clean(p.missing.name), ...opt('key', p.missing.key, clean) } } : {}),
    events: p.events.map((d) => cleanDigest(d, clean)),
    ...(p.logs ? { logs: p.logs.map((l) => cleanTail(l, clean)) } : {}),
    ...(p.node ? { node: { ...p.node, ...opt('reason', p.node.reason, clean), ...opt('message', p.node.message, clean) } } : {}),
    hints: p.hints.map(clean),
  };
}

function cleanDigest(d: EventDigest, clean: (text: string) => string): EventDigest {
  return { ...d, reason: clean(d.reason), message: clean(d.message), object: clean(d.object) };
}

function cleanTail(t: LogTail, clean: (text: string) => string): LogTail {
  return { ...t, lines: t.lines.map(clean), ...opt('error', t.error, clean) };
}

/** `{ [key]: clean(value) }`, or nothing when `value` is undefined. */
function opt<K extends string>(key: K, value: string | undefined, clean: (text: string) => string): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: clean(value) } as Record<K, string>);
}
