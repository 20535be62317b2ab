/**
 * The opt-in live log stream: keeps one `followLog` per started container instance of the new
 * revision (up to `maxStreams`), and hands each printable line to `emit`. Owned by the tracker,
 * which feeds it the core's log targets and stops it with the verdict.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { followLog, type LogStream } from '../cluster/index.js';
import type { LogFilter, LogTarget } from '../core/index.js';

/** Settings of a {@link LogFollower}. */
export interface LogFollowerSettings {
  filter: LogFilter;
  maxStreams: number;
  maxLines: number;
}

/** Attempts per instance: a log asked for right at the container start may not be readable yet. */
const MAX_ATTEMPTS = 3;
/** Reopenings of a stream cut mid-way (network, apiserver restart) while its instance runs. */
const MAX_RESUMES = 5;

/** How long the verdict waits for the logs of instances that ended before their stream delivered them (ms). */
const DRAIN_MS = 5000;
const DRAIN_POLL_MS = 50;

function keyOf(t: LogTarget): string {
  return `${t.pod}/${t.container}/${t.instance}`;
}

/** How far an instance's stream got: where a reopened stream picks up without repeating lines. */
interface Progress {
  /** Lines received (before filtering), for `maxLines`. */
  lines: number;
  /** The latest line's kubelet timestamp, normalized to sort as text. */
  lastTime?: string;
  /** Lines received with exactly `lastTime`. */
  atLastTime: number;
  attempts: number;
  resumes: number;
}

/** `2026-11-23T08:00:05.12Z` → `2026-11-23T08:00:05.120000000Z` (comparable as text); undefined if not UTC. */
export function comparableTime(time: string): string | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(time);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}Z` : undefined;
}

/** Streams logs of container instances; each instance is streamed once, from its first line. */
export class LogFollower {
  private readonly streams = new Map<string, LogStream>();
  /** Instances streamed to their end (or given up on). */
  private readonly done = new Set<string>();
  private readonly progress = new Map<string, Progress>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private targets: readonly LogTarget[] = [];
  private stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly namespace: string,
    private readonly settings: LogFollowerSettings,
    private readonly emit: (target: LogTarget, line: string) => void,
  ) {}

  /** Opens streams for targets not streamed yet (or cut mid-way), oldest pods first, within `maxStreams`. */
  sync(targets: readonly LogTarget[]): void {
    if (this.stopped) return;
    this.targets = targets;
    for (const t of targets) {
      if (this.streams.size >= this.settings.maxStreams) return;
      const key = keyOf(t);
      if (this.streams.has(key) || this.done.has(key)) continue;
      this.open(key, t);
    }
  }

  /**
   * Before the verdict: reads to their end the instances among `targets` that have ended (a Job
   * whose pods fail within a second ends before a loaded machine opens their streams), for at most
   * {@link DRAIN_MS} and `maxStreams` instances; opens no stream of a running instance. The
   * tracker stops the follower next.
   */
  async drain(targets: readonly LogTarget[]): Promise<void> {
    if (this.stopped) return;
    // Within the stream bound: the first instances that ended, as `sync` would have opened them.
    const ended = targets.filter((t) => t.finished && !this.done.has(keyOf(t))).slice(0, this.settings.maxStreams);
    for (const t of ended) if (!this.streams.has(keyOf(t))) this.open(keyOf(t), t);
    const deadline = Date.now() + DRAIN_MS;
    const pending = () => ended.some((t) => this.streams.has(keyOf(t)) || this.retryable(keyOf(t)));
    while (pending() && Date.now() < deadline && !this.stopped) {
      await new Promise((r) => setTimeout(r, DRAIN_POLL_MS));
      // A read refused right at the end (not readable yet) is tried again while there is time.
      for (const t of ended) if (!this.streams.has(keyOf(t)) && this.retryable(keyOf(t))) this.open(keyOf(t), t);
    }
  }

  /** Closes every stream; nothing is emitted afterwards. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    for (const s of this.streams.values()) s.stop();
    this.streams.clear();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Not read to its end yet, and not given up on. */
  private retryable(key: string): boolean {
    return !this.done.has(key) && (this.progress.get(key)?.attempts ?? 0) < MAX_ATTEMPTS;
  }

  private open(key: string, t: LogTarget): void {
    const progress = this.progress.get(key) ?? { lines: 0, atLastTime: 0, attempts: 0, resumes: 0 };
    this.progress.set(key, progress);
    progress.attempts++;
    const resumeAfter = progress.lastTime;
    let repeatsToSkip = progress.atLastTime;
    const stream = followLog(this.kc, this.namespace, t.pod, t.container, {
      timestamps: true,
      // Its RFC3339 second: the API's sinceTime has second precision.
      ...(resumeAfter !== undefined ? { sinceTime: `${resumeAfter.slice(0, 19)}Z` } : {}),
      onLine: (raw, time) => {
        if (this.stopped) return;
        const at = time !== undefined ? comparableTime(time) : undefined;
        // A resumed stream starts at the last line's second: skip what was already delivered.
        if (resumeAfter !== undefined && at !== undefined) {
          if (at < resumeAfter) return;
          if (at === resumeAfter && repeatsToSkip > 0) {
            repeatsToSkip--;
            return;
          }
        }
        if (at !== undefined) {
          if (at === progress.lastTime) progress.atLastTime++;
          else Object.assign(progress, { lastTime: at, atLastTime: 1 });
        }
        this.deliver(t, raw, progress);
      },
      onEnd: (error) => {
        this.streams.delete(key);
        if (error === undefined) this.done.add(key);
        // A refused read (container not started yet, pod gone) is tried again on a later sync.
        else if (progress.lines === 0 && progress.attempts >= MAX_ATTEMPTS) this.done.add(key);
        // Cut mid-way while the instance may still run: resume soon, even if the cluster stays quiet.
        else if (progress.lines > 0 && ++progress.resumes > MAX_RESUMES) this.done.add(key);
        else if (progress.lines > 0) this.retrySoon(progress.resumes * 1000);
      },
    });
    if (!this.done.has(key)) this.streams.set(key, stream);
  }

  private retrySoon(ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      this.sync(this.targets);
    }, ms);
    timer.unref();
    this.retries.add(timer);
  }

  private deliver(t: LogTarget, raw: string, progress: Progress): void {
    progress.lines++;
    const max = this.settings.maxLines;
    if (progress.lines > max) {
      if (progress.lines === max + 1) this.emit(t, `… later lines of this instance are left out (limit ${max} lines)`);
      return;
    }
    const line = this.settings.filter(raw);
    if (line !== undefined) this.emit(t, line);
  }
}
