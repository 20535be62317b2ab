/**
 * The kubelet's HTTPS endpoint for container logs, as the apiserver calls it for `pods/log`:
 * `GET /containerLogs/{ns}/{pod}/{container}?tailLines=&previous=&timestamps=&follow=&limitBytes=&sinceSeconds=&sinceTime=`.
 * Error texts are the kubelet's (validateContainerLogStatus, getContainerLogs).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { servingCert } from './cert.js';
import { rfc3339Nano } from './logs.js';
import type { PodWorker } from './pod-worker.js';
import type { ContainerRuntime, Instance } from './runtime.js';
import { current } from './runtime.js';

/** Finds a pod of this node by namespace and name. */
export type PodLookup = (namespace: string, name: string) => PodWorker | undefined;

/** Starts the log server on 127.0.0.1 (random port); resolves with the server and its port. */
export async function startLogServer(lookup: PodLookup): Promise<{ server: Server; port: number }> {
  const { key, cert } = servingCert();
  const server = createServer({ key, cert }, (req, res) => handle(req, res, lookup));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

function handle(req: IncomingMessage, res: ServerResponse, lookup: PodLookup): void {
  const url = new URL(req.url ?? '/', 'https://127.0.0.1');
  if (url.pathname === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('ok');
    return;
  }
  const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (req.method !== 'GET' || !m) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
    return;
  }
  const [namespace, podName, containerName] = m.slice(1).map(decodeURIComponent);
  const worker = lookup(namespace, podName);
  if (!worker) return fail(res, 404, `pod "${podName}" does not exist`);
  const container = worker.allContainers().find((c) => c.name === containerName);
  if (!container) return fail(res, 404, `container "${containerName}" not found in pod "${podName}"`);
  const q = url.searchParams;
  const previous = q.get('previous') === 'true';
  const chosen = chooseInstance(container, podName, previous, worker.initContainers.length > 0);
  if (typeof chosen === 'string') return fail(res, 400, chosen);
  const tailParam = q.get('tailLines') ?? q.get('tail');
  const tail = tailParam && tailParam !== 'all' ? Number(tailParam) : undefined;
  const timestamps = q.get('timestamps') === 'true';
  const follow = q.get('follow') === 'true';
  const limitBytes = q.get('limitBytes') ? Number(q.get('limitBytes')) : undefined;
  const since = q.get('sinceTime')
    ? new Date(q.get('sinceTime')!).getTime()
    : q.get('sinceSeconds')
      ? Date.now() - Number(q.get('sinceSeconds')) * 1000
      : undefined;

  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  let written = 0;
  let sent = 0;
  const format = (i: number) => {
    const l = chosen.logs[i];
    return timestamps ? `${rfc3339Nano(l.time)} ${l.text}\n` : `${l.text}\n`;
  };
  const emit = (from: number): boolean => {
    for (let i = from; i < chosen.logs.length; i++) {
      if (since !== undefined && chosen.logs[i].time.getTime() < since) continue;
      let text = format(i);
      if (limitBytes !== undefined) {
        if (written >= limitBytes) return false;
        text = Buffer.from(text)
          .subarray(0, limitBytes - written)
          .toString();
      }
      written += Buffer.byteLength(text);
      res.write(text);
    }
    sent = chosen.logs.length;
    return limitBytes === undefined || written < limitBytes;
  };
  const start = tail !== undefined && Number.isFinite(tail) ? Math.max(0, chosen.logs.length - tail) : 0;
  const more = emit(start);
  if (!follow || chosen.finishedAt || !more) {
    res.end();
    return;
  }
  const listener = () => {
    const ok = emit(sent);
    if (chosen.finishedAt || !ok) close();
  };
  const close = () => {
    chosen.listeners.delete(listener);
    res.end();
  };
  chosen.listeners.add(listener);
  req.on('close', () => chosen.listeners.delete(listener));
}

/** validateContainerLogStatus: which instance's log to serve, or the kubelet's error text. */
function chooseInstance(c: ContainerRuntime, podName: string, previous: boolean, hasInit: boolean): Instance | string {
  const last = current(c);
  const prev = c.instances.length > 1 ? c.instances[c.instances.length - 2] : undefined;
  // lastState.terminated as containerStatus() reports it.
  const lastState = !last ? undefined : !last.finishedAt ? prev : c.waiting ? last : prev;
  if (previous) {
    return lastState ?? `previous terminated container "${c.name}" in pod "${podName}" not found`;
  }
  if (last) return last;
  switch (c.waiting?.reason) {
    case 'ErrImagePull':
      return `container "${c.name}" in pod "${podName}" is waiting to start: image can't be pulled`;
    case 'ImagePullBackOff':
      return `container "${c.name}" in pod "${podName}" is waiting to start: trying and failing to pull image`;
    default:
      return `container "${c.name}" in pod "${podName}" is waiting to start: ${c.waiting?.reason ?? (hasInit ? 'PodInitializing' : 'ContainerCreating')}`;
  }
}

function fail(res: ServerResponse, code: number, message: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' }).end(message);
}
