/**
 * The fault proxy's socket abort (test/integration/track/tcp-proxy.ts) must leave nothing open: a
 * socket reset while its shutdown is under way leaked a handle that Node's exit waited on for ever
 * (the test file's process spun a core after its tests passed). Run in a child process, which must
 * end by itself.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const proxy = fileURLToPath(new URL('../../integration/track/tcp-proxy.ts', import.meta.url));

/** A server that ends its side of each connection, then aborts it at once; the process must exit by itself. */
const child = `
import net from 'node:net';
import { abort } from ${JSON.stringify(proxy)};
const server = net.createServer({ allowHalfOpen: true }, (s) => {
  s.on('error', (e) => console.log('error', e.code));
  s.end();
  abort(s);
  server.close();
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  c.on('error', () => {});
  c.resume();
});
process.on('exit', () => console.log('TCP open at exit:', JSON.stringify(process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')))));
`;

describe('TcpProxy abort', () => {
  it('an ended socket aborted at once: no error, nothing open at exit, and the process ends', async () => {
    const run = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    run.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const ended = new Promise<number | null>((resolve) => run.on('exit', (code) => resolve(code)));
    const timer = setTimeout(() => run.kill('SIGKILL'), 20_000);
    const code = await ended;
    clearTimeout(timer);
    assert.equal(out.trim(), 'TCP open at exit: []', out);
    assert.equal(code, 0, `the process ended by itself (${out.trim()})`);
  });
});
