/**
 * A slowed control plane, for the stress run (`npm run stress -- --slow`): what a busy cluster
 * node, a shared control plane or a slow link does to every client at once. Every client of the
 * cluster (the tests, the trace, the controller-manager, the scheduler and the simulated kubelet)
 * reaches the apiserver through a delaying TCP forwarder ({@link startDelayingLink}), and etcd is
 * stopped for a slice of every period ({@link paceProcess}), so that writes, lists and the watch
 * events they cause come late, and each connection's late by its own amount.
 */
import net from 'node:net';
import { signalGroup } from './processes.js';

/** How a slowed control plane is slowed. */
export interface SlowControlPlane {
  /** Delay added to every chunk of bytes between a client and the apiserver, in each direction (ms). */
  latencyMs: number;
  /** A random extra delay of up to this many ms per chunk; the bytes of one connection keep their order. */
  jitterMs: number;
  /** etcd is stopped (SIGSTOP) for this many ms of every {@link etcdPeriodMs} (0: never). */
  etcdPauseMs: number;
  /** The period of etcd's pauses (ms). */
  etcdPeriodMs: number;
}

/** The slowing of `npm run stress -- --slow`: 30-150 ms each way, etcd stopped 150 ms of every 500 ms. */
export const DEFAULT_SLOW: SlowControlPlane = { latencyMs: 30, jitterMs: 120, etcdPauseMs: 150, etcdPeriodMs: 500 };

/** A running delaying forwarder. */
export interface DelayingLink {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** Stops accepting and destroys every connection. */
  close(): Promise<void>;
}

/**
 * Forwards `from`'s bytes to `to`, each chunk `delay()` ms later than it came but never before the
 * chunk ahead of it; `from` ending ends `to` after the last chunk, and `from` closing destroys it.
 */
function delayedPipe(from: net.Socket, to: net.Socket, delay: () => number): void {
  // One queue and one timer per direction: timers due at the same time may run in any order.
  const queue: Array<{ at: number; chunk: Buffer | 'end' | 'close' }> = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    setTimeout(drain, Math.max(0, (queue[0]?.at ?? 0) - Date.now()));
  };
  const drain = () => {
    scheduled = false;
    while (queue.length > 0 && (queue[0]?.at ?? 0) <= Date.now()) {
      const { chunk } = queue.shift()!;
      if (to.destroyed) continue;
      if (chunk === 'close') to.destroy();
      else if (chunk === 'end') to.end();
      else to.write(chunk);
    }
    if (queue.length > 0) schedule();
  };
  const later = (chunk: Buffer | 'end' | 'close') => {
    queue.push({ at: Math.max(queue.at(-1)?.at ?? 0, Date.now() + delay()), chunk });
    if (!scheduled) schedule();
  };
  from.on('data', (chunk: Buffer) => later(chunk));
  from.on('end', () => later('end'));
  from.on('close', () => later('close'));
}

/**
 * A TCP forwarder on 127.0.0.1 to `target` that delays every chunk in both directions by
 * `latencyMs` plus up to `jitterMs`. TLS passes through untouched (the apiserver's certificate
 * names 127.0.0.1, whatever the port).
 */
export async function startDelayingLink(target: { host: string; port: number }, slow: SlowControlPlane): Promise<DelayingLink> {
  const sockets = new Set<net.Socket>();
  const delay = () => slow.latencyMs + Math.random() * slow.jitterMs;
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect({ ...target, allowHalfOpen: true });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy()); // its 'close' closes the other side after its last chunk
    }
    delayedPipe(client, upstream, delay);
    delayedPipe(upstream, client, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Stops the process `pid()` names (its group) for `pauseMs` of every `periodMs`, until the
 * returned function is called (which lets it run). `pid()` is read at each pause, so a restarted
 * component is paced too.
 */
export function paceProcess(pid: () => number | undefined, pauseMs: number, periodMs: number): () => void {
  if (pauseMs <= 0) return () => {};
  let paused: number | undefined;
  let thawTimer: NodeJS.Timeout | undefined;
  const timer = setInterval(() => {
    paused = pid();
    if (paused === undefined) return;
    signalGroup(paused, 'SIGSTOP');
    thawTimer = setTimeout(() => {
      if (paused !== undefined) signalGroup(paused, 'SIGCONT');
      paused = undefined;
    }, pauseMs);
  }, periodMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    clearTimeout(thawTimer);
    if (paused !== undefined) signalGroup(paused, 'SIGCONT');
    paused = undefined;
  };
}
