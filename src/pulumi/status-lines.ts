/**
 * Turns rollout events into the one-line status messages shown in `pulumi up`'s Info column
 * (and printed one per row line by the non-interactive display in CI). The words are the CI
 * log's (src/report/describe-event.ts), chosen by the same de-noising (src/report/line-picker.ts).
 *
 * The Info column shows only the first line of a message, so every line here is a single line.
 */
import { cleanedEvent, type RolloutEvent, workloadOf } from '../core/index.js';
import { describeEvent, type EventLine, LinePicker } from '../report/index.js';

/** A status line and the severity it is logged with. */
export interface StatusLine {
  severity: 'info' | 'warn';
  text: string;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat;
}

function toStatus(e: RolloutEvent, line: EventLine): StatusLine {
  // The Pulumi row is the component's, not the Deployment's: the first line names the Deployment.
  const w = workloadOf(e);
  const text = e.type === 'started' ? `tracing ${w.kind} ${w.namespace}/${w.name}` : line.text;
  return { severity: line.level === 'warn' ? 'warn' : 'info', text: oneLine(text) };
}

/**
 * The status line for one event on its own, or undefined for events that are not worth a line
 * (e.g. the final verdict, which the caller reports in full). {@link StatusLines} also drops
 * lines that only repeat the previous state.
 */
export function statusLine(event: RolloutEvent): StatusLine | undefined {
  if (event.type === 'verdict') return undefined; // reported in full by the caller
  // The tracker's events pass as they are; any other is cleaned here (docs/security.md).
  const e = cleanedEvent(event);
  const line = describeEvent(e);
  return line ? toStatus(e, line) : undefined;
}

/** The status lines of one event stream: one line per real state change, like the CI log. */
export class StatusLines {
  private readonly lines = new LinePicker();

  /** The line for `e`, or undefined when it says nothing new. */
  next(event: RolloutEvent): StatusLine | undefined {
    const e = cleanedEvent(event);
    const line = this.lines.next(`${e.deployment.namespace}/${e.deployment.name}`, e);
    return line ? toStatus(e, line) : undefined;
  }
}
