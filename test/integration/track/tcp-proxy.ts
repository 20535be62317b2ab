/**
 * A fault-injecting TCP forwarder on 127.0.0.1 for network-fault tests. It sits between the
 * client and the REAL apiserver and forwards bytes verbatim (TLS passes through untouched, so the
 * client still verifies the apiserver's certificate); it never answers anything itself. Faults:
 * reset every open connection, refuse new connections, or black-hole connections (keep them open
 * but forward nothing).
 */
import net from 'node:net';

/** How new connections are treated. */
export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

interface Link {
  client: net.Socket;
  upstream?: net.Socket;
  /** Bytes are no longer forwarded in either direction. */
  holed: boolean;
}

/** A TCP forwarder to `target` with fault switches. */
export class TcpProxy {
  /** How new connections are treated. */
  mode: ProxyMode = 'forward';
  /** Accept times (ms) of every connection attempt, whatever the mode. */
  readonly attempts: number[] = [];
  /** Accept times (ms) of connections that were forwarded. */
  readonly forwarded: number[] = [];
  private readonly links = new Set<Link>();
  private readonly server: net.Server;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer({ allowHalfOpen: true }, (client) => this.accept(client));
  }

  /** Starts a proxy to `target` on 127.0.0.1, on `port` (default: an ephemeral one). */
  static async start(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(port, '127.0.0.1', resolve));
    return proxy;
  }

  /** A 127.0.0.1 port nobody listens on right now (connections to it are refused). */
  static async freePort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  /** The proxy's port. */
  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Connections open right now. */
  get open(): number {
    return this.links.size;
  }

  /** Sends a TCP RST on every open connection (both sides). Returns how many were reset. */
  resetAll(): number {
    const n = this.links.size;
    for (const link of [...this.links]) this.drop(link);
    return n;
  }

  /** Stops forwarding on every open connection while keeping it open (a dead path, not a close). */
  blackholeOpen(): number {
    for (const link of this.links) link.holed = true;
    return this.links.size;
  }

  /**
   * Closes the listener and every connection, plainly (no RST: a reset of a socket whose shutdown
   * is under way leaves a handle Node waits for at exit, see {@link abort}; a passed test file was
   * kept alive to its 900 s timeout in CI).
   */
  async close(): Promise<void> {
    for (const link of [...this.links]) {
      this.links.delete(link);
      for (const side of [link.client, link.upstream]) side?.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.attempts.push(Date.now());
    client.on('error', () => undefined);
    if (this.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const link: Link = { client, holed: this.mode === 'blackhole' };
    this.links.add(link);
    client.on('close', (hadError) => (hadError ? this.drop(link) : this.closed(link)));
    if (link.holed) {
      client.resume(); // swallow what the client sends
      return;
    }
    this.forwarded.push(Date.now());
    const upstream = net.connect({ port: this.target.port, host: this.target.host, allowHalfOpen: true });
    link.upstream = upstream;
    upstream.on('error', () => this.drop(link));
    upstream.on('close', (hadError) => (hadError ? this.drop(link) : this.closed(link)));
    client.on('data', (chunk) => {
      if (!link.holed) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!link.holed) client.write(chunk);
    });
    // An orderly close (FIN) is passed on after the bytes already forwarded, as a router would:
    // a server closing after its answer (`Connection: close`) must not lose that answer to a reset.
    client.on('end', () => {
      if (!link.holed) upstream.end();
    });
    upstream.on('end', () => {
      if (!link.holed) client.end();
    });
  }

  /** One side closed cleanly: the other ends once it has sent what it holds; the link goes with both. */
  private closed(link: Link): void {
    const sides = link.upstream ? [link.client, link.upstream] : [link.client];
    if (link.holed) return this.drop(link);
    if (sides.every((s) => s.closed)) {
      this.links.delete(link);
      return;
    }
    for (const side of sides) if (!side.closed) side.end();
  }

  private drop(link: Link): void {
    if (!this.links.delete(link)) return;
    for (const side of [link.client, link.upstream]) if (side && !side.destroyed) abort(side);
  }
}

/**
 * Closes `socket` with a TCP RST, or plainly once its side was ended (FIN sent or under way). Node
 * 22 resets with libuv's `uv_tcp_close_reset`, which refuses a socket whose shutdown is under way
 * (EINVAL); Node then counts the handle as closing although nothing closes it, and at the natural
 * exit of the process its cleanup waits for that handle for ever, spinning a core (a test file
 * whose tests all passed never ended).
 */
export function abort(socket: net.Socket): void {
  if (socket.writableEnded) socket.destroy();
  else socket.resetAndDestroy();
}
