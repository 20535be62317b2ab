/**
 * An event recorder that behaves like client-go's `record` package as the kubelet uses it:
 * events named `<object>.<hex nanos>`, source `{component: kubelet, host: <node>}`, repeats of
 * the same event become a PATCH that increments `count` (EventLogger), more than 10 different
 * messages for one reason within 10 minutes are combined (EventAggregator), and a per-object
 * token bucket (burst 25, one per 5 minutes) drops spam (EventSourceObjectSpamFilter).
 */
import type { CoreV1Api, CoreV1Event, V1ObjectReference } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

const AGGREGATE_MAX = 10;
const AGGREGATE_WINDOW_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: Date;
}

/** The reference an event is about (`fieldPath` for container events). */
export type EventRef = Required<Pick<V1ObjectReference, 'kind' | 'name'>> & V1ObjectReference;

/** Records the events of one node's kubelet (or of another component on it). */
export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly aggregates = new Map<string, { messages: Set<string>; last: number }>();
  private readonly buckets = new Map<string, { tokens: number; last: number }>();
  /** One write chain per involved object: in order per object, objects in parallel. */
  private readonly chains = new Map<string, Promise<void>>();
  private lastNanos = 0n;

  constructor(
    private readonly core: CoreV1Api,
    private readonly host: string,
    private readonly log: (line: string) => void,
    /** The Event source's component (`kubelet`; the simulated provisioner names itself). */
    private readonly component = 'kubelet',
  ) {}

  /** Records an event (asynchronously, in order). */
  event(ref: EventRef, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const now = new Date();
    const key = `${ref.kind}/${ref.namespace ?? ''}/${ref.name}/${ref.uid ?? ''}`;
    const chain = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.write(ref, type, reason, message, now))
      .catch((err) => {
        this.log(`event ${reason} for ${ref.kind} ${ref.namespace ?? ''}/${ref.name} not written: ${errorText(err)}`);
      });
    this.chains.set(key, chain);
    void chain.then(() => {
      if (this.chains.get(key) === chain) this.chains.delete(key);
    });
  }

  /** Resolves once every queued event has been written. */
  async flush(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }

  private async write(ref: EventRef, type: string, reason: string, rawMessage: string, now: Date): Promise<void> {
    const namespace = ref.namespace || 'default';
    const objectKey = [this.component, this.host, ref.kind, ref.namespace, ref.name, ref.uid, ref.apiVersion].join('');
    // EventAggregator: similar events (same reason, different messages) get combined.
    const aggregateKey = [objectKey, type, reason].join('');
    let agg = this.aggregates.get(aggregateKey);
    if (!agg || now.getTime() - agg.last > AGGREGATE_WINDOW_MS) {
      agg = { messages: new Set(), last: now.getTime() };
      this.aggregates.set(aggregateKey, agg);
    }
    agg.messages.add(rawMessage);
    agg.last = now.getTime();
    const combined = agg.messages.size >= AGGREGATE_MAX;
    const message = combined ? `(combined from similar events): ${rawMessage}` : rawMessage;
    const key = combined ? aggregateKey : [objectKey, ref.fieldPath ?? '', type, reason, rawMessage].join('\u0000');
    // EventSourceObjectSpamFilter.
    const bucket = this.buckets.get(objectKey) ?? { tokens: SPAM_BURST, last: now.getTime() };
    bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + (now.getTime() - bucket.last) / SPAM_REFILL_MS);
    bucket.last = now.getTime();
    this.buckets.set(objectKey, bucket);
    // Bounded caches, like the recorder's LRU (4096 entries).
    for (const m of [this.aggregates, this.buckets] as Map<string, unknown>[]) {
      if (m.size > 4096) m.delete(m.keys().next().value!);
    }
    if (bucket.tokens < 1) return;
    bucket.tokens -= 1;

    const previous = this.seen.get(key);
    if (previous) {
      previous.count += 1;
      try {
        await this.core.patchNamespacedEvent(
          {
            name: previous.name,
            namespace: previous.namespace,
            body: { count: previous.count, lastTimestamp: now.toISOString(), message },
          },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
        return;
      } catch (err) {
        if ((err as { code?: number }).code !== 404) throw err;
      }
    }
    const name = `${ref.name}.${this.nanosHex(now)}`;
    const body: CoreV1Event = {
      metadata: { name, namespace },
      involvedObject: { ...ref },
      reason,
      message,
      source: { component: this.component, host: this.host },
      firstTimestamp: (previous?.firstTimestamp ?? now) as unknown as Date,
      lastTimestamp: now as unknown as Date,
      count: previous?.count ?? 1,
      type,
      eventTime: undefined,
      reportingComponent: '',
      reportingInstance: '',
    };
    await this.core.createNamespacedEvent({ namespace, body });
    this.seen.set(key, { name, namespace, count: body.count!, firstTimestamp: previous?.firstTimestamp ?? now });
    if (this.seen.size > 4096) this.seen.delete(this.seen.keys().next().value!);
  }

  /** `%x` of UnixNano, kept strictly increasing so two events never share a name. */
  private nanosHex(now: Date): string {
    let nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
    if (nanos <= this.lastNanos) nanos = this.lastNanos + 1n;
    this.lastNanos = nanos;
    return nanos.toString(16);
  }
}

/** A short text for an API error (status message when there is one). */
export function errorText(err: unknown): string {
  const e = err as { code?: number; body?: unknown; message?: string };
  if (e && typeof e.body === 'string') {
    try {
      const parsed = JSON.parse(e.body) as { message?: string };
      if (parsed.message) return `${e.code}: ${parsed.message}`;
    } catch {
      /* not JSON */
    }
  }
  if (e?.body && typeof e.body === 'object' && 'message' in (e.body as object))
    return `${e.code}: ${(e.body as { message: string }).message}`;
  return e?.message ?? String(err);
}
