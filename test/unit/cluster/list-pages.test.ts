/**
 * Paged lists: the cache takes a list in page by page (only kept objects are held), and an
 * expired continue token (410) restarts the list from its first page. The apiserver side is a
 * `KindApi.listPage` stub serving pages from an array (a unit test of the pager, not a fake server;
 * the real apiserver's paging is exercised by the integration tests).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { ListIntake } from '../../../src/cluster/kind-cache.js';
import { EVENT_LIST_PAGE, EVENT_LIST_SELECTOR, type KindApi, kindApis, type ListPageOptions } from '../../../src/cluster/kinds.js';
import { EXPIRED_RESTARTS, listPages } from '../../../src/cluster/list-pages.js';
import type { KindToObject } from '../../../src/core/types.js';

type Ev = KindToObject['Event'];
const ev = (i: number, rv = '1'): Ev => ({
  metadata: { uid: `u${i}`, name: `e${i}`, resourceVersion: rv },
  involvedObject: { name: i % 10 === 0 ? 'web' : 'other' },
});

/** A listPage over `items`, `limit` a page; throws 410 for the continue tokens in `expire`. */
function pagedApi(items: Ev[], expire: Set<string>): { api: KindApi<'Event'>; calls: ListPageOptions[] } {
  const calls: ListPageOptions[] = [];
  const api: KindApi<'Event'> = {
    kind: 'Event',
    resource: 'events',
    path: () => '/api/v1/namespaces/ns/events',
    listPage: async (_ns, o) => {
      calls.push(o);
      const token = o.continueToken;
      if (token && expire.has(token)) {
        expire.delete(token);
        throw Object.assign(new Error('The provided continue parameter is too old'), { code: 410 });
      }
      const start = token ? Number(token) : 0;
      const end = start + o.limit;
      return {
        items: items.slice(start, end).map((e) => structuredClone(e)),
        resourceVersion: '42',
        continueToken: end < items.length ? String(end) : undefined,
      };
    },
  };
  return { api, calls };
}

const request = { namespace: 'ns', limit: 500, signal: new AbortController().signal };

describe('listPages', () => {
  it('holds only what is kept: 4,500 Events, pages of 500, 450 about web', async () => {
    const items = Array.from({ length: 4500 }, (_, i) => ev(i));
    const { api, calls } = pagedApi(items, new Set());
    const cache = new Map<string, Ev>();
    const upserts: Ev[] = [];
    let largestHeld = 0;
    const intake = new ListIntake<'Event'>(cache, {
      change: (type, o) => type === 'upsert' && upserts.push(o),
      keep: (o) => o.involvedObject?.name === 'web',
    });
    const rv = await listPages(
      api,
      request,
      {
        page: (p) => {
          intake.page(p);
          largestHeld = Math.max(largestHeld, p.length);
        },
        restart: () => intake.restart(),
      },
      () => false,
    );
    intake.apply();
    assert.equal(rv, '42');
    assert.equal(calls.length, 9);
    assert.equal(largestHeld, 500);
    assert.equal(cache.size, 450);
    assert.equal(upserts.length, 450);
  });

  it('an expired continue token restarts the list from its first page', async () => {
    const items = Array.from({ length: 1200 }, (_, i) => ev(i));
    const { api, calls } = pagedApi(items, new Set(['1000']));
    const cache = new Map<string, Ev>();
    const upserts: Ev[] = [];
    const intake = new ListIntake<'Event'>(cache, { change: (type, o) => type === 'upsert' && upserts.push(o) });
    const rv = await listPages(api, request, intake, () => false);
    intake.apply();
    assert.equal(rv, '42');
    assert.deepEqual(
      calls.map((c) => c.continueToken ?? 'first'),
      ['first', '500', '1000', 'first', '500', '1000'],
    );
    assert.equal(cache.size, 1200);
    assert.equal(upserts.length, 1200, 'each object once (the pages before the restart were forgotten)');
  });

  it(`gives up after ${EXPIRED_RESTARTS} restarts, and a 410 on the first page is not a restart`, async () => {
    const items = Array.from({ length: 1200 }, (_, i) => ev(i));
    const always: KindApi<'Event'> = {
      ...pagedApi(items, new Set()).api,
      listPage: async (ns, o) => {
        if (o.continueToken) throw Object.assign(new Error('expired'), { code: 410 });
        return pagedApi(items, new Set()).api.listPage(ns, o);
      },
    };
    let restarts = 0;
    await assert.rejects(
      listPages(always, request, { page: () => undefined, restart: () => restarts++ }, () => false),
      /expired/,
    );
    assert.equal(restarts, EXPIRED_RESTARTS);
    const first: KindApi<'Event'> = {
      ...always,
      listPage: async () => {
        throw Object.assign(new Error('gone'), { code: 410 });
      },
    };
    restarts = 0;
    await assert.rejects(
      listPages(first, request, { page: () => undefined, restart: () => restarts++ }, () => false),
      /gone/,
    );
    assert.equal(restarts, 0);
  });
});

describe('the Event backlog: one field-selected list', () => {
  it('sends the field selector with every page and resumes from the list resourceVersion', async () => {
    const items = Array.from({ length: 1200 }, (_, i) => ev(i));
    const { api: paged, calls } = pagedApi(items, new Set());
    const api: KindApi<'Event'> = { ...paged, listFieldSelector: EVENT_LIST_SELECTOR };
    const seen: string[] = [];
    const rv = await listPages(
      api,
      request,
      { page: (p) => seen.push(...p.map((e) => e.metadata?.uid ?? '')), restart: () => seen.splice(0) },
      () => false,
    );
    assert.equal(rv, '42');
    assert.deepEqual(
      calls.map((c) => c.fieldSelector),
      [EVENT_LIST_SELECTOR, EVENT_LIST_SELECTOR, EVENT_LIST_SELECTOR],
    );
    assert.equal(seen.length, 1200);
  });

  it("selects every Event but a pod's routine Normal ones (Scheduled, Pulling, Pulled, Created, Started, Killing)", () => {
    const api = kindApis(new KubeConfig()).Event;
    assert.equal(api.listFieldSelector, EVENT_LIST_SELECTOR);
    // Large pages: the apiserver reads `limit` keys from etcd per round trip to fill a filtered page.
    assert.equal(api.listPageSize, EVENT_LIST_PAGE);
    assert.ok(EVENT_LIST_PAGE >= 5000);
    // The apiserver's semantics: comma-separated terms, all of which must hold.
    const selected = (e: Ev) =>
      EVENT_LIST_SELECTOR.split(',').every((term) => {
        const [field, value] = term.split('!=') as [string, string];
        assert.equal(field, 'reason', term);
        return e.reason !== value;
      });
    // Pulled too: as many as Started; the timings of pods started before the trace lose their pull.
    const routine = ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started', 'Killing'];
    const kept = ['TriggeredScaleUp', 'Unhealthy', 'BackOff', 'Failed', 'FailedScheduling', 'FailedMount', 'FailedCreate'];
    const owners = ['ScalingReplicaSet', 'SuccessfulCreate', 'SuccessfulDelete', 'ProvisioningSucceeded'];
    for (const type of ['Normal', 'Warning']) {
      for (const kind of ['Pod', 'ReplicaSet', 'Deployment', 'PersistentVolumeClaim']) {
        for (const reason of [...routine, ...kept, ...owners]) {
          const e: Ev = { metadata: { uid: 'u' }, involvedObject: { kind }, type, reason };
          const wanted = !routine.includes(reason);
          assert.equal(selected(e), wanted, `${type} ${kind} ${reason}`);
          assert.equal(api.listed?.(e), wanted, `listed: ${type} ${kind} ${reason}`);
        }
      }
    }
  });
});

describe('ListIntake', () => {
  it('replaces the cache: deletes vanished, upserts changed, drops silently what is no longer kept', () => {
    const cache = new Map<string, Ev>([
      ['u1', ev(1, '1')],
      ['u2', ev(2, '1')],
      ['u3', ev(3, '1')],
    ]);
    const changes: string[] = [];
    const intake = new ListIntake<'Event'>(cache, {
      change: (type, o) => changes.push(`${type} ${o.metadata?.uid}`),
      keep: (o) => o.metadata?.uid !== 'u3',
    });
    intake.page([ev(1, '1'), ev(3, '2')]);
    intake.page([ev(4, '1')]);
    intake.apply();
    assert.deepEqual(changes, ['delete u2', 'upsert u4']);
    assert.deepEqual([...cache.keys()].sort(), ['u1', 'u4']);
  });

  it("a re-list keeps what its parts never return (a pod's Normal Event the watch delivered)", () => {
    const cache = new Map<string, Ev>([
      ['u1', { ...ev(1), type: 'Warning' }],
      ['u2', { ...ev(2), type: 'Normal' }],
      ['u3', { ...ev(3), type: 'Warning' }],
    ]);
    const changes: string[] = [];
    const intake = new ListIntake<'Event'>(
      cache,
      { change: (type, o) => changes.push(`${type} ${o.metadata?.uid}`) },
      (o) => o.type === 'Warning',
    );
    intake.page([{ ...ev(1), type: 'Warning' }]);
    intake.apply();
    assert.deepEqual(changes, ['delete u3']);
    assert.deepEqual([...cache.keys()].sort(), ['u1', 'u2']);
  });
});
