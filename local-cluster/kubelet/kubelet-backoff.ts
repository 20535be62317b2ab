/**
 * A port of client-go's `flowcontrol.Backoff`, which the kubelet uses for both image pulls
 * (`IsInBackOffSinceUpdate`) and container restarts (`IsInBackOffSince`): per-key delay that
 * doubles on every `next()` up to `max`, and resets after 2*max of quiet.
 */
export class KubeletBackoff {
  private readonly entries = new Map<string, { backoffMs: number; lastUpdate: number }>();

  /** @param initialMs first delay (kubelet: 10 s) @param maxMs cap (kubelet: 300 s) */
  constructor(
    readonly initialMs: number,
    readonly maxMs: number,
  ) {}

  /** Current delay for `id` (0 when unknown). */
  get(id: string): number {
    return this.entries.get(id)?.backoffMs ?? 0;
  }

  /** Moves `id` to its next delay, like `Backoff.Next(id, eventTime)`. */
  next(id: string, eventTime: number, now = Date.now()): void {
    const entry = this.entries.get(id);
    if (!entry || this.expired(eventTime, entry.lastUpdate)) {
      this.entries.set(id, { backoffMs: this.initialMs, lastUpdate: now });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
    entry.lastUpdate = now;
  }

  /** True while less than the current delay has passed since `eventTime` (container restarts). */
  isInBackOffSince(id: string, eventTime: number, now = Date.now()): boolean {
    const entry = this.entries.get(id);
    if (!entry || this.expired(eventTime, entry.lastUpdate)) return false;
    return now - eventTime < entry.backoffMs;
  }

  /** True while less than the current delay has passed since the last `next()` (image pulls). */
  isInBackOffSinceUpdate(id: string, now = Date.now()): boolean {
    const entry = this.entries.get(id);
    if (!entry || this.expired(now, entry.lastUpdate)) return false;
    return now - entry.lastUpdate < entry.backoffMs;
  }

  /** Milliseconds until `isInBackOffSince(id, eventTime)` turns false. */
  remainingSince(id: string, eventTime: number, now = Date.now()): number {
    return Math.max(0, eventTime + this.get(id) - now);
  }

  /** Milliseconds until `isInBackOffSinceUpdate(id)` turns false. */
  remainingSinceUpdate(id: string, now = Date.now()): number {
    const entry = this.entries.get(id);
    return entry ? Math.max(0, entry.lastUpdate + entry.backoffMs - now) : 0;
  }

  /** Forgets `id`. */
  delete(id: string): void {
    this.entries.delete(id);
  }

  private expired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.maxMs * 2;
  }
}

/** Formats milliseconds like Go's `time.Duration.String()` ("10s", "1m20s", "5m0s", "1.5s", "350ms"). */
export function goDuration(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1000) {
    return `${trimZeros(ms.toFixed(6))}ms`;
  }
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds - hours * 3600) / 60);
  const seconds = totalSeconds - hours * 3600 - minutes * 60;
  const s = `${trimZeros(seconds.toFixed(9))}s`;
  if (hours > 0) return `${hours}h${minutes}m${s}`;
  if (minutes > 0) return `${minutes}m${s}`;
  return s;
}

function trimZeros(n: string): string {
  return n.includes('.') ? n.replace(/0+$/, '').replace(/\.$/, '') : n;
}

/**
 * When the pod worker retries a pod whose sync failed with a back-off: the real one re-queues
 * after jitter(10 s, 0.5), i.e. the back-off base; scaled together with the base.
 */
export function workerBackoffMs(backoff: KubeletBackoff): number {
  return backoff.initialMs * (1 + Math.random() * 0.5);
}
