/**
 * The opt-in live log stream: keeps one `followLog` per started container instance of the new
 * revision (up to `maxStreams`), and hands each printable line to `emit`. Owned by the tracker,
 * which feeds it the core's log targets and stops it with the verdict.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { followLog, type LogStream } from '../cluster/log-stream.js';
import type { LogFilter } from '../core/log-filter.js';
import type { LogTarget } from '../core/log-targets.js';

/** Settings of a {@link LogFollower}. */
export interface LogFollowerSettings {
  filter: LogFilter;
  maxStreams: number;
  maxLines: number;
}

/** Attempts per instance: a log asked for right at the container start may not be readable yet. */
const MAX_ATTEMPTS = 3;

/** Streams logs of container instances; each instance is streamed once, from its first line. */
export class LogFollower {
  readonly #streams = new Map<string, LogStream>();
  /** Instances streamed to their end (or given up on). */
  readonly #done = new Set<string>();
  readonly #attempts = new Map<string, number>();
  #stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly settings: LogFollowerSettings,
    private readonly emit: (target: LogTarget, line: string) => void,
  ) {}

  /** Opens streams for targets not streamed yet, oldest pods first, within `maxStreams`. */
  sync(targets: readonly LogTarget[]): void {
    if (this.#stopped) return;
    for (const t of targets) {
      if (this.#streams.size >= this.settings.maxStreams) return;
      const key = `${t.pod}/${t.container}/${t.instance}`;
      if (this.#streams.has(key) || this.#done.has(key)) continue;
      this.#open(key, t);
    }
  }

  /** Closes every stream; nothing is emitted afterwards. */
  stop(): void {
    this.#stopped = true;
    for (const s of this.#streams.values()) s.stop();
    this.#streams.clear();
  }

  get openStreams(): number {
    return this.#streams.size;
  }

  #open(key: string, t: LogTarget): void {
    const attempt = (this.#attempts.get(key) ?? 0) + 1;
    this.#attempts.set(key, attempt);
    let count = 0;
    const stream = followLog(this.kc, this.namespace, t.pod, t.container, {
      onLine: (raw) => {
        if (this.#stopped) return;
        count++;
        if (count > this.settings.maxLines) {
          if (count === this.settings.maxLines + 1) this.emit(t, `… later lines of this instance are left out (limit ${this.settings.maxLines} lines)`);
          return;
        }
        const line = this.settings.filter(raw);
        if (line !== undefined) this.emit(t, line);
      },
      onEnd: (error) => {
        this.#streams.delete(key);
        // A refused read (container not started yet, pod gone) is tried again on a later sync.
        if (error === undefined || count > 0 || attempt >= MAX_ATTEMPTS) this.#done.add(key);
      },
    });
    if (!this.#done.has(key)) this.#streams.set(key, stream);
  }
}
