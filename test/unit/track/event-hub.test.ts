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

describe("EventHub 'until-first-listener'", () => {
  it('hands the first listener what came before it, then keeps no history', () => {
    const hub = new EventHub<number>('until-first-listener');
    hub.push(1);
    hub.push(2);
    const first: number[] = [];
    hub.subscribe((e) => first.push(e));
    hub.push(3);
    const late: number[] = [];
    hub.subscribe((e) => late.push(e));
    hub.push(4);
    assert.deepEqual(first, [1, 2, 3, 4]);
    assert.deepEqual(late, [4], 'no history after the first listener');
  });

  it('an async iterator keeps the history from then on', async () => {
    const hub = new EventHub<number>('until-first-listener');
    hub.subscribe(() => undefined);
    hub.push(1);
    const it = hub[Symbol.asyncIterator]();
    hub.push(2);
    hub.push(3);
    hub.end();
    const seen: number[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) seen.push(r.value);
    assert.deepEqual(seen, [2, 3]);
  });

  it("the default ('all') replays everything to every late consumer", () => {
    const hub = new EventHub<number>();
    hub.push(1);
    hub.subscribe(() => undefined);
    hub.push(2);
    const late: number[] = [];
    hub.subscribe((e) => late.push(e));
    assert.deepEqual(late, [1, 2]);
  });
});
