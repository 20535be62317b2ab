/**
 * Per-call options for client-node's generated clients.
 */
import { Observable, type RequestContext, type ResponseContext } from '@kubernetes/client-node';

/**
 * Options that attach an AbortSignal to one API call. client-node 2.x has no per-call timeout;
 * the signal bounds first contact and cancels in-flight requests on stop.
 */
export function withSignal(signal: AbortSignal) {
  return {
    middleware: [
      {
        pre: (ctx: RequestContext) => {
          ctx.setSignal(signal);
          return new Observable(Promise.resolve(ctx));
        },
        post: (res: ResponseContext) => new Observable(Promise.resolve(res)),
      },
    ],
    middlewareMergeStrategy: 'append' as const,
  };
}
