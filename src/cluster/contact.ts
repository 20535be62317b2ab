/**
 * A shared source's contact with its apiserver: the first contact (retried until it answers or
 * gives up), then a check that some list or watch keeps answering. What is waited for, and why,
 * is told to the subscribers as a notice, once per outage.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { retryReason } from './api-errors.js';
import { checkReachable } from './reachability.js';
import type { SourceOptions } from './subscriber.js';

/** A list or watch that keeps failing for this long (ms) since the last answer is announced. */
const RETRY_NOTICE_MS = 5000;

/** The contact of one source; see the module comment. */
export class ContactMonitor {
  /** Why the apiserver is being waited for right now (undefined while it answers). */
  notice: string | undefined;
  private ready = false;
  private lastContact: number;
  private timer: NodeJS.Timeout | undefined;
  private error: unknown;
  private readonly startup = new AbortController();

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly options: SourceOptions,
    private readonly now: () => number,
    /** Tells every subscriber a new notice. */
    private readonly tellAll: (message: string) => void,
  ) {
    this.lastContact = now();
  }

  /** The apiserver's address, as the notices name it. */
  get server(): string {
    return this.kc.getCurrentCluster()?.server ?? '(no server)';
  }

  /** The first contact: resolves once the apiserver answered; rejects with the RolloutTraceError that ends it. */
  async first(): Promise<void> {
    const server = this.server;
    await checkReachable(this.kc, this.namespace, {
      ...(this.options.firstContactSeconds !== undefined ? { timeoutSeconds: this.options.firstContactSeconds } : {}),
      ...(this.options.attemptMs !== undefined ? { attemptMs: this.options.attemptMs } : {}),
      signal: this.startup.signal,
      onFailure: (err) => {
        this.error = err ?? new Error('no answer');
      },
      onWaiting: (reason) => this.tell(`waiting for the API server ${server}: ${reason}; retrying until the timeout`),
    });
    if (this.startup.signal.aborted) return;
    this.ready = true;
    this.notice = undefined;
    this.lastContact = this.now();
    this.watchSilence();
  }

  /** True when the first contact failed at least once before the apiserver answered. */
  get firstRetried(): boolean {
    return this.error !== undefined;
  }

  /** The last failure of a first contact still being retried (undefined once the apiserver answered). */
  get firstFailure(): unknown {
    if (this.ready) return undefined;
    return this.error ?? new DOMException('no answer yet', 'TimeoutError');
  }

  /** A list or watch answered. */
  heard(): void {
    this.lastContact = this.now();
    if (this.ready) this.notice = undefined;
  }

  /** A list or watch is being retried after `err`: said once it has failed for a while. */
  retried(what: string, err: unknown): void {
    // Before the first answer, the first contact says what is waited for.
    if (this.ready && this.notice === undefined && this.now() - this.lastContact > RETRY_NOTICE_MS) {
      this.tell(`waiting for the API server ${this.server}: ${what}: ${retryReason(err, 0)}; retrying until the timeout`);
    }
  }

  /** Stops the first contact and the silence check. */
  stop(): void {
    this.startup.abort();
    if (this.timer) clearInterval(this.timer);
  }

  private tell(message: string): void {
    this.notice = message;
    this.tellAll(message);
  }

  /**
   * A watch that only fails (or hangs on a frozen apiserver) is retried for ever; after a while
   * without any answer, say so once per outage. Each tracker's timeout still ends the wait.
   */
  private watchSilence(): void {
    const lostMs = (this.options.lostContactSeconds ?? 45) * 1000;
    this.timer = setInterval(
      () => {
        const silentMs = this.now() - this.lastContact;
        if (silentMs > lostMs && this.notice === undefined) {
          this.tell(
            `waiting for the API server ${this.server}: no list or watch of namespace "${this.namespace}" answered for ${Math.round(silentMs / 1000)} s; retrying until the timeout`,
          );
        }
      },
      Math.min(5000, lostMs / 4),
    );
    this.timer.unref();
  }
}
