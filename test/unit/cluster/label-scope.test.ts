import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1LabelSelector } from '@kubernetes/client-node';
import { scopeSelector, selectorString, WatchScope } from '../../../src/cluster/label-scope.js';
import { matchesLabelSelector, matchesSelectorString } from '../../helpers/label-selector.js';

const app = (v: string): V1LabelSelector => ({ matchLabels: { app: v } });

describe('scopeSelector: one label selector for the Pod and ReplicaSet watches', () => {
  const rows: Array<[string, Array<V1LabelSelector | undefined>, string | undefined]> = [
    ['one Deployment', [app('web')], 'app=web'],
    ['several pairs, sorted', [{ matchLabels: { tier: 'front', app: 'web' } }], 'app=web,tier=front'],
    ['identical selectors of two Deployments', [app('web'), app('web')], 'app=web'],
    [
      'matchLabels AND every operator',
      [
        {
          matchLabels: { app: 'web' },
          matchExpressions: [
            { key: 'track', operator: 'In', values: ['stable', 'canary', 'stable'] },
            { key: 'env', operator: 'NotIn', values: ['dev'] },
            { key: 'example.com/owner', operator: 'Exists' },
            { key: 'legacy', operator: 'DoesNotExist' },
          ],
        },
      ],
      '!legacy,app=web,env notin (dev),example.com/owner,track in (canary,stable)',
    ],
    ['single-value In is written k=v', [{ matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }], 'app=web'],
    ['an empty value', [app('')], 'app='],
    ['several Deployments, one pair each on the same key', [app('web'), app('api'), app('db')], 'app in (api,db,web)'],
    [
      'same key, In and pairs mixed',
      [app('web'), { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] }],
      'app in (a,b,web)',
    ],
    ['a selector implied by a looser one is dropped', [app('web'), { matchLabels: { app: 'web', tier: 'x' } }], 'app=web'],
    ['different keys: namespace-wide', [app('web'), { matchLabels: { name: 'api' } }], undefined],
    [
      'two pairs each on the same keys: namespace-wide',
      [{ matchLabels: { app: 'a', t: '1' } }, { matchLabels: { app: 'b', t: '1' } }],
      undefined,
    ],
    [
      'a NotIn with another Deployment: namespace-wide',
      [app('web'), { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['x'] }] }],
      undefined,
    ],
    ['a Deployment not read yet', [app('web'), undefined], undefined],
    ['nothing traced', [], undefined],
    ['an empty selector (matches all)', [{}], undefined],
    ['an unknown operator', [{ matchExpressions: [{ key: 'app', operator: 'Gt', values: ['1'] }] }], undefined],
    ['In without values', [{ matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }], undefined],
    ['Exists with values', [{ matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] }], undefined],
    ['a value that would need escaping', [app('a,b')], undefined],
    ['a value with a space', [app('web api')], undefined],
    ['a value with a parenthesis', [{ matchExpressions: [{ key: 'app', operator: 'In', values: ['a)', 'b'] }] }], undefined],
    ['a key with a bad prefix', [{ matchLabels: { 'Bad_Prefix/app': 'web' } }], undefined],
    ['a value longer than 63', [app('a'.repeat(64))], undefined],
  ];
  for (const [name, selectors, expected] of rows) {
    it(name, () => assert.equal(scopeSelector(selectors), expected));
  }

  it('selectorString of a single selector', () => {
    assert.equal(selectorString({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }), '!x,app=web');
    assert.equal(selectorString({}), undefined);
  });
});

describe('scopeSelector never selects less than the union of the traced selectors', () => {
  /** Label sets of pods that do or do not belong to the traced Deployments. */
  const pods: Array<Record<string, string>> = [
    { app: 'web', 'pod-template-hash': 'abc' },
    { app: 'web', tier: 'x', track: 'canary' },
    { app: 'api' },
    { app: 'db', env: 'prod', 'example.com/owner': 'me' },
    { app: 'web', legacy: 'y', track: 'stable', env: 'dev' },
    { app: 'web', track: 'stable', 'example.com/owner': 'team' },
    { app: '' },
    { name: 'api', app: 'other' },
    { other: 'x' },
    {},
  ];
  const cases: V1LabelSelector[][] = [
    [app('web')],
    [app('web'), app('api'), app('db')],
    [app('web'), { matchLabels: { app: 'web', tier: 'x' } }],
    [app('web'), { matchExpressions: [{ key: 'app', operator: 'In', values: ['api', ''] }] }],
    [
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'track', operator: 'In', values: ['stable', 'canary'] },
          { key: 'env', operator: 'NotIn', values: ['dev'] },
          { key: 'example.com/owner', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist' },
        ],
      },
    ],
    [app('web'), { matchLabels: { name: 'api' } }],
  ];
  for (const selectors of cases) {
    const combined = scopeSelector(selectors);
    it(`${JSON.stringify(selectors)} → ${combined ?? 'namespace-wide'}`, () => {
      let covered = 0;
      for (const labels of pods) {
        if (!selectors.some((s) => matchesLabelSelector(labels, s))) continue;
        covered++;
        if (combined !== undefined) assert.ok(matchesSelectorString(labels, combined), `${JSON.stringify(labels)} not in "${combined}"`);
      }
      assert.ok(covered > 0, 'the row has pods of the traced Deployments');
    });
  }

  it("and stays narrow: another Deployment's pods are not selected by a one-key union", () => {
    const combined = scopeSelector([app('web'), app('api')])!;
    assert.ok(!matchesSelectorString({ app: 'db' }, combined));
    assert.ok(!matchesSelectorString({ name: 'web' }, combined));
  });
});

describe('WatchScope: the scope only widens', () => {
  it('starts at the traced selectors, widens for a new one, keeps it when it leaves, and stays wide', () => {
    const scope = new WatchScope();
    assert.equal(scope.widen([app('web')]), true);
    assert.equal(scope.selector, 'app=web');
    assert.equal(scope.widen([app('web')]), false, 'same traced set: no re-list');
    assert.equal(scope.widen([app('web'), app('api')]), true, 'a second Deployment traced');
    assert.equal(scope.selector, 'app in (api,web)');
    assert.equal(scope.widen([app('api')]), false, 'web no longer traced: the scope keeps it');
    assert.equal(scope.selector, 'app in (api,web)');
    assert.equal(scope.widen([app('web2')]), true, 'web re-created with another selector');
    assert.equal(scope.selector, 'app in (api,web,web2)');
    assert.equal(scope.widen([{ matchLabels: { name: 'x' } }]), true, 'another key: namespace-wide');
    assert.equal(scope.selector, undefined);
    assert.equal(scope.widen([app('web')]), false, 'wide for good');
    assert.equal(scope.selector, undefined);
  });

  it('a Deployment not read yet makes it namespace-wide at once', () => {
    const scope = new WatchScope();
    assert.equal(scope.widen([app('web'), undefined]), true);
    assert.equal(scope.selector, undefined);
  });
});
