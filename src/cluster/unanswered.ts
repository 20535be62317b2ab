/**
 * Requests still waiting for their answer (the status line and headers), by API server. A request
 * sent into a connection that went silent (an apiserver frozen, a NAT or load balancer that dropped
 * the flow, a proxy that lost it) waits out its own timeout even after the apiserver answers again
 * on a fresh connection. Once a probe on a fresh connection answered after an outage
 * (reachability.ts), {@link resendUnanswered} sends every older request again at once, each on a
 * connection of its own; the caller of the request sees nothing but the answer, a little later.
 *
 * An open stream (a watch, a followed log) is answered: it is not kept here. Its silence is told
 * apart from a quiet stream only by its inactivity timeout, or by the source after an outage
 * (NamespaceSource resumes the watches that heard nothing since the outage began).
 */

/** One request waiting for its answer. */
interface Waiting {
  /** When it was (last) sent (epoch ms). */
  sentAt: number;
  /** Sends it again on a fresh connection and forgets the silent one. */
  resend(): void;
}

const waiting = new Map<string, Set<Waiting>>();

/** A request of {@link awaitAnswer}: tell it when it was answered or ended. */
export interface AwaitedRequest {
  /** It was sent again (now). */
  resent(): void;
  /** It was answered, failed or was aborted: it is no longer waited for. */
  settled(): void;
}

/**
 * Keeps a request to `server` (an origin, `https://host:port`) sent now until it settles;
 * `resend` is called when {@link resendUnanswered} finds it still unanswered.
 */
export function awaitAnswer(server: string, resend: () => void): AwaitedRequest {
  const entry: Waiting = { sentAt: Date.now(), resend };
  const set = waiting.get(server) ?? new Set<Waiting>();
  waiting.set(server, set);
  set.add(entry);
  return {
    resent: () => {
      entry.sentAt = Date.now();
    },
    settled: () => {
      set.delete(entry);
      if (set.size === 0 && waiting.get(server) === set) waiting.delete(server);
    },
  };
}

/** Sends again every request to `server` sent before `sentBefore` and still unanswered; returns how many. */
export function resendUnanswered(server: string, sentBefore: number): number {
  const silent = [...(waiting.get(server) ?? [])].filter((w) => w.sentAt < sentBefore);
  for (const w of silent) w.resend();
  return silent.length;
}

/** When the oldest request to `server` sent at `since` or later and still unanswered was sent (undefined: none). */
export function oldestUnanswered(server: string, since = 0): number | undefined {
  let oldest: number | undefined;
  for (const w of waiting.get(server) ?? []) if (w.sentAt >= since && (oldest === undefined || w.sentAt < oldest)) oldest = w.sentAt;
  return oldest;
}

/** The origin requests to `server` (a kubeconfig cluster's `server` URL) are kept under. */
export function serverOrigin(server: string): string {
  try {
    return new URL(server).origin;
  } catch {
    return server;
  }
}
