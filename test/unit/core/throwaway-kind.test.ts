/**
 * CONTRIBUTING.md's "Adding a workload kind", proven: a kind the core has never heard of, given as
 * a module and a facts entry only (registered here, no other file), is traced through the reducer
 * like the built-in kinds: its object, the pods it owns, its rule, its verdict.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import type { KindFacts, Observation, WorkloadKind } from '../../../src/core/index.js';
import { registerKind } from '../../../src/core/kinds/index.js';
import type { KindModule } from '../../../src/core/kinds/module.js';
import { emitRuleProgress, ownedPodsOf } from '../../../src/core/kinds/owned-pods.js';
import type { PodProgress, PodRuleResult } from '../../../src/core/kinds/rule.js';
import type { RolloutState } from '../../../src/core/state.js';
import type { Workload } from '../../../src/core/workloads.js';
import { NS, ofType, pod, run, running, up, verdictOf } from './builders.js';

const KIND = 'Widget' as WorkloadKind;

/** The facts entry. */
const facts: KindFacts = {
  kind: KIND,
  short: 'wdg',
  spellings: ['wdg', 'widget', 'widgets'],
  apiVersion: 'example.com/v1',
  resource: 'widgets',
  pulumiTypes: [],
  ownedVia: [],
  podsDone: 'ready',
  done: 'rolled out',
  rollsOut: false,
  per: 'replicas',
  features: {
    'success-percent': true,
    'success-pods': true,
    'success-max-unavailable': 'a widget has no rolling update',
    settle: true,
    'baseline-revision': 'a widget has no revision',
    'logs-on-success': 'a widget leaves its pods running',
    'pulumi-messages': 'not modelled',
  },
};

/** A Widget: `spec.replicas` pods wanted, `status.readyReplicas` of them Ready. */
type WidgetObject = Workload & { spec?: { replicas?: number }; status?: { readyReplicas?: number } };

/** The rule: done once every wanted pod is Ready. */
function widgetRule(w: Workload): PodRuleResult {
  const o = w as WidgetObject;
  const desired = o.spec?.replicas ?? 1;
  const ready = o.status?.readyReplicas ?? 0;
  const progress: PodProgress = { desired, ready, updated: ready, available: ready };
  return ready >= desired
    ? { state: 'done', reason: 'RolledOut', message: `widget ready: ${ready}/${desired}`, progress }
    : { state: 'progressing', reason: 'PodsNotReady', message: `waiting for widget: ${ready}/${desired} ready`, progress };
}

const owned = ownedPodsOf({ templateRevision: () => '', podRevision: () => '' });
const rule = (s: RolloutState) => (s.workload ? widgetRule(s.workload) : undefined);
const counts = (s: RolloutState) => {
  const p = rule(s)?.progress;
  return { desired: p?.desired ?? 0, ready: p?.ready ?? 0, updated: p?.updated ?? 0, available: p?.available ?? 0 };
};

/** The module. */
const widgetModule: KindModule = {
  ...owned.members,
  facts,
  emitChanges: () => {},
  emitPhases: () => {},
  emitProgress: (s, memo, emit) => emitRuleProgress(memo, emit, rule(s), counts(s)),
  rule,
  objectRule: widgetRule,
  criterionMet: (s) => rule(s)?.state === 'done',
  staleCount: () => undefined,
  replicas: counts,
  progressWords: (s) => `${counts(s).ready}/${counts(s).desired} widget pods ready`,
  completeMessage: (s) => `widget complete: ${counts(s).ready} pods ready`,
  podsRunOn: true,
  stillWaitingFor: (s) => rule(s)?.message,
};

const widget = (readyReplicas: number, version: string): WidgetObject =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'gizmo', namespace: NS, uid: 'widget-uid', generation: 1, resourceVersion: version },
    spec: { replicas: 2 },
    status: { readyReplicas },
  }) as WidgetObject;

function widgetPod(name: string): V1Pod {
  const p = pod({ name, rs: 'gizmo', containers: [running()] });
  p.metadata!.ownerReferences = [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'gizmo', uid: 'widget-uid', controller: true }];
  return p;
}

const upWidget = (w: WidgetObject, s: number): Observation => ({ ...up('Job', w, s), kind: KIND }) as unknown as Observation;

describe('a kind added as a module and a facts entry only', () => {
  registerKind(widgetModule);
  const target = { name: 'gizmo', kind: KIND };

  it('is traced through the reducer: its object, its pods, its rule and its verdict', () => {
    const { events } = run([upWidget(widget(1, '1'), 0), up('Pod', widgetPod('gizmo-a'), 1), up('Pod', widgetPod('gizmo-b'), 2)], target);
    assert.equal(verdictOf(events), undefined, 'one of two pods ready: no verdict yet');
    assert.deepEqual(
      ofType(events, 'pod').map((e) => e.name),
      ['gizmo-a', 'gizmo-b'],
      'the pods it owns are its rows',
    );
    assert.equal(ofType(events, 'progress').at(-1)?.message, 'waiting for widget: 1/2 ready');
    const done = run([upWidget(widget(1, '1'), 0), up('Pod', widgetPod('gizmo-a'), 1), upWidget(widget(2, '2'), 3)], target);
    const v = verdictOf(done.events);
    assert.equal(v?.outcome, 'succeeded');
    assert.match(v?.summary ?? '', /rolled out: 2\/2 widget pods ready/);
    assert.deepEqual(done.events[0]?.workload, { kind: KIND, namespace: NS, name: 'gizmo' });
  });

  it('its object deleted fails the trace, in its own words', () => {
    const { events } = run(
      [upWidget(widget(1, '1'), 0), { ...(upWidget(widget(1, '2'), 1) as object), type: 'delete' } as Observation],
      target,
    );
    assert.equal(verdictOf(events)?.outcome, 'failed');
  });
});
