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
import { authenticatedGet, type Query } from '../../../src/cluster/raw-get.js';

/** What a refused apply throws: `code` is the HTTP status, as client-node's ApiException. */
export class ApplyError extends Error {
  constructor(
    readonly code: number,
    readonly body: string,
  ) {
    super(`HTTP ${code}: ${body}`);
  }
}

type UriPath = { specUriPath(o: KubernetesObject, a: string): Promise<string> };

/** Applies `obj` (plain JSON) with field manager `manager`; resolves with the object the apiserver returned. */
export async function serverSideApply(
  kc: KubeConfig,
  api: KubernetesObjectApi,
  obj: KubernetesObject,
  manager: string,
  force: boolean,
): Promise<any> {
  // The object's URL (its kind's plural, from discovery), as client-node computes it.
  const path = await (api as unknown as UriPath).specUriPath(obj, 'patch');
  return send(kc, 'PATCH', path, { fieldManager: manager, force: force || undefined }, obj, 'application/apply-patch+yaml');
}

/** Creates `obj` (plain JSON; the apiserver names it from `metadata.generateName` when it has no name). */
export async function createObject(kc: KubeConfig, api: KubernetesObjectApi, obj: KubernetesObject, manager: string): Promise<any> {
  const path = await (api as unknown as UriPath).specUriPath(obj, 'create');
  return send(kc, 'POST', path, { fieldManager: manager }, obj, 'application/json');
}

async function send(kc: KubeConfig, method: string, path: string, query: Query, obj: unknown, contentType: string): Promise<any> {
  const { url, options } = await authenticatedGet(kc, path, query);
  const headers = { ...options.headers, 'Content-Type': contentType, Accept: 'application/json' };
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(url, { ...options, method, headers }, (res) => {
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
