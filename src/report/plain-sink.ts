/**
 * The CI log sink: append-only, one timestamped line per state change, each prefixed with
 * `namespace/name` so several Deployments interleave readably; a `still waiting: ...` line when
 * nothing changed for a while; GitHub Actions folding and annotations, or GitLab CI collapsible
 * sections, for failure details.
 */

import type { RolloutEvent, Verdict } from '../core/index.js';
import { cleanedEvent, workloadKey, workloadOf } from '../core/index.js';
import { type Palette, palette, shouldColor } from './colors.js';
import type { EventLine } from './describe-event.js';
import { formatClock } from './format-time.js';
import { formatVerdict, outcomeLabel } from './format-verdict.js';
import { errorAnnotation, escapeCommandLine, GROUP_END, groupStart, isGitHubActions } from './github.js';
import { isGitLabCi, sectionEnd, sectionStart } from './gitlab.js';
import { LinePicker } from './line-picker.js';
import { describeWaitingFor, RolloutView } from './rollout-view.js';
import { flush, onBrokenStream, realTimers, type Sink, type SinkOptions } from './sink.js';

const DEFAULT_STILL_WAITING_MS = 30_000;

/** Append-only plain text lines (see the module comment). */
export class PlainSink implements Sink {
  private readonly stream: NodeJS.WritableStream;
  private readonly now: () => number;
  private readonly c: Palette;
  private readonly github: boolean;
  private readonly gitlab: boolean;
  private readonly pulumiMessages: boolean;
  private readonly stillWaitingMs: number;
  private readonly timers;
  private readonly timer: unknown;
  private readonly view = new RolloutView();
  private readonly lines = new LinePicker();
  /** When each Deployment last got a line. */
  private readonly lastLineAt = new Map<string, number>();
  private closed = false;
  /** The stream failed (EPIPE, EIO): nothing more is written. */
  private broken = false;

  constructor(options: SinkOptions = {}) {
    const env = options.env ?? process.env;
    this.stream = options.stream ?? process.stdout;
    this.now = options.now ?? Date.now;
    this.c = palette(shouldColor(this.stream as { isTTY?: boolean }, env));
    this.github = isGitHubActions(env);
    this.gitlab = !this.github && isGitLabCi(env);
    this.pulumiMessages = options.pulumiMessages === true;
    this.stillWaitingMs = options.stillWaitingMs ?? DEFAULT_STILL_WAITING_MS;
    this.timers = options.timers ?? realTimers;
    onBrokenStream(this.stream, () => (this.broken = true));
    if (this.stillWaitingMs > 0) {
      // Check often enough that the line comes close to the promised interval.
      const every = Math.max(100, Math.min(1000, Math.floor(this.stillWaitingMs / 10)));
      this.timer = this.timers.setInterval(() => this.checkStillWaiting(), every);
    }
  }

  write(event: RolloutEvent): void {
    if (this.closed) return;
    // The tracker's events pass as they are; any other is cleaned here (docs/security.md).
    const e = cleanedEvent(event);
    const view = this.view.apply(e);
    if (e.type === 'verdict') {
      this.writeVerdict(e.verdict);
      this.lastLineAt.set(view.key, this.now());
      return;
    }
    const line = this.lines.next(view.key, e);
    if (line) this.printLine(view.key, e.at, line);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.stillWaitingMs > 0) this.timers.clearInterval(this.timer);
    if (!this.broken) await flush(this.stream);
  }

  private printLine(key: string, at: number, line: EventLine): void {
    const c = this.c;
    const text = line.level === 'warn' ? c.yellow(line.text) : line.level === 'good' ? c.green(line.text) : line.text;
    this.out([`${c.dim(formatClock(at))} ${c.cyan(key)} ${text}`]);
    this.lastLineAt.set(key, this.now());
  }

  private writeVerdict(v: Verdict): void {
    const key = workloadKey(workloadOf(v));
    const block = formatVerdict(v, { color: this.c.enabled, pulumiMessages: this.pulumiMessages });
    const [head, ...rest] = block.split('\n').map(escapeCommandLine);
    const stamp = `${this.c.dim(formatClock(v.finishedAt))} ${this.c.cyan(key)} `;
    const out: string[] = [];
    if (v.outcome !== 'succeeded' && this.github) {
      // The annotation surfaces the cause on the run page; the details fold under one group.
      const w = workloadOf(v);
      const named = `${w.kind} ${w.namespace}/${w.name}`;
      out.push(errorAnnotation(`${named} ${outcomeLabel(v)}`, v.summary));
      out.push(groupStart(`${named}: ${outcomeLabel(v)} - failure details`));
      out.push(stamp + head!, ...rest, GROUP_END);
    } else if (v.outcome !== 'succeeded' && this.gitlab && rest.length > 0) {
      // No annotations on GitLab: the section header is the summary line itself, so the cause
      // stays readable with the details folded under it.
      const name = `rollout-trace.${v.deployment.namespace}.${v.deployment.name}`;
      out.push(sectionStart(name, stamp + head!, this.now()), ...rest, sectionEnd(name, this.now()));
    } else {
      out.push(stamp + head!, ...rest);
    }
    if (!this.broken) this.stream.write(`${out.join('\n')}\n`);
  }

  /** Writes lines of cluster-derived text, none of which can act as a CI workflow command. */
  private out(lines: string[]): void {
    if (this.broken) return;
    this.stream.write(`${lines.map(escapeCommandLine).join('\n')}\n`);
  }

  private checkStillWaiting(): void {
    if (this.closed) return;
    const now = this.now();
    for (const view of this.view.deployments) {
      if (view.verdict) continue;
      const last = this.lastLineAt.get(view.key);
      if (last === undefined || now - last < this.stillWaitingMs) continue;
      this.printLine(view.key, now, { subject: 'still-waiting', text: `still waiting: ${describeWaitingFor(view)}`, level: 'info' });
    }
  }
}
