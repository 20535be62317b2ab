/**
 * The terminal sink: an ora spinner whose text is the live rollout tree, redrawn in place. When a
 * Deployment gets its verdict its final tree and the verdict block are printed above the spinner
 * (ora's stop-persist-restart pattern), so finished Deployments scroll up and stay readable.
 */
import ora, { type Ora } from 'ora';
import type { RolloutEvent } from '../core/index.js';
import { type Palette, palette, shouldColor } from './colors.js';
import { formatVerdict } from './format-verdict.js';
import { type DeploymentView, RolloutView } from './rollout-view.js';
import { flush, type Sink, type SinkOptions } from './sink.js';
import { renderTree } from './tree.js';

/** Live tree on an interactive terminal (see the module comment). */
export class TtySink implements Sink {
  private readonly stream: NodeJS.WritableStream;
  private readonly c: Palette;
  private readonly pulumiMessages: boolean;
  private readonly spinner: Ora;
  private readonly view = new RolloutView();
  /** Deployments drawn by the spinner (no verdict yet, or watched past it). */
  private readonly live = new Set<string>();
  private closed = false;

  constructor(options: SinkOptions = {}) {
    const env = options.env ?? process.env;
    this.stream = options.stream ?? process.stdout;
    this.c = palette(shouldColor(this.stream as { isTTY?: boolean }, env));
    this.pulumiMessages = options.pulumiMessages === true;
    this.spinner = ora({
      stream: this.stream as NodeJS.WritableStream & NodeJS.WriteStream,
      isEnabled: true,
      // Ctrl-C must reach the CLI's SIGINT handler, so stdin stays untouched.
      discardStdin: false,
      color: this.c.enabled ? 'cyan' : false,
    });
  }

  write(e: RolloutEvent): void {
    if (this.closed) return;
    const view = this.view.apply(e);
    if (e.type === 'verdict') {
      this.live.delete(view.key);
      this.persist(
        `${renderTree(view, this.c)}\n${formatVerdict(e.verdict, { color: this.c.enabled, pulumiMessages: this.pulumiMessages })}`,
      );
    } else {
      this.live.add(view.key);
    }
    this.redraw();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pending = [...this.live].map((key) => this.view.deployments.find((d) => d.key === key)!);
    this.live.clear();
    this.spinner.stop();
    for (const view of pending) {
      view.watchingAfterVerdict = false; // the watch is over: the header shows the phase again
      this.stream.write(`${this.finalTree(view)}\n`);
    }
    await flush(this.stream);
  }

  /** A tree printed for good (no verdict yet: the trace was stopped). */
  private finalTree(view: DeploymentView): string {
    return renderTree(view, this.c);
  }

  private persist(block: string): void {
    const spinning = this.spinner.isSpinning;
    if (spinning) this.spinner.stop();
    this.stream.write(`${block}\n\n`);
  }

  private redraw(): void {
    if (this.live.size === 0) {
      if (this.spinner.isSpinning) this.spinner.stop();
      return;
    }
    const trees = this.view.deployments.filter((d) => this.live.has(d.key)).map((d) => renderTree(d, this.c));
    // ora puts the spinner before the first line; indent the rest under it.
    this.spinner.text = trees.join('\n').replace(/\n/g, '\n  ');
    if (this.spinner.isSpinning) this.spinner.render();
    else this.spinner.start();
  }
}
