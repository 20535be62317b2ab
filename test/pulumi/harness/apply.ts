/**
 * Server-side apply of a plain JSON object, as the kubernetes provider sends it (pk: the dynamic
 * client's `Apply` with the unstructured object). Not client-node's `KubernetesObjectApi.patch`:
 * that serializes the body through the typed model of the kind, which drops fields it maps under
 * other names (a probe's `exec` handler) and rewrites IntOrString values, so the stand-in would
 * apply another object than the program declared.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig, KubernetesObject, KubernetesObjectApi } from '@kubernetes/client-node';
import { authenticatedGet } from '../../../src/cluster/raw-get.js';

/** What a refused apply throws: `code` is the HTTP status, as client-node's ApiException. */
export class ApplyError extends Error {
  constructor(
    readonly code: number,
    readonly body: string,
  ) {
    super(`HTTP ${code} for server-side apply: ${body}`);
  }
}

/** Applies `obj` (plain JSON) with field manager `manager`; resolves with the object the apiserver returned. */
export async function serverSideApply(
  kc: KubeConfig,
  api: KubernetesObjectApi,
  obj: KubernetesObject,
  manager: string,
  force: boolean,
): Promise<any> {
  // The object's URL (its kind's plural, from discovery), as client-node computes it.
  const path: string = await (api as unknown as { specUriPath(o: KubernetesObject, a: string): Promise<string> }).specUriPath(obj, 'patch');
  const { url, options } = await authenticatedGet(kc, path, { fieldManager: manager, force: force || undefined });
  const headers = { ...options.headers, 'Content-Type': 'application/apply-patch+yaml', Accept: 'application/json' };
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(url, { ...options, method: 'PATCH', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(JSON.parse(text));
        else reject(new ApplyError(status, text));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(obj));
  });
}
