/**
 * The CLI's batched stdout: lines of one turn leave in one write; while lines keep coming, at most
 * one write per interval; a verdict (`flushNow`) and the sinks' `flush` (an empty write) at once.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { batchedStream } from '../../../src/cli/batched-stream.js';
import { flush } from '../../../src/report/sink.js';

/** A target that records each write it gets. */
function recorder(fail?: Error): { target: Writable; writes: string[] } {
  const writes: string[] = [];
  const target = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      writes.push(chunk);
      done(fail ?? null);
    },
  });
  return { target, writes };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits until `ok()`, checking every turn, at most `ms`. */
async function until(ok: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('batchedStream', () => {
  it('writes the lines of one turn as one string on the next turn', async () => {
    const { target, writes } = recorder();
    const out = batchedStream(target, 50);
    out.write('a\n');
    out.write('b\n');
    assert.deepEqual(writes, []);
    await nextTurn();
    assert.deepEqual(writes, ['a\nb\n']);
  });

  it('while lines keep coming, holds them until the interval since the last write has passed', async () => {
    const { target, writes } = recorder();
    const out = batchedStream(target, 80);
    out.write('1\n');
    await nextTurn();
    const firstAt = performance.now();
    out.write('2\n');
    await nextTurn();
    out.write('3\n');
    await nextTurn();
    assert.deepEqual(writes, ['1\n'], 'lines within the interval are held');
    await until(() => writes.length === 2, 2000);
    assert.ok(performance.now() - firstAt >= 75, `second write ${performance.now() - firstAt} ms after the first`);
    assert.deepEqual(writes, ['1\n', '2\n3\n']);
  });

  it('flushNow writes what is held at once (a verdict does not wait for the interval)', async () => {
    const { target, writes } = recorder();
    const out = batchedStream(target, 10_000);
    out.write('1\n');
    await nextTurn();
    out.write('verdict\n');
    out.flushNow();
    assert.deepEqual(writes, ['1\n', 'verdict\n']);
    out.flushNow(); // nothing held: no empty write
    assert.equal(writes.length, 2);
  });

  it("the sinks' flush (an empty write) writes everything before it at once and resolves after it", async () => {
    const { target, writes } = recorder();
    const out = batchedStream(target, 10_000);
    out.write('1\n');
    await nextTurn();
    out.write('2\n');
    const started = performance.now();
    await flush(out);
    assert.ok(performance.now() - started < 5_000, 'flush did not wait for the interval');
    assert.equal(writes.join(''), '1\n2\n');
  });

  it("reaches the sink with the target's error", async () => {
    const { target } = recorder(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    const out = batchedStream(target, 10);
    const failed = new Promise<Error>((resolve) => out.on('error', resolve));
    out.write('x\n');
    assert.equal((await failed).message, 'write EPIPE');
  });
});
