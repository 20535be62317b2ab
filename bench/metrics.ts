/** API requests counted by the apiserver itself (`apiserver_request_total`, namespaced LIST and WATCH). */
import { HttpMethod, type KubeConfig, RequestContext } from '@kubernetes/client-node';
import { fetch } from 'undici';

/** Namespaced LIST and WATCH requests served so far. */
export async function requestCounts(kc: KubeConfig): Promise<{ lists: number; watches: number }> {
  const url = `${kc.getCurrentCluster()?.server}/metrics`;
  const ctx = new RequestContext(url, HttpMethod.GET);
  await kc.applySecurityAuthentication(ctx);
  const res = await fetch(url, { headers: ctx.getHeaders(), dispatcher: ctx.getDispatcher() as never });
  const out = { lists: 0, watches: 0 };
  for (const line of (await res.text()).split('\n')) {
    const m = /^apiserver_request_total\{(.*)\} (\d+)/.exec(line);
    if (!m?.[1]?.includes('scope="namespace"')) continue;
    if (m[1].includes('verb="LIST"')) out.lists += Number(m[2]);
    if (m[1].includes('verb="WATCH"')) out.watches += Number(m[2]);
  }
  return out;
}
