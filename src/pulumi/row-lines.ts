/**
 * The lines a trace logs on its own row in `pulumi up`: each non-tracker line once (like the
 * provider's de-duplicating logger), the live lines picked for non-interactive runs
 * (compact-lines.ts), and every line sent only once the trace's component is registered.
 */
import * as pulumi from '@pulumi/pulumi';
import { CompactLines, nonInteractive } from './compact-lines.js';
import { outputValue } from './outputs.js';
import type { StatusLine } from './status-lines.js';

/** The lines of one trace's row. */
export class RowLines {
  /** Lines already sent. */
  private readonly said = new Set<string>();
  /** Log writes still on their way to the engine (a cancel waits for them). */
  private readonly sending = new Set<Promise<void>>();
  /** Non-interactive runs: picks the live lines (at most about 30). */
  private readonly compact: CompactLines | undefined;
  /** Settles once the component is registered (its URN is known). */
  private readonly urnKnown: Promise<unknown>;

  constructor(
    private readonly resource: pulumi.Resource,
    compactLines: boolean | undefined,
  ) {
    this.urnKnown = outputValue(resource.urn).catch(() => undefined);
    this.compact = (compactLines ?? nonInteractive(process.env)) ? new CompactLines() : undefined;
  }

  /**
   * Logs a line on the row. `fromTracker` lines were already chosen by LogLines (one per state
   * change; an application's repeated log line is news): never dropped as repeats. Other lines
   * (preview, summaries) are said once.
   */
  say(line: StatusLine, ephemeral = true, fromTracker = false): void {
    const key = `${line.severity}\u0000${ephemeral}\u0000${line.text}`;
    if (!fromTracker && this.said.has(key)) return;
    this.said.add(key);
    const picked = fromTracker && this.compact ? this.compact.next(line) : line;
    if (!picked) return;
    const log = picked.severity === 'warn' ? pulumi.log.warn : pulumi.log.info;
    // The SDK sends every log call in order on one chain, each waiting for its resource's URN: a
    // line joins the chain only once this component is registered, so a trace whose registration
    // is queued never holds back the lines of the others.
    const sent = this.urnKnown.then(() => log(picked.text, this.resource, undefined, ephemeral)).catch(() => undefined);
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  /** Settles once every line sent so far reached the engine. */
  drained(): Promise<unknown> {
    return Promise.all([...this.sending]);
  }
}
