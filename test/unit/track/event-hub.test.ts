import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventHub } from '../../../src/track/event-hub.js';

describe('EventHub', () => {
  it('replays history to late listeners and iterators, and ends', async () => {
    const hub = new EventHub<number>();
    const a: number[] = [];
    hub.subscribe((e) => a.push(e));
    hub.push(1);
    const b: number[] = [];
    hub.subscribe((e) => b.push(e));
    const it1 = (async () => {
      const out: number[] = [];
      for await (const e of { [Symbol.asyncIterator]: () => hub[Symbol.asyncIterator]() }) out.push(e);
      return out;
    })();
    hub.push(2);
    await new Promise((r) => setTimeout(r, 5));
    hub.push(3);
    hub.end();
    hub.push(4);
    assert.deepEqual(a, [1, 2, 3]);
    assert.deepEqual(b, [1, 2, 3]);
    assert.deepEqual(await it1, [1, 2, 3]);
    const late: number[] = [];
    for await (const e of { [Symbol.asyncIterator]: () => hub[Symbol.asyncIterator]() }) late.push(e);
    assert.deepEqual(late, [1, 2, 3]);
  });

  it('iterators throw the error after draining', async () => {
    const hub = new EventHub<number>();
    hub.push(1);
    hub.end(new Error('boom'));
    const seen: number[] = [];
    await assert.rejects(async () => {
      for await (const e of { [Symbol.asyncIterator]: () => hub[Symbol.asyncIterator]() }) seen.push(e);
    }, /boom/);
    assert.deepEqual(seen, [1]);
  });

  it('a throwing listener does not stop the others', () => {
    const hub = new EventHub<number>();
    const seen: number[] = [];
    const orig = process.emitWarning;
    const warnings: string[] = [];
    process.emitWarning = ((w: string) => warnings.push(String(w))) as typeof process.emitWarning;
    try {
      hub.subscribe(() => {
        throw new Error('sink broke');
      });
      hub.subscribe((e) => seen.push(e));
      hub.push(7);
    } finally {
      process.emitWarning = orig;
    }
    assert.deepEqual(seen, [7]);
    assert.match(warnings[0] ?? '', /sink broke/);
  });
});
