/**
 * Renders recorded LogRequests the way `pulumi up --non-interactive` (the CI display) shows them:
 * each message re-prints its resource's row (`+` on create, no symbol when the resource was in
 * the state already) with the message in the Info column (first line
 * only; `warning: ` / `error: ` prefixes), and the final Diagnostics section lists only the
 * permanent (non-ephemeral) messages grouped per resource. Ephemeral messages never reach it.
 */
import type { LogRecord } from './engine.js';

function typeAndName(urn: string): { type: string; name: string } {
  if (!urn) return { type: 'pulumi:pulumi:Stack', name: 'rollout-trace-test-dev' };
  const parts = urn.split('::');
  const type = (parts[2] ?? '').split('$').pop() ?? '';
  return { type, name: parts[3] ?? '' };
}

const PREFIX = ['debug: ', '', 'warning: ', 'error: '];

/**
 * The row's operation symbol as the display draws it: `+` for a resource the run creates (not in
 * the state before it), none for one it leaves as it is (a trace component is never updated).
 */
export function rowSymbol(urn: string, existing: Set<string> | undefined): string {
  return existing?.has(urn) ? ' ' : '+';
}

/** The transcript: progress rows, then Diagnostics. */
export function renderTranscript(
  logs: LogRecord[],
  opts: { startedAt: number; title?: string; existing?: Set<string> } = { startedAt: 0 },
): string {
  const shown = logs.filter((l) => l.severity > 0);
  const out: string[] = [];
  out.push(opts.title ?? 'Updating (dev):');
  out.push('     Type                                   Name                    Status      Info');
  for (const l of shown) {
    const { type, name } = typeAndName(l.urn);
    const secs = opts.startedAt ? `${Math.max(0, Math.round((l.at - opts.startedAt) / 1000))}s` : '';
    const first = l.message.split('\n')[0];
    out.push(
      ` ${rowSymbol(l.urn, opts.existing)}   ${type.padEnd(38)} ${name.padEnd(23)} ${`(${secs})`.padEnd(11)} ${PREFIX[l.severity]}${first}`,
    );
  }
  const permanent = shown.filter((l) => !l.ephemeral);
  if (permanent.length) {
    out.push('', 'Diagnostics:');
    const byUrn = new Map<string, LogRecord[]>();
    for (const l of permanent) byUrn.set(l.urn, [...(byUrn.get(l.urn) ?? []), l]);
    for (const [urn, list] of byUrn) {
      const { type, name } = typeAndName(urn);
      out.push(`  ${type} (${name}):`);
      for (const l of list) {
        const [first, ...rest] = l.message.split('\n');
        out.push(`    ${PREFIX[l.severity]}${first}`);
        for (const line of rest) out.push(`    ${line}`);
        out.push('');
      }
    }
  }
  return out.join('\n');
}
