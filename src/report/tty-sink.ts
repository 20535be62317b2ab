/**
 * The terminal sink: an ora spinner whose text is the live rollout tree, redrawn in place. When a
 * Deployment gets its verdict its final tree and the verdict block are printed above the spinner
 * (ora's stop-persist-restart pattern), so finished Deployments scroll up and stay readable.
 *
 * Whatever the terminal does, drawing stays bounded: the live frame is cut to the screen (a size
 * of 0 or nonsense counts as 80x24, see terminal.ts), redrawn at most every
 * {@link MIN_RENDER_INTERVAL_MS} on events (ora's own timer animates in between), re-fitted on
 * resize, and a terminal that goes away (EPIPE, EIO) stops all drawing without an error.
 */
import ora, { type Ora } from 'ora';
import type { RolloutEvent } from '../core/index.js';
import { cleanedEvent } from '../core/index.js';
import { type Palette, palette, shouldColor } from './colors.js';
import { formatVerdict } from './format-verdict.js';
import { RolloutView } from './rollout-view.js';
import { flush, onBrokenStream, type Sink, type SinkOptions } from './sink.js';
import { fitFrame, LiveStream, terminalSize } from './terminal.js';
import { renderTree } from './tree.js';

/** Events redraw the live frame at most this often; changes in between show at ora's next tick. */
export const MIN_RENDER_INTERVAL_MS = 100;
/** Narrower terminals get no live frame (the spinner alone would wrap), only the final trees and verdicts. */
export const MIN_LIVE_COLUMNS = 4;

type TerminalStream = NodeJS.WritableStream & { columns?: number; rows?: number };

/** Live tree on an interactive terminal (see the module comment). */
export class TtySink implements Sink {
  private readonly stream: TerminalStream;
  private readonly out: LiveStream;
  private readonly now: () => number;
  private readonly c: Palette;
  private readonly pulumiMessages: boolean;
  private readonly spinner: Ora;
  private readonly view = new RolloutView();
  /** Deployments drawn by the spinner (no verdict yet, or watched past it). */
  private readonly live = new Set<string>();
  private readonly stopWatching: () => void;
  private readonly onResize = () => this.redraw(true);
  private lastRender = Number.NEGATIVE_INFINITY;
  private closed = false;

  constructor(options: SinkOptions = {}) {
    const env = options.env ?? process.env;
    this.stream = options.stream ?? process.stdout;
    this.out = new LiveStream(this.stream);
    this.now = options.now ?? Date.now;
    this.c = palette(shouldColor(this.stream as { isTTY?: boolean }, env));
    this.pulumiMessages = options.pulumiMessages === true;
    this.spinner = ora({
      stream: this.out as unknown as NodeJS.WriteStream,
      isEnabled: true,
      // Ctrl-C must reach the CLI's SIGINT handler, so stdin stays untouched.
      discardStdin: false,
      color: this.c.enabled ? 'cyan' : false,
    });
    this.stopWatching = onBrokenStream(this.stream, () => this.broken());
    this.stream.on('resize', this.onResize);
  }

  write(event: RolloutEvent): void {
    if (this.closed || this.out.broken) return;
    // The tracker's events pass as they are; any other is cleaned here (docs/security.md).
    const e = cleanedEvent(event);
    const view = this.view.apply(e);
    if (e.type === 'verdict') {
      this.live.delete(view.key);
      this.persist(
        `${renderTree(view, this.c)}\n${formatVerdict(e.verdict, { color: this.c.enabled, pulumiMessages: this.pulumiMessages })}`,
      );
    } else {
      this.live.add(view.key);
    }
    this.redraw(e.type === 'verdict');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stream.off('resize', this.onResize);
    const pending = [...this.live].map((key) => this.view.deployments.find((d) => d.key === key)!);
    this.live.clear();
    this.spinner.stop();
    for (const view of pending) {
      view.watchingAfterVerdict = false; // the watch is over: the header shows the phase again
      this.out.write(`${renderTree(view, this.c)}\n`);
    }
    this.stopWatching();
    if (!this.out.broken) await flush(this.stream);
  }

  /** The terminal is gone: stop drawing for good; tracking goes on to its verdict. */
  private broken(): void {
    this.out.broken = true;
    this.spinner.stop();
    this.stream.off('resize', this.onResize);
    // Later failed writes must not become uncaught 'error' events either.
    this.stream.on('error', () => undefined);
  }

  private persist(block: string): void {
    if (this.spinner.isSpinning) this.spinner.stop();
    this.out.write(`${block}\n\n`);
  }

  /** Sets the spinner's frame; draws it now unless one was drawn less than the minimum interval ago. */
  private redraw(now = false): void {
    if (this.closed || this.out.broken) return;
    const size = terminalSize(this.stream);
    if (this.live.size === 0 || size.columns < MIN_LIVE_COLUMNS) {
      if (this.spinner.isSpinning) this.spinner.stop();
      return;
    }
    const trees = this.view.deployments.filter((d) => this.live.has(d.key)).map((d) => renderTree(d, this.c));
    // ora puts the spinner before the first line; indent the rest under it.
    this.spinner.text = fitFrame(trees.join('\n').replace(/\n/g, '\n  '), size);
    const at = this.now();
    if (!this.spinner.isSpinning) this.spinner.start();
    else if (now || at - this.lastRender >= MIN_RENDER_INTERVAL_MS) this.spinner.render();
    else return;
    this.lastRender = at;
  }
}
