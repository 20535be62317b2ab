/**
 * The watch body's line splitting (src/cluster/line-watch.ts): events split across chunks, several
 * in one chunk, blank and broken lines skipped, a throwing callback skipped (as client-node's
 * Watch does); the inactivity timeout, against a local HTTP server that speaks, then falls silent.
 * The requests themselves are exercised against the real apiserver by the integration and fault
 * suites.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { type LineSkip, LineWatch, readLines } from '../../../src/cluster/line-watch.js';
import { localKubeConfig } from '../../helpers/local-kubeconfig.js';

function feed(chunks: string[], callback: (type: string, object: never) => void, skip?: LineSkip): Promise<number> {
  const body = new PassThrough();
  let heard = 0;
  readLines(body, () => heard++, callback, skip);
  return new Promise((resolve) => {
    body.on('end', () => resolve(heard));
    for (const c of chunks) body.write(c);
    body.end();
  });
}

const line = (type: string, name: string) => `${JSON.stringify({ type, object: { metadata: { name } } })}\n`;

describe('readLines', () => {
  it('parses events split across chunks and several in one chunk, in order', async () => {
    const text = line('ADDED', 'a') + line('MODIFIED', 'b') + line('DELETED', 'c');
    const seen: string[] = [];
    const chunks = [text.slice(0, 10), text.slice(10, 70), text.slice(70)];
    const heard = await feed(chunks, (type, o: { metadata: { name: string } }) => seen.push(`${type} ${o.metadata.name}`));
    assert.deepEqual(seen, ['ADDED a', 'MODIFIED b', 'DELETED c']);
    assert.equal(heard, 3, 'every chunk counts as a sign of life');
  });

  it('skips blank lines, lines that are not JSON and a callback that throws', async () => {
    const seen: string[] = [];
    await feed(
      [`\n${line('ADDED', 'a')}{"type":"MOD`, `IFIED", broken\n\n${line('ADDED', 'boom')}${line('ADDED', 'z')}`],
      (type, o: { metadata: { name: string } }) => {
        if (o.metadata.name === 'boom') throw new Error('listener failed');
        seen.push(`${type} ${o.metadata.name}`);
      },
    );
    assert.deepEqual(seen, ['ADDED a', 'ADDED z']);
  });

  it('a last line without its newline is not delivered (the stream was cut mid-event)', async () => {
    const seen: string[] = [];
    await feed([line('ADDED', 'a') + line('ADDED', 'b').trimEnd()], (type) => seen.push(type));
    assert.deepEqual(seen, ['ADDED']);
  });
});

describe('readLines with a skip', () => {
  it('hands a passed-over line as SKIPPED with the resourceVersion the skip read, and parses the rest', async () => {
    const seen: string[] = [];
    const text = line('ADDED', 'a') + line('ADDED', 'skip-me') + line('ADDED', 'b');
    await feed(
      [text],
      (type, o: { metadata: { name?: string; resourceVersion?: string } }) =>
        seen.push(`${type} ${o.metadata.name ?? o.metadata.resourceVersion}`),
      (l) => (l.includes('skip-me') ? '77' : undefined),
    );
    assert.deepEqual(seen, ['ADDED a', 'SKIPPED 77', 'ADDED b']);
  });
});

describe('LineWatch inactivity timeout', () => {
  it('keeps a watch that speaks more often than the timeout, for longer than it, then aborts it once silent', async () => {
    const TIMEOUT_MS = 1000;
    const LINES = 30; // one every 50 ms: 1.5 s of talk, past the timeout
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const talk = setInterval(() => {
        res.write(line('ADDED', `p${sent++}`));
        if (sent === LINES) clearInterval(talk); // then silence, the connection left open
      }, 50);
      res.on('close', () => clearInterval(talk));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const watch = new LineWatch(localKubeConfig(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      watch.requestTimeoutMs = TIMEOUT_MS;
      const seen: string[] = [];
      const ended = new Promise<unknown>((resolve) => {
        void watch.watch('/api/v1/pods', {}, (_type, o: { metadata: { name: string } }) => seen.push(o.metadata.name), resolve);
      });
      const err = (await ended) as DOMException;
      assert.equal(err?.name, 'TimeoutError');
      assert.equal(seen.length, LINES, 'every line came before the timeout: each chunk restarted it');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
