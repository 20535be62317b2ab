/**
 * The kubelet status manager's write loop for one pod (pkg/kubelet/status/status_manager.go): the
 * pod worker only marks the status dirty; the writer builds the LATEST status at write time and
 * sends it, and a write that fails (an apiserver outage, a refused or reset connection) is retried
 * with back-off until one lands. The real manager re-syncs every 10 s; the back-off below tops
 * out there too. A status is never lost, so a pod can not stay ContainerCreating forever because
 * one write fell into an outage.
 */

import { errorText } from './events.js';

/** Tunables of a {@link StatusWriter}. */
export interface StatusWriterOptions {
  /** First retry delay (ms). Default 500. */
  initialMs?: number;
  /** Longest retry delay (ms): the real status manager's re-sync period. Default 10 000. */
  maxMs?: number;
  /** Diagnostic lines (first failure of a streak, and the write that finally landed). */
  log?: (line: string) => void;
  /** What is written, for log lines (`status of pod ns/name`). */
  what?: string;
}

/** Serialized writes of the latest status, retried until they land. */
export class StatusWriter {
  private chain: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private readonly initialMs: number;
  private readonly maxMs: number;

  /** `attempt` builds the latest status and writes it (or skips it when unchanged); it throws when the write failed. */
  constructor(
    private readonly attempt: () => Promise<void>,
    private readonly opts: StatusWriterOptions = {},
  ) {
    this.initialMs = opts.initialMs ?? 500;
    this.maxMs = opts.maxMs ?? 10_000;
  }

  /** Writes the latest status now (after any write in flight). Resolves after this attempt, whatever its outcome. */
  write(): Promise<void> {
    this.chain = this.chain.then(() => this.once());
    return this.chain;
  }

  /** Writes still owed (a retry is scheduled). */
  get pending(): boolean {
    return this.retryTimer !== undefined;
  }

  /** Stops retrying (the pod left the node). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async once(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.attempt();
      if (this.failures > 0) this.opts.log?.(`${this.opts.what ?? 'status'} written after ${this.failures} failed attempt(s)`);
      this.failures = 0;
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    } catch (err) {
      if (this.failures === 0) this.opts.log?.(`${this.opts.what ?? 'status'} not written, retrying until it lands: ${errorText(err)}`);
      this.failures++;
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.failures - 1, 20));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.write();
    }, delay);
  }
}
