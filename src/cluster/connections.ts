/**
 * One connection pool per kubeconfig. client-node 2.0.1 builds a new undici Agent for every
 * request (`applySecurityAuthentication` → `createDispatcher`), so every list page, read and watch
 * opened its own TLS connection: a handshake each (the 45,000-Event backlog's 90 pages: 90 of
 * them), and several per start-up. Here the first request's Agent is kept for the kubeconfig and
 * every later request of it (lists, reads, watches) goes through that Agent (keep-alive: idle
 * connections are reused).
 * Headers (tokens, which an exec plugin may refresh) are still applied per request.
 */
import type { KubeConfig, RequestContext } from '@kubernetes/client-node';

type Dispatcher = ReturnType<RequestContext['getDispatcher']>;

const pools = new WeakMap<KubeConfig, { dispatcher: Dispatcher }>();

/** `kc.applySecurityAuthentication(ctx)`, then the kubeconfig's shared Agent as the dispatcher. */
export async function authenticate(kc: KubeConfig, ctx: RequestContext): Promise<void> {
  await kc.applySecurityAuthentication(ctx);
  let pool = pools.get(kc);
  if (!pool) {
    pool = { dispatcher: ctx.getDispatcher() };
    pools.set(kc, pool);
  }
  if (pool.dispatcher) ctx.setDispatcher(pool.dispatcher);
}
